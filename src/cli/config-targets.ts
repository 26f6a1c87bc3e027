/**
 * The `--config <file>` branch of the server options, accepted wherever `--stdio` / `--url` are. The file
 * is any format `loadServerConfig` reads (Claude Desktop / Cursor `mcpServers`, VS Code `servers`, `${VAR}`
 * references); `--server <name>` picks entries of it. An entry carries its own `env`, `cwd`, `headers` and `type`, so the
 * command-line flags for those are refused for it rather than quietly merged or ignored.
 */

import {
  getServerEntry,
  type MCPClient,
  MCPConfigError,
  type MCPConfigWarning,
  type MCPServerConfig,
  type MCPServerEntry,
  type MCPTool,
  toolFilter,
} from '../mcp/index.js';
import { parseInputPairs } from './host-configs/inputs.js';
import { findHostEntries, findHostEntry, loadConfigFile } from './host-configs/lookup.js';
import { throwSetupFailures } from './run-setup-error.js';
import {
  type ServerListOptionValues,
  type ServerOptionValues,
  type ServerTarget,
  serverTarget,
  serverTargets,
  type TargetTimeouts,
  targetTimeouts,
} from './server-options.js';
import { UsageError } from './usage-error.js';

/** What an entry sets instead of each `--stdio` / `--url` flag, for the refusal message. */
const ENTRY_FIELD = { '--env': 'env', '--cwd': 'cwd', '--header': 'headers', '--transport': 'type' } as const;
type EntryFlag = keyof typeof ENTRY_FIELD;

/**
 * The one server a single-server command (`tools`, `call`) talks to: the `--stdio` / `--url` server
 * ({@link serverTarget}), or the `--config` entry named by `--server` — which may be omitted when the file
 * has exactly one enabled server.
 * Without `--config`, `--server <name>` is looked up in the hosts' configurations (host-configs/lookup.ts).
 * `${input:ID}` values come from `--input ID=value`, or are asked for on a terminal.
 * @throws UsageError when `--config` or `--server` comes with `--stdio` / `--url`,
 *   `--server` is given twice, or `--env` / `--cwd` / `--header` / `--transport` would apply to the entry.
 * @throws MCPConfigError when the file cannot be read or is malformed as a whole, the entry named is
 *   invalid (its own error: `config <file>: server "<name>": "<field>" …`), no such or a disabled server is
 *   named, or the file has no or several enabled servers (invalid ones count) and no `--server` was given.
 *   Other entries being invalid does not matter.
 */
export async function commandTarget(values: ServerOptionValues): Promise<ServerTarget> {
  const names = values.server ?? [];
  if (values.config === undefined && names.length === 0) return serverTarget(values);
  if (values.stdio !== undefined || values.url !== undefined) {
    const option = values.config === undefined ? '--server' : '--config';
    throw new UsageError(`give either ${option} or --stdio/--url, not both`);
  }
  const flag = usedFlags(values)[0];
  if (flag !== undefined) throw flagForEntry(flag, 'the --config server');
  if (names.length > 1) throw new UsageError('give one --server: this command talks to a single server');
  const inputs = parseInputPairs(values.input ?? []);
  // Without --config, the name is looked up in the hosts' configurations (host-configs/).
  if (values.config === undefined)
    return configTarget((await findHostEntry(names[0]!, { inputs })).entry, values);
  const config = await loadConfigFile(values.config, inputs, names.length > 0 ? names : undefined);
  const name = names[0];
  const entry = name === undefined ? onlyEntry(config) : getServerEntry(config, name);
  return configTarget(entry, values, config.warnings);
}

/**
 * The servers of `agentwire run`: the `--stdio` and `--url` ones ({@link serverTargets}), then the
 * `--config` entries named by `--server` in the order given, or every enabled entry in the file's order
 * when no `--server` is given. `--env` / `--cwd` / `--header` keep applying to the `--stdio` / `--url`
 * servers only.
 * Without `--config`, each `--server <name>` is looked up in the hosts' configurations.
 * @throws UsageError as {@link serverTargets} does, for a `--server` named
 *   twice, and a flag that could only apply to a configured server.
 * @throws MCPConfigError as {@link commandTarget} does; also when the file has no enabled server at all.
 *   Invalid entries (`MCPServerConfig.invalid`) fail the run only when they are used: all of them without
 *   `--server`, the named ones with it. One failure is thrown as its `MCPConfigError`, several as a
 *   `RunSetupError` holding each (all reported, not only the first).
 */
