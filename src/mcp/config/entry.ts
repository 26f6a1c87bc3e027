/**
 * One server entry of a configuration file, checked and turned into a typed {@link MCPServerEntry}.
 * Accepts the shapes of Claude Desktop / Cursor / Claude Code (`command`/`args`/`env`/`cwd`, or
 * `url`/`headers`/`type`) and of VS Code (`type: "stdio" | "http" | "sse"`, `envFile`). Keys agentwire does
 * not know are ignored untouched (not interpolated), so an entry written for another tool still loads; a key
 * inside agentwire's own `auth` field is checked (auth-fields.ts).
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parseEnv } from 'node:util';
import { isRecord } from '../../core/json.js';
import type { MCPHttpAuth } from '../auth/auth-grant.js';
import { MCPServerUrlError, type MCPServerUrlProblem } from '../protocol/errors.js';
import { readAuth } from './auth-fields.js';
import {
  type EntryContext,
  entryError,
  readBoolean,
  readNonEmptyString,
  readPositiveInteger,
  readStringArray,
  readStringRecord,
} from './fields.js';
import { type MCPLazyFields, readLazyFields } from './lazy-fields.js';
import { type MCPHttpServer, type MCPStdioServer, parseServerUrl } from './server-spec.js';
import type { MCPToolFilter } from './tool-filter.js';

/**
 * What every entry carries besides how to reach the server: its tool filter, call bound, and whether it is
 * connected when needed (`lazy`, `toolList`, `deferLoading`, `toolOptions`: lazy-fields.ts).
 */
export interface MCPServerEntryBase extends MCPToolFilter, MCPLazyFields {
  /** The entry's key under `mcpServers` / `servers`; becomes the client's `name`. */
  name: string;
  /** `"maxConcurrentCalls"`: most tool calls in flight to the server (see `MCPClientOptions`). */
  maxConcurrentCalls?: number;
}

/** A server started as a child process. */
export interface MCPStdioServerEntry extends MCPServerEntryBase {
  kind: 'stdio';
  /** Ready for `MCPClient.fromStdio`: strings interpolated, `cwd` absolute, `envFile` merged under `env`. */
  server: MCPStdioServer;
}

/** A remote server. */
export interface MCPHttpServerEntry extends MCPServerEntryBase {
  kind: 'http';
  /** The endpoint, interpolated and checked to be an `http:` or `https:` URL without `user:password@`. */
  url: string;
  /**
   * Ready for `MCPClient.fromUrl`. `transport`: `type: "sse"` → `'sse'`, `"streamable-http"` → itself, else
   * `'auto'`. `dpop`: the entry's `"dpop": true` (DPoP-bound tokens for the OAuth provider, a fresh key pair
   * per client; see `MCPHttpServer.dpop`). `auth`: the `"auth"` field (auth-fields.ts), its files resolved
   * against the file's folder.
   */
  options: {
    headers?: Record<string, string>;
    auth?: MCPHttpAuth;
    transport: NonNullable<MCPHttpServer['transport']>;
    dpop?: boolean;
  };
}

/** One usable server of a configuration. */
export type MCPServerEntry = MCPStdioServerEntry | MCPHttpServerEntry;

const TYPES: Record<string, 'stdio' | MCPHttpEntryTransport> = {
  stdio: 'stdio',
  http: 'auto',
  'streamable-http': 'streamable-http',
  streamableHttp: 'streamable-http',
  sse: 'sse',
};
type MCPHttpEntryTransport = MCPHttpServerEntry['options']['transport'];

/** How an entry's `"url" …` message words each problem of {@link parseServerUrl} (never quoting the URL). */
const URL_PROBLEMS: Record<MCPServerUrlProblem, (error: MCPServerUrlError) => string> = {
  invalid: () => 'is not a valid URL',
  not_http: (error) => `must be an http: or https: URL (got ${error.protocol})`,
  credentials: () =>
    'must not contain credentials (user:password@); send them in a header such as Authorization',
};

/** Where relative paths (`cwd`, `envFile`) of an entry are resolved. */
export interface EntryParseContext extends EntryContext {
  baseDir: string | undefined;
}

function readType(context: EntryContext, raw: Record<string, unknown>) {
  const type = raw.type;
  if (type === undefined) return undefined;
  if (typeof type !== 'string') throw entryError(context, 'type', 'must be a string');
  const mapped = TYPES[type];
  if (mapped !== undefined) return mapped;
  throw entryError(context, 'type', `must be "stdio", "http" or "sse" (got "${type}")`);
}

