/**
 * Skill entries as `skills/list` carries them (MCP Skills extension, SEP-2640, `io.modelcontextprotocol/skills`),
 * checked before the host holds them: the entry's shape, its `SKILL.md` URI inside a named directory whose last
 * segment is the frontmatter `name`, every listed file inside that directory, and `SKILL.md` itself listed.
 */
import { isRecord } from '../../core/json.js';
import { SKILLS_EXTENSION_ID } from '../session/negotiation/extensions.js';

/** The extension's identifier in `capabilities.extensions`. */
export const SKILLS_EXTENSION = SKILLS_EXTENSION_ID;

/** One file of a skill, with what verifies it. */
export interface MCPSkillFileEntry {
  /** The file's resource URI, as the server listed it. */
  uri: string;
  /** The path below the skill's directory (`SKILL.md`, `references/FORMS.md`), percent-decoded. */
  path: string;
  /** `sha256:` and 64 lowercase hex digits: the SHA-256 of the file's raw bytes. */
  digest: string;
  /** The file's length in bytes. */
  size: number;
}

/** A skill a server offers: its identity, its `SKILL.md` frontmatter, and the files that make it up. */
export interface MCPSkill {
  /** The name of the server that offers it. */
  server: string;
  /** The frontmatter `name`: 1-64 lowercase letters, digits and single hyphens. */
  name: string;
  /** The frontmatter `description`: what the skill is for, shown to the model before it is loaded. */
  description: string;
  /** The resource URI of the skill's `SKILL.md`. */
  uri: string;
  /** The `SKILL.md` frontmatter as the entry states it; the file's own must equal it field by field. */
  frontmatter: Record<string, unknown>;
  /** Every file of the skill, or `'dynamic'` when the server publishes no list (no size or digest to check). */
  files: MCPSkillFileEntry[] | 'dynamic';
}

const NAME = /^[\da-z]+(?:-[\da-z]+)*$/;
const DIGEST = /^sha256:[\da-f]{64}$/;
const MANIFEST = '/SKILL.md';

/** The skill's directory URI (no trailing slash), or `undefined` when `uri` is no `…/<dir>/SKILL.md` URI. */
export function skillRoot(uri: string): string | undefined {
  const href = canonical(uri);
  if (href === undefined || !href.endsWith(MANIFEST) || /[?#]/.test(href)) return undefined;
  const root = href.slice(0, -MANIFEST.length);
  return root.endsWith('/') || root.endsWith(':') ? undefined : root;
}

/** The path of `uri` below `root`, percent-decoded, or `undefined` when it is not strictly inside it. */
export function pathBelow(root: string, uri: string): string | undefined {
  const href = canonical(uri);
  if (href === undefined || !href.startsWith(`${root}/`) || /[?#]/.test(href)) return undefined;
  const segments = href
    .slice(root.length + 1)
    .split('/')
    .map(decodeSegment);
  const bad = (segment: string | undefined) =>
    segment === undefined || segment === '' || segment === '.' || segment === '..' || /[/\0]/.test(segment);
  return segments.some(bad) ? undefined : segments.join('/');
}

/** Checks one listed entry; `problems` is empty for a valid one. */
export function checkEntry(
  server: string,
  value: unknown,
): { skill?: MCPSkill; uri?: string; problems: string[] } {
  if (!isRecord(value)) return { problems: ['the entry is not an object'] };
  const uri = typeof value.uri === 'string' ? value.uri : undefined;
  const problems: string[] = [];
  const frontmatter = isRecord(value.frontmatter) ? value.frontmatter : undefined;
  const name = frontmatter?.name;
  const description = frontmatter?.description;
  const root = uri === undefined ? undefined : skillRoot(uri);
  if (uri === undefined) problems.push('uri is not a string');
  else if (root === undefined) problems.push(`uri "${uri}" is not a SKILL.md URI inside a named directory`);
  if (typeof name !== 'string' || name.length > 64 || !NAME.test(name))
    problems.push('frontmatter name must be 1-64 lowercase letters, digits and single hyphens');
  else if (root !== undefined && lastSegment(root) !== name)
    problems.push(`frontmatter name "${name}" is not the directory's name "${lastSegment(root)}"`);
  if (typeof description !== 'string' || description === '' || [...description].length > 1024)
    problems.push('frontmatter description must be 1-1024 characters');
  const files = root === undefined ? [] : checkFiles(root, uri as string, value.resources, problems);
  if (problems.length > 0 || frontmatter === undefined)
    return { ...(uri !== undefined && { uri }), problems };
  const skill: MCPSkill = {
    server,
    name: name as string,
    description: description as string,
    uri: uri as string,
    frontmatter,
    files,
  };
  return { skill, uri: skill.uri, problems };
}

/** The entry's `resources`: each file inside the skill's directory, `SKILL.md` among them, none twice. */
function checkFiles(
  root: string,
  manifest: string,
  resources: unknown,
  problems: string[],
): MCPSkillFileEntry[] | 'dynamic' {
  if (resources === 'dynamic') return 'dynamic';
  if (!Array.isArray(resources)) {
    problems.push('resources is neither an array nor "dynamic"');
    return [];
  }
  const files: MCPSkillFileEntry[] = [];
  for (const resource of resources) {
    const entry = isRecord(resource) ? resource : {};
    const { uri, digest, size } = entry;
    const path = typeof uri === 'string' ? pathBelow(root, uri) : undefined;
    if (typeof uri !== 'string' || path === undefined) {
      problems.push(`resource ${JSON.stringify(uri)} is not a file inside ${root}`);
    } else if (typeof digest !== 'string' || !DIGEST.test(digest)) {
      problems.push(`resource "${uri}" has no sha256 digest`);
    } else if (typeof size !== 'number' || !Number.isSafeInteger(size) || size < 0) {
      problems.push(`resource "${uri}" has no size in bytes`);
    } else if (files.some((file) => file.path === path)) {
      problems.push(`resource "${uri}" is listed more than once`);
    } else {
      files.push({ uri, path, digest, size });
    }
  }
  if (!files.some((file) => file.path === 'SKILL.md')) problems.push(`resources must include ${manifest}`);
  return files;
}

function canonical(uri: string): string | undefined {
  try {
    return new URL(uri).href;
  } catch {
    return undefined;
  }
}

function decodeSegment(segment: string): string | undefined {
  try {
    return decodeURIComponent(segment);
  } catch {
    return undefined;
  }
}

/** The decoded last path segment of a directory URI; the host when the path is empty (`skill://name`). */
function lastSegment(root: string): string {
  const url = new URL(root);
  const path = url.pathname;
  if (path === '' || path === '/') return url.host;
  return decodeSegment(path.slice(path.lastIndexOf('/') + 1)) ?? '';
}
