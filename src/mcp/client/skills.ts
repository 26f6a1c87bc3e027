/**
 * A server's skills (MCP Skills extension, SEP-2640, `io.modelcontextprotocol/skills`): `skills/list` when the
 * server declares the extension in `capabilities.extensions`, and a skill's files by `resources/read` only when
 * the skill is loaded (SEP-2640, "Lazy retrieval": nothing on connect, on listing or at approval). Every file
 * read is verified against the listed entry (skill-verify.ts) before it is returned.
 */
import type { BlobResourceContents, TextResourceContents } from '../protocol/types.js';
import { objectWithArraySchema } from '../session/engine/result-checks.js';
import type { RequestOptions } from '../session/request-options.js';
import type { Session } from '../session/session.js';
import { checkEntry, type MCPSkill, pathBelow, SKILLS_EXTENSION, skillRoot } from './skill-entries.js';
import { MCPSkillNotFoundError, MCPSkillVerificationError } from './skill-errors.js';
import { type MCPSkillFile, verifyFile, verifyManifest } from './skill-verify.js';

/** A loaded skill: its verified `SKILL.md`, split into frontmatter and body, and its other files. */
export interface MCPLoadedSkill {
  skill: MCPSkill;
  /** The frontmatter of `SKILL.md`, equal to the entry's. */
  frontmatter: Record<string, unknown>;
  /** The markdown of `SKILL.md` after the frontmatter: the skill's instructions. */
  body: string;
  /** `SKILL.md` first, then every other listed file in the entry's order (a `'dynamic'` skill: `SKILL.md`). */
  files: MCPSkillFile[];
}

/** The last listing of each session, which `loadSkill` and `readSkillFile` look names up in. */
const listings = new WeakMap<Session, MCPSkill[]>();

type Contents = { contents: (TextResourceContents | BlobResourceContents)[] };
const readSchema = objectWithArraySchema<Contents>('contents');

/**
 * `skills/list`, every page; `[]` without a request when the server does not declare the extension. Entries
 * that fail the checks of skill-entries.ts, and every copy of a repeated URI, are left out: a host must not
 * use them.
 * @throws MCPCallError
 */
export async function listSkills(
  session: Session,
  server: string,
  options: RequestOptions,
): Promise<MCPSkill[]> {
  if (session.serverExtension(SKILLS_EXTENSION) === undefined) {
    listings.set(session, []);
    return [];
  }
  const entries = await session.listAll<unknown>('skills/list', 'skills', options);
  const checked = entries.map((entry) => checkEntry(server, entry));
  const count = (uri: string) => checked.filter((entry) => entry.uri === uri).length;
  const skills = checked.flatMap((entry) =>
    entry.skill !== undefined && count(entry.skill.uri) === 1 ? [entry.skill] : [],
  );
  listings.set(session, skills);
  return skills;
}

/**
 * Loads the skill named `skill` (its frontmatter name, or its `SKILL.md` URI): reads and verifies `SKILL.md`,
 * then each other listed file. Nothing after a file that fails is read.
 * @throws MCPSkillNotFoundError, MCPSkillVerificationError, MCPCallError
 */
export async function loadSkill(
  session: Session,
  server: string,
  skill: string,
  options: RequestOptions,
): Promise<MCPLoadedSkill> {
  const found = await findSkill(session, server, skill, options);
  const manifest = await readVerified(session, found, 'SKILL.md', options);
  const { frontmatter, body } = verifyManifest(found, manifest);
  const files = [manifest];
  if (found.files !== 'dynamic') {
    for (const entry of found.files) {
      if (entry.path !== 'SKILL.md') files.push(await readVerified(session, found, entry.path, options));
    }
  }
  return { skill: found, frontmatter, body, files };
}

/**
 * Reads one file of a skill, `path` relative to its directory (default `SKILL.md`, whose frontmatter is
 * checked too), and verifies it.
 * @throws MCPSkillNotFoundError (also for a path the entry does not list), MCPSkillVerificationError,
 *   MCPCallError
 */
export async function readSkillFile(
  session: Session,
  server: string,
  skill: string,
  path: string,
  options: RequestOptions,
): Promise<MCPSkillFile> {
  const found = await findSkill(session, server, skill, options);
  const file = await readVerified(session, found, path, options);
  if (file.path === 'SKILL.md') verifyManifest(found, file);
  return file;
}

/** The listed skill named `skill` (name or `SKILL.md` URI), from the session's last listing or a new one. */
async function findSkill(
  session: Session,
  server: string,
  skill: string,
  options: RequestOptions,
): Promise<MCPSkill> {
  const listing = listings.get(session) ?? (await listSkills(session, server, options));
  const offered = session.serverExtension(SKILLS_EXTENSION) !== undefined;
  const byUri = listing.filter((entry) => entry.uri === skill);
  const matches = byUri.length > 0 ? byUri : listing.filter((entry) => entry.name === skill);
  if (matches.length === 1) return matches[0] as MCPSkill;
  throw new MCPSkillNotFoundError({
    server,
    skill,
    offered,
    candidates: matches.map((entry) => entry.uri),
  });
}

/** `resources/read` of the skill's file at `path`, verified against its entry (not the frontmatter). */
async function readVerified(
  session: Session,
  skill: MCPSkill,
  path: string,
  options: RequestOptions,
): Promise<MCPSkillFile> {
  const root = skillRoot(skill.uri) as string;
  let resolved: string | undefined;
  try {
    resolved = pathBelow(root, new URL(path, `${root}/`).href);
  } catch {
    resolved = undefined;
  }
  const entry = skill.files === 'dynamic' ? undefined : skill.files.find((file) => file.path === resolved);
  if (resolved === undefined || (skill.files !== 'dynamic' && entry === undefined))
    throw new MCPSkillNotFoundError({ server: skill.server, skill: skill.name, offered: true, path });
  const uri = entry?.uri ?? new URL(path, `${root}/`).href;
  const result = await session.request('resources/read', { uri }, readSchema, options);
  const content = result.contents.find((item) => pathBelow(root, item.uri) === resolved);
  if (content === undefined)
    throw new MCPSkillVerificationError({
      reason: 'unlisted',
      server: skill.server,
      skill: skill.name,
      file: uri,
      expected: uri,
      actual: result.contents.map((item) => item.uri).join(', '),
    });
  return verifyFile(skill, resolved, entry, content);
}
