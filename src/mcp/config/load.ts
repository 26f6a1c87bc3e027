/**
 * config/: server configuration files and server descriptions, checked; knows no client.
 *
 * Server configuration files in the formats users already have:
 *
 * - Claude Desktop / Cursor / Claude Code: `{ "mcpServers": { name: { command, args, env, cwd } |
 *   { url, headers, type } } }`
 * - VS Code (`.vscode/mcp.json`): `{ "servers": { name: { type: "stdio" | "http" | "sse", command, args,
 *   env, envFile, cwd, url, headers } }, "inputs": [...] }`
 *
 * Every string agentwire reads from an entry may hold `${VAR}`, `${env:VAR}`, `${VAR:-default}`,
 * `${input:ID}`, `${workspaceFolder}` or `${userHome}` (see interpolate.ts). `disabled: true`
 * entries are skipped; other top-level keys (VS Code's `inputs`, Claude Desktop's `globalShortcut`, …) and
 * unknown entry keys are ignored (not those inside `auth`, agentwire's own field). agentwire adds two optional entry keys of its own, `allowTools` and
 * `blockTools` (see {@link MCPToolFilter}).
 */

import { readFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import path from 'node:path';
import { isRecord } from '../../core/json.js';
import { MCPConfigError } from '../protocol/errors.js';
import { type MCPServerEntry, parseServerEntry } from './entry.js';
import { parseConfigText } from './text.js';
import { type MCPConfigWarning, unknownKeyWarnings } from './unknown-keys.js';

export type {
  MCPHttpServerEntry,
  MCPServerEntry,
  MCPServerEntryBase,
  MCPStdioServerEntry,
} from './entry.js';
export type { MCPToolFilter } from './tool-filter.js';
export type { MCPConfigWarning } from './unknown-keys.js';

/** A loaded configuration. */
export interface MCPServerConfig {
  /** The file's path, or the `source` label of an in-memory object. */
  source: string;
  /** Which top-level key held the servers: `mcpServers` (Claude Desktop, Cursor) or `servers` (VS Code). */
  format: 'mcpServers' | 'servers';
  /** The enabled servers, in the file's order. */
  servers: MCPServerEntry[];
  /** Names of the entries skipped because of `disabled: true`, in the file's order. */
  disabled: string[];
  /**
   * The enabled entries that cannot be used (a field of the wrong type, an unset `${VAR}`, credentials in a
   * `url`, …), each with the error that says why, in the file's order. They do not stop the other entries
   * from loading: {@link getServerEntry} throws an entry's error when it is asked for that entry, and
   * `MCPServers.fromConfig` reports it as a failed server.
   */
  invalid: MCPInvalidServerEntry[];
  /**
   * The keys of enabled entries that agentwire does not read, in the file's order: ignored (other hosts
   * keep keys of their own in the same files), each with the nearest known key when it looks misspelt.
   * A host prints them once per load (the CLI on stderr).
   */
  warnings: MCPConfigWarning[];
}

/** An enabled entry of a configuration that cannot be used, and why. */
export interface MCPInvalidServerEntry {
  /** The entry's key under `mcpServers` / `servers`. */
  name: string;
  /** Names the file, the entry and the field: `config <file>: server "<name>": "<field>" <problem>`. */
  error: MCPConfigError;
}

/** Options of {@link loadServerConfig} and {@link parseServerConfig}. */
export interface MCPLoadConfigOptions {
  /** Where `${VAR}` and `${env:VAR}` are looked up. Default `process.env`. */
  env?: Readonly<Record<string, string | undefined>>;
  /** Values of VS Code's `${input:ID}` references (agentwire cannot prompt for them). Default `{}`. */
  inputs?: Readonly<Record<string, string>>;
  /**
   * Directory that relative `cwd` and `envFile` paths are resolved against, and `${workspaceFolder}`'s
   * value. Default for a file: its directory, or the parent of that directory when it is named `.vscode`
   * (where VS Code keeps a workspace's `mcp.json`). Default for an object: none (paths left as written,
   * `${workspaceFolder}` an error).
   */
  baseDir?: string;
  /** Label for an in-memory object in error messages. Default `<inline>`. */
  source?: string;
}

function fileError(source: string, problem: string, cause?: unknown): MCPConfigError {
  return new MCPConfigError(`config ${source}: ${problem}`, { file: source, cause });
}

/**
 * Checks a parsed configuration object and returns its servers. Each entry is checked on its own: a
 * malformed one goes to `invalid` with its error, and the others load.
 * @throws MCPConfigError naming the source when the file as a whole is unusable (not an object, no or both
 *   server keys, a server key that is not an object, an entry with an empty name).
 */
export function parseServerConfig(value: unknown, options: MCPLoadConfigOptions = {}): MCPServerConfig {
  const source = options.source ?? '<inline>';
  if (!isRecord(value)) throw fileError(source, 'must be a JSON object');
  const hasClaude = value.mcpServers !== undefined;
  const hasVSCode = value.servers !== undefined;
  if (hasClaude && hasVSCode) throw fileError(source, 'has both "mcpServers" and "servers"; keep one');
  if (!hasClaude && !hasVSCode)
    throw fileError(source, 'has no "mcpServers" (Claude Desktop, Cursor) or "servers" (VS Code) object');
  const format = hasClaude ? 'mcpServers' : 'servers';
  const entries = value[format];
  if (!isRecord(entries)) throw fileError(source, `"${format}" must be an object`);
  const scope = {
    env: options.env ?? process.env,
    inputs: options.inputs ?? {},
    workspaceFolder: options.baseDir,
    userHome: homedir(),
  };
  const servers: MCPServerEntry[] = [];
  const disabled: string[] = [];
  const invalid: MCPInvalidServerEntry[] = [];
  const warnings: MCPConfigWarning[] = [];
  for (const [name, raw] of Object.entries(entries)) {
    if (name === '') throw fileError(source, `"${format}" has an entry with an empty name`);
    if (isRecord(raw) && raw.disabled !== true) warnings.push(...unknownKeyWarnings(source, name, raw));
    let entry: MCPServerEntry | undefined;
    try {
      entry = parseServerEntry(raw, { file: source, entry: name, scope, baseDir: options.baseDir });
    } catch (error) {
      if (!(error instanceof MCPConfigError)) throw error;
      invalid.push({ name, error });
      continue;
    }
    if (entry) servers.push(entry);
    else disabled.push(name);
  }
  return { source, format, servers, disabled, invalid, warnings };
}

/** The directory VS Code would call the workspace folder of a config file. */
function defaultBaseDir(file: string): string {
  const dir = path.dirname(file);
  return path.basename(dir) === '.vscode' ? path.dirname(dir) : dir;
}

/**
 * Loads a configuration file (a path) or checks an already parsed object.
 *
 * @returns the enabled servers, typed and interpolated; the names of disabled ones; and the entries that
 *   cannot be used, each with its error (e.g. `config /home/me/mcp.json: server "github": "url" must be a
 *   string`), which leave the other entries usable.
 * @throws MCPConfigError when the file cannot be read or parsed, or is unusable as a whole (see
 *   {@link parseServerConfig}).
 */
export async function loadServerConfig(
  pathOrObject: string | Record<string, unknown>,
  options: MCPLoadConfigOptions = {},
): Promise<MCPServerConfig> {
  if (typeof pathOrObject !== 'string') return parseServerConfig(pathOrObject, options);
  const file = path.resolve(pathOrObject);
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? 'unknown error';
    throw fileError(file, `cannot be read (${code})`, error);
  }
  const baseDir = options.baseDir ?? defaultBaseDir(file);
  return parseServerConfig(parseConfigText(text, file), { ...options, baseDir, source: file });
}

/**
 * The entry named `name` (for a command line's `--config <file> <server>`).
 * @throws MCPConfigError the entry's own error when it is invalid (see {@link MCPServerConfig.invalid});
 *   when there is no such entry (the message lists the names there are), or it is disabled.
 */
export function getServerEntry(config: MCPServerConfig, name: string): MCPServerEntry {
  const entry = config.servers.find((server) => server.name === name);
  if (entry) return entry;
  const invalid = config.invalid.find((server) => server.name === name);
  if (invalid) throw invalid.error;
  const known = config.servers.map((server) => `"${server.name}"`).join(', ') || 'none';
  const problem = config.disabled.includes(name)
    ? `server "${name}" is disabled ("disabled": true)`
    : `has no server named "${name}" (servers: ${known})`;
  throw new MCPConfigError(`config ${config.source}: ${problem}`, { file: config.source, entry: name });
}