export async function commandTargets(values: ServerListOptionValues): Promise<ServerTarget[]> {
  const names = values.server ?? [];
  if (values.config === undefined && names.length === 0) return serverTargets(values);
  if (values.stdio.length === 0 && values.env.length > 0) throw flagForEntry('--env', '--config servers');
  if (values.stdio.length === 0 && values.cwd !== undefined) throw flagForEntry('--cwd', '--config servers');
  if (values.url.length === 0 && values.header.length > 0) throw flagForEntry('--header', '--config servers');
  const twice = names.find((name, index) => names.indexOf(name) !== index);
  if (twice !== undefined) throw new UsageError(`--server "${twice}" is given twice`);
  const direct = serverTargets(values);
  const inputs = parseInputPairs(values.input ?? []);
  if (values.config === undefined) {
    const found = await findHostEntries(names, { inputs });
    throwSetupFailures(found.filter((result) => result instanceof MCPConfigError));
    const hostEntries = found.flatMap((result) => (result instanceof MCPConfigError ? [] : [result.entry]));
    return [...direct, ...hostEntries.map((entry) => configTarget(entry, values))];
  }
  const config = await loadConfigFile(values.config, inputs, names.length > 0 ? names : undefined);
  const entries = names.length > 0 ? namedEntries(config, names) : allEntries(config);
  return [...direct, ...entries.map((entry) => configTarget(entry, values, config.warnings))];
}

/**
 * The tools of `client` that the target lets through: all of them for `--stdio` / `--url`, and for a
 * configured server those its entry's `allowTools` / `blockTools` keep (`*` and `?` patterns).
 */
export function exposedTools(client: MCPClient, target: ServerTarget): MCPTool[] {
  if (target.kind !== 'config') return client.getTools();
  const accepts = toolFilter(target.entry);
  return client.getTools().filter((tool) => accepts(tool.name));
}

/** The target of a `--config` entry, with `--timeout` / `--connect-timeout` (ms) when given. */
export function configTarget(
  entry: MCPServerEntry,
  timeouts: TargetTimeouts,
  fileWarnings: readonly MCPConfigWarning[] = [],
): ServerTarget {
  const warnings = fileWarnings.filter((warning) => warning.entry === entry.name);
  return { kind: 'config', entry, ...targetTimeouts(timeouts), ...(warnings.length > 0 && { warnings }) };
}

/** The flags given that a configured server takes from its entry instead. */
function usedFlags(values: ServerOptionValues): EntryFlag[] {
  const used: EntryFlag[] = [];
  if (values.env.length > 0) used.push('--env');
  if (values.cwd !== undefined) used.push('--cwd');
  if (values.header.length > 0) used.push('--header');
  // `--transport` defaults to `auto`, so only another value shows that the user set it.
  if (values.transport !== undefined && values.transport !== 'auto') used.push('--transport');
  return used;
}

function flagForEntry(flag: EntryFlag, subject: string): UsageError {
  return new UsageError(
    `${flag} does not apply to ${subject}: set "${ENTRY_FIELD[flag]}" in the entry of the config file`,
  );
}

/** Every enabled entry's name, the valid ones first, quoted. */
function quotedNames(config: MCPServerConfig): string {
  return [...config.servers, ...config.invalid].map((server) => `"${server.name}"`).join(', ');
}

function noEnabledServer(config: MCPServerConfig): MCPConfigError {
  const disabled = config.disabled.map((name) => `"${name}"`).join(', ');
  const detail = disabled === '' ? '' : ` (disabled: ${disabled})`;
  return new MCPConfigError(`config ${config.source}: has no enabled server${detail}`, {
    file: config.source,
  });
}

/**
 * The file's only enabled server, for a single-server command without `--server`. An invalid entry counts
 * as enabled: when it is the only one, its error is what the user needs to see.
 */
function onlyEntry(config: MCPServerConfig): MCPServerEntry {
  const count = config.servers.length + config.invalid.length;
  if (count === 0) throw noEnabledServer(config);
  if (count === 1) {
    const [entry] = config.servers;
    if (entry) return entry;
    throw config.invalid[0]!.error;
  }
  throw new MCPConfigError(
    `config ${config.source}: has ${count} servers; pick one with --server (servers: ${quotedNames(config)})`,
    { file: config.source },
  );
}

/** Every enabled entry; fails with every invalid entry's error when there are any. */
function allEntries(config: MCPServerConfig): MCPServerEntry[] {
  throwSetupFailures(config.invalid.map((entry) => entry.error));
  if (config.servers.length === 0) throw noEnabledServer(config);
  return config.servers;
}

/** The entries named by `--server`, in that order; fails with every unusable name's error. */
function namedEntries(config: MCPServerConfig, names: readonly string[]): MCPServerEntry[] {
  const entries: MCPServerEntry[] = [];
  const failures: unknown[] = [];
  for (const name of names) {
    try {
      entries.push(getServerEntry(config, name));
    } catch (error) {
      failures.push(error);
    }
  }
  throwSetupFailures(failures);
  return entries;
}