/** The fields every entry may have: the tool filter, the call bound, and the lazy-server fields. */
function readFilter(
  context: EntryContext,
  raw: Record<string, unknown>,
): MCPToolFilter &
  MCPLazyFields & {
    maxConcurrentCalls?: number;
  } {
  const allowTools = readStringArray(context, raw, 'allowTools', true);
  const blockTools = readStringArray(context, raw, 'blockTools', true);
  const maxConcurrentCalls = readPositiveInteger(context, raw, 'maxConcurrentCalls');
  return {
    ...readLazyFields(context, raw),
    ...(allowTools && { allowTools }),
    ...(blockTools && { blockTools }),
    ...(maxConcurrentCalls !== undefined && { maxConcurrentCalls }),
  };
}

function readEnvFile(context: EntryParseContext, raw: Record<string, unknown>): Record<string, string> {
  const file = readNonEmptyString(context, raw, 'envFile');
  if (file === undefined) return {};
  const resolved = context.baseDir === undefined ? file : path.resolve(context.baseDir, file);
  let text: string;
  try {
    text = readFileSync(resolved, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? 'unknown error';
    throw entryError(context, 'envFile', `cannot be read (${code})`, { cause: error });
  }
  const parsed = parseEnv(text);
  return Object.fromEntries(
    Object.entries(parsed).filter((pair): pair is [string, string] => pair[1] !== undefined),
  );
}

function stdioEntry(context: EntryParseContext, raw: Record<string, unknown>): MCPStdioServerEntry {
  const command = readNonEmptyString(context, raw, 'command')!;
  const args = readStringArray(context, raw, 'args');
  const env = readStringRecord(context, raw, 'env');
  const cwd = readNonEmptyString(context, raw, 'cwd');
  // `env` wins over `envFile`: the explicit entry is the more specific of the two.
  const merged = { ...readEnvFile(context, raw), ...env };
  const server: MCPStdioServer = {
    command,
    ...(args && { args }),
    ...(Object.keys(merged).length > 0 && { env: merged }),
    ...(cwd !== undefined && {
      cwd: context.baseDir === undefined ? cwd : path.resolve(context.baseDir, cwd),
    }),
  };
  return { name: context.entry, kind: 'stdio', server, ...readFilter(context, raw) };
}

function httpEntry(
  context: EntryParseContext,
  raw: Record<string, unknown>,
  transport: MCPHttpEntryTransport,
): MCPHttpServerEntry {
  const url = readNonEmptyString(context, raw, 'url')!;
  // Checked here as well as by the client, so that the message names the file, entry and field.
  try {
    parseServerUrl(url);
  } catch (error) {
    if (!(error instanceof MCPServerUrlError)) throw error;
    throw entryError(context, 'url', URL_PROBLEMS[error.problem](error), { cause: error });
  }
  const headers = readStringRecord(context, raw, 'headers');
  const dpop = readBoolean(context, raw, 'dpop');
  const auth = readAuth(context, raw, context.baseDir);
  const options = {
    ...(headers && { headers }),
    ...(auth && { auth }),
    transport,
    ...(dpop !== undefined && { dpop }),
  };
  return { name: context.entry, kind: 'http', url, options, ...readFilter(context, raw) };
}

/**
 * Checks one entry. `disabled: true` entries are skipped before anything else is read, so a disabled
 * entry may reference variables that are not set.
 *
 * @returns the entry, or undefined when it is disabled.
 * @throws MCPConfigError naming the file, the entry and the field for every malformed case.
 */
export function parseServerEntry(raw: unknown, context: EntryParseContext): MCPServerEntry | undefined {
  if (!isRecord(raw)) throw entryError(context, undefined, 'must be an object');
  if (raw.disabled !== undefined && typeof raw.disabled !== 'boolean')
    throw entryError(context, 'disabled', 'must be true or false');
  if (raw.disabled === true) return undefined;
  const type = readType(context, raw);
  const hasCommand = raw.command !== undefined;
  const hasUrl = raw.url !== undefined;
  if (hasCommand && hasUrl) throw entryError(context, undefined, 'has both "command" and "url"; keep one');
  if (type === 'stdio' && hasUrl) throw entryError(context, undefined, 'has "url" but "type" is "stdio"');
  if (type !== undefined && type !== 'stdio' && hasCommand)
    throw entryError(context, undefined, `has "command" but "type" is "${String(raw.type)}"`);
  if (hasCommand || type === 'stdio') {
    if (!hasCommand) throw entryError(context, undefined, 'needs "command" (type is "stdio")');
    return stdioEntry(context, raw);
  }
  if (!hasUrl && type !== undefined)
    throw entryError(context, undefined, `needs "url" (type is "${String(raw.type)}")`);
  if (!hasUrl)
    throw entryError(context, undefined, 'needs "command" (a local server) or "url" (a remote one)');
  return httpEntry(context, raw, type ?? 'auto');
}
