/**
 * Why a skill could not be used (MCP Skills extension, SEP-2640, "Integrity and verification"): a file that
 * does not match its entry, or a skill the server does not offer.
 */

/**
 * Which check a skill file failed:
 * - `size`: its byte length is not the entry's `size`;
 * - `digest`: the SHA-256 of its bytes is not the entry's `digest`;
 * - `frontmatter`: (`SKILL.md`) its YAML frontmatter is unreadable or differs from the entry's;
 * - `unlisted`: the file is not in the entry's `resources`, or the server sent no contents for it.
 */
export type MCPSkillVerificationReason = 'size' | 'digest' | 'frontmatter' | 'unlisted';

/**
 * A skill file failed verification against the server's skill entry; its content was not used (for
 * `SKILL.md`, the skill was not loaded). `expected` and `actual` are what the check compared: byte counts for
 * `size`, `sha256:…` digests for `digest`, one `field: value` line per differing field for `frontmatter`
 * (`actual` is empty when the frontmatter cannot be read; `cause` says why).
 */
export class MCPSkillVerificationError extends Error {
  override name = 'MCPSkillVerificationError';
  readonly reason: MCPSkillVerificationReason;
  /** The server that offered the skill. */
  readonly server: string;
  /** The skill's name. */
  readonly skill: string;
  /** The file's resource URI. */
  readonly file: string;
  readonly expected: number | string | readonly string[];
  readonly actual: number | string | readonly string[];

  constructor(
    fields: {
      reason: MCPSkillVerificationReason;
      server: string;
      skill: string;
      file: string;
      expected: number | string | readonly string[];
      actual: number | string | readonly string[];
    },
    options: { cause?: unknown } = {},
  ) {
    super(verificationMessage(fields), options.cause === undefined ? undefined : { cause: options.cause });
    this.reason = fields.reason;
    this.server = fields.server;
    this.skill = fields.skill;
    this.file = fields.file;
    this.expected = fields.expected;
    this.actual = fields.actual;
  }
}

/**
 * The server does not offer the skill: it lists none of that name or URI (`candidates` empty), or several
 * (`candidates` holds their URIs; name it by URI instead), or it does not declare the skills extension
 * (`offered` false).
 */
export class MCPSkillNotFoundError extends Error {
  override name = 'MCPSkillNotFoundError';
  readonly server: string;
  /** The name or `SKILL.md` URI asked for. */
  readonly skill: string;
  /** Whether the server declared `io.modelcontextprotocol/skills` in its capabilities. */
  readonly offered: boolean;
  /** The URIs of the skills that share the name, when more than one does. */
  readonly candidates: readonly string[];
  /** For a file of a found skill: the path asked for. */
  readonly path: string | undefined;

  constructor(fields: {
    server: string;
    skill: string;
    offered: boolean;
    candidates?: readonly string[];
    path?: string;
  }) {
    super(notFoundMessage(fields));
    this.server = fields.server;
    this.skill = fields.skill;
    this.offered = fields.offered;
    this.candidates = fields.candidates ?? [];
    this.path = fields.path;
  }
}

function verificationMessage(fields: {
  reason: MCPSkillVerificationReason;
  server: string;
  skill: string;
  file: string;
  expected: number | string | readonly string[];
  actual: number | string | readonly string[];
}): string {
  const where = `skill "${fields.skill}" of server "${fields.server}": ${fields.file}`;
  const { expected, actual } = fields;
  switch (fields.reason) {
    case 'size':
      return `${where} is ${String(actual)} bytes; the skill entry lists ${String(expected)}`;
    case 'digest':
      return `${where} has digest ${String(actual)}; the skill entry lists ${String(expected)}`;
    case 'frontmatter':
      return Array.isArray(actual) && actual.length > 0
        ? `${where}: the frontmatter differs from the skill entry (entry: ${lines(expected)}; SKILL.md: ${lines(actual)})`
        : `${where}: the frontmatter cannot be read`;
    case 'unlisted':
      return `${where} is not a file of the skill, or the server sent no contents for it`;
  }
}

function lines(value: number | string | readonly string[]): string {
  return Array.isArray(value) ? value.join(', ') : String(value);
}

function notFoundMessage(fields: {
  server: string;
  skill: string;
  offered: boolean;
  candidates?: readonly string[];
  path?: string;
}): string {
  if (!fields.offered) return `server "${fields.server}" does not offer skills`;
  if (fields.path !== undefined)
    return `skill "${fields.skill}" of server "${fields.server}" has no file "${fields.path}"`;
  if (fields.candidates !== undefined && fields.candidates.length > 1)
    return `server "${fields.server}" offers several skills named "${fields.skill}": ${fields.candidates.join(', ')}`;
  return `server "${fields.server}" offers no skill "${fields.skill}"`;
}
