/**
 * Verification of one skill file against its entry (MCP Skills extension, SEP-2640, "Integrity and
 * verification"): the byte length against `size`, then the SHA-256 of the bytes against `digest`, and for
 * `SKILL.md` the YAML frontmatter against the entry's, field by field. Content that fails is never returned.
 */
import { createHash } from 'node:crypto';
import { parse as parseYaml } from 'yaml';
import { isRecord } from '../../core/json.js';
import type { BlobResourceContents, TextResourceContents } from '../protocol/types.js';
import type { MCPSkill, MCPSkillFileEntry } from './skill-entries.js';
import { MCPSkillVerificationError } from './skill-errors.js';

/** One file of a skill as read and checked. */
export interface MCPSkillFile {
  /** The file's resource URI. */
  uri: string;
  /** The path below the skill's directory (`SKILL.md`, `references/FORMS.md`). */
  path: string;
  mimeType?: string;
  /** Exactly the bytes the entry's digest covers. */
  bytes: Uint8Array;
  /** The content as text, when the server sent text (always for `SKILL.md`). */
  text?: string;
  /** Size and digest were checked against the entry; `false` only for a `'dynamic'` skill. */
  verified: boolean;
}

/** The bytes and digest of a read file, and the checks against `entry` (absent for a `'dynamic'` skill). */
export function verifyFile(
  skill: MCPSkill,
  path: string,
  entry: MCPSkillFileEntry | undefined,
  content: TextResourceContents | BlobResourceContents,
): MCPSkillFile {
  const bytes =
    'text' in content ? new TextEncoder().encode(content.text) : Buffer.from(content.blob, 'base64');
  const fail = (reason: 'size' | 'digest', expected: number | string, actual: number | string) =>
    new MCPSkillVerificationError({
      reason,
      server: skill.server,
      skill: skill.name,
      file: content.uri,
      expected,
      actual,
    });
  if (entry !== undefined) {
    if (bytes.byteLength !== entry.size) throw fail('size', entry.size, bytes.byteLength);
    const digest = `sha256:${createHash('sha256').update(bytes).digest('hex')}`;
    if (digest !== entry.digest) throw fail('digest', entry.digest, digest);
  }
  return {
    uri: content.uri,
    path,
    ...(content.mimeType !== undefined && { mimeType: content.mimeType }),
    bytes: new Uint8Array(bytes),
    ...('text' in content && { text: content.text }),
    verified: entry !== undefined,
  };
}

/**
 * The frontmatter and body of `SKILL.md`, its frontmatter equal to the entry's: every field both ways, objects
 * in any key order, arrays in order, no type coercion.
 * @throws MCPSkillVerificationError (`frontmatter`) when it cannot be read or differs.
 */
export function verifyManifest(
  skill: MCPSkill,
  file: MCPSkillFile,
): { frontmatter: Record<string, unknown>; body: string } {
  const fail = (expected: readonly string[], actual: readonly string[], cause?: unknown) =>
    new MCPSkillVerificationError(
      { reason: 'frontmatter', server: skill.server, skill: skill.name, file: file.uri, expected, actual },
      { cause },
    );
  const text = file.text ?? decodeStrict(file.bytes);
  let parsed: { frontmatter: Record<string, unknown>; body: string };
  try {
    parsed = splitManifest(text);
  } catch (error) {
    throw fail([], [], error);
  }
  const differences = differencesOf(skill.frontmatter, parsed.frontmatter, '');
  if (differences.length > 0)
    throw fail(
      differences.map((d) => `${d.field}: ${show(d.entry)}`),
      differences.map((d) => `${d.field}: ${show(d.file)}`),
    );
  return parsed;
}

/** Frontmatter between the leading `---` lines (a BOM and CRLF line ends allowed), and the body after. */
function splitManifest(markdown: string | undefined): {
  frontmatter: Record<string, unknown>;
  body: string;
} {
  if (markdown === undefined) throw new TypeError('SKILL.md is not UTF-8 text');
  const text = markdown.replace(/^\uFEFF/, '').replaceAll('\r\n', '\n');
  if (!text.startsWith('---\n')) throw new TypeError('SKILL.md does not begin with a "---" line');
  const rest = text.slice(4);
  const close = /^---[\t ]*$/m.exec(rest);
  if (close === null) throw new TypeError('the frontmatter of SKILL.md has no closing "---" line');
  const yaml = rest.slice(0, close.index);
  const frontmatter: unknown = yaml.trim() === '' ? {} : parseYaml(yaml, { schema: 'core' });
  if (!isRecord(frontmatter)) throw new TypeError('the frontmatter of SKILL.md is not a mapping');
  const body = rest.slice(close.index + close[0].length);
  return { frontmatter, body: body.startsWith('\n') ? body.slice(1) : body };
}

interface Difference {
  field: string;
  entry: unknown;
  file: unknown;
}

function differencesOf(entry: unknown, file: unknown, path: string): Difference[] {
  const field = path === '' ? '(frontmatter)' : path;
  if (Array.isArray(entry) && Array.isArray(file)) {
    if (entry.length !== file.length) return [{ field, entry, file }];
    return entry.flatMap((item, index) => differencesOf(item, file[index], `${path}[${index}]`));
  }
  if (isRecord(entry) && isRecord(file) && !Array.isArray(entry) && !Array.isArray(file)) {
    const keys = [...new Set([...Object.keys(entry), ...Object.keys(file)])].sort();
    return keys.flatMap((key) => differencesOf(entry[key], file[key], path === '' ? key : `${path}.${key}`));
  }
  return Object.is(entry, file) ? [] : [{ field, entry, file }];
}

function show(value: unknown): string {
  return value === undefined ? '(absent)' : JSON.stringify(value);
}

function decodeStrict(bytes: Uint8Array): string | undefined {
  try {
    return new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(bytes);
  } catch {
    return undefined;
  }
}
