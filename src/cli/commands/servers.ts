/**
 * `agentwire servers --config <file>`: every server of a configuration file, connected at once, listed with
 * its state and tool counts.
 */
import type { Command } from 'commander';
import { DEFAULT_CONNECT_TIMEOUT_MS } from '../../mcp/client/options.js';
import type {
  MCPServerConfig,
  MCPServerConnectResult,
  MCPServerEntry,
  MCPServerStatus,
} from '../../mcp/index.js';
import type { CommandContext } from '../context.js';
import { type CliIo, ExitCode, singleLine } from '../io.js';
import { positiveInteger, VERBOSE_HELP } from '../server-flags.js';
import { formatServerRows, type ServerRow, transportKind } from '../server-status.js';

interface ServersOptions {
  config: string;
  input?: string[];
  json?: boolean;
  timeout?: number;
  connectTimeout?: number;
  verbose?: boolean;
}

/**
 * Registers `servers` on the program. Connects every enabled server of the file in parallel (each bounded
 * by `--connect-timeout`, default 60000 ms), prints one row per server (see `server-status.ts`; `--json`:
 * `{ "config": <absolute path>, "servers": [ServerRow, …] }`), then disconnects them all. An entry that
 * cannot be used (an unset `${VAR}`, a field of the wrong type) is a `failed` row with its config error,
 * and the other servers are still tried.
 *
 * Exit codes: 0 every enabled server connected, 3 at least one failed or is invalid (every row is still
 * printed, and a summary goes to stderr) or the command was interrupted, 2 the file as a whole or the
 * command line is wrong.
 */
export function registerServersCommand(program: Command, context: CommandContext): void {
  program
    .command('servers')
    .description("connect to every server of a config file and list each one's state and tool count")
    .requiredOption('--config <file>', 'server configuration file (mcpServers / VS Code servers JSON)')
    .option('--json', 'print the rows as JSON')
    .option(
      '--input <ID=value>',
      // biome-ignore lint/suspicious/noTemplateCurlyInString: the config's reference syntax, not a JS placeholder.
      'value of a ${input:ID} in the config (repeatable)',
      (value: string, previous: string[] | undefined) => [...(previous ?? []), value],
    )
    .option(
      '--connect-timeout <ms>',
      `bound on connecting to each server, in ms (default ${DEFAULT_CONNECT_TIMEOUT_MS})`,
      positiveInteger,
    )
    // `servers` only connects, so `--timeout` is the same bound, kept for scripts written before the split.
    .option('--timeout <ms>', 'the same as --connect-timeout here', positiveInteger)
    .option('-v, --verbose', VERBOSE_HELP)
    .action(async (options: ServersOptions) => {
      // Loaded when the command runs, not when it is registered: `--help` needs none of it.
      const { loadServerConfig } = await import('../../mcp/index.js');
      const { parseInputPairs } = await import('../host-configs/inputs.js');
      const config = await loadServerConfig(options.config, { inputs: parseInputPairs(options.input ?? []) });
      for (const warning of config.warnings) context.io.stderr(`warning: ${warning.message}\n`);
      const connectTimeout = options.connectTimeout ?? options.timeout;
      const { rows: enabled, hints } = await connectEach(
        config,
        connectTimeout,
        context.io,
        options.verbose === true,
      );
      const invalid = config.invalid.map(
        ({ name, error }): ServerRow => ({
          name,
          state: 'failed',
          error: { kind: 'config', message: singleLine(error.message) },
        }),
      );
      const disabled = config.disabled.map((name): ServerRow => ({ name, state: 'disabled' }));
      const rows = [...enabled, ...invalid, ...disabled];
      context.io.stdout(
        options.json
          ? `${JSON.stringify({ config: config.source, servers: rows }, null, 2)}\n`
          : formatServerRows(rows),
      );
      const failed = enabled.filter((row) => row.state === 'failed').length;
      if (failed + invalid.length === 0) return;
      const { serverHints } = await import('../failure-explanations.js');
      const invalidHints = config.invalid.map(({ name, error }) => serverHints(name, error)).join('');
      context.io.stderr(
        `error: ${failureSummary(failed, invalid.length, enabled.length)}\n${hints}${invalidHints}`,
      );
      context.exit(ExitCode.connection);
    });
}

/** `1 of 3 enabled servers failed to connect`, or with invalid entries `2 of 4 … (1 invalid entry, …)`. */
function failureSummary(failed: number, invalid: number, valid: number): string {
  const total = valid + invalid;
  if (invalid === 0) return `${failed} of ${total} enabled servers failed to connect`;
  const entries = invalid === 1 ? '1 invalid entry' : `${invalid} invalid entries`;
  const detail = failed === 0 ? entries : `${entries}, ${failed} could not connect`;
  return `${failed + invalid} of ${total} enabled servers failed (${detail})`;
}

/**
 * One row per valid enabled server, in the file's order, each connected under `io.signal` and bounded by
 * `timeout` (ms), its wire traced on stderr with `verbose`, and the `hint:` lines `tools` would print for
 * the failures (failure-explanations.ts `serverHints`). Every server is disconnected before this returns.
 * @throws MCPCallError kind `aborted` when the signal fires before or while connecting.
 */
async function connectEach(
  config: MCPServerConfig,
  timeout: number | undefined,
  io: CliIo,
  verbose = false,
): Promise<{ rows: ServerRow[]; hints: string }> {
  const { configTarget } = await import('../config-targets.js');
  const { withServers } = await import('../with-servers.js');
  const { checkOAuthOffers } = await import('../auth/stored-login.js');
  const { serverHints } = await import('../failure-explanations.js');
  // Only the valid entries: the invalid ones have nothing to connect, and their rows come from the config.
  const bound = { ...(timeout === undefined ? {} : { connectTimeout: timeout }), verbose };
  const targets = config.servers.map((entry) => configTarget(entry, bound));
  return withServers(
    targets,
    io,
    async (servers, results) => {
      // Read before disconnecting, which forgets the tool lists. Both lists are in the file's order.
      const status = servers.status();
      const rows = config.servers.map((entry, index) => enabledRow(entry, results[index]!, status[index]!));
      const failures = results.flatMap((result) => (result.ok ? [] : [result.error]));
      await checkOAuthOffers(failures);
      const hints = failures.map((error) => serverHints(error.server ?? '', error, targets)).join('');
      return { rows, hints };
    },
    // Each failure is a row of its own; background warnings are not printed: the rows are the output.
    { failures: 'report', diagnostics: false },
  );
}

function enabledRow(
  entry: MCPServerEntry,
  result: MCPServerConnectResult,
  status: MCPServerStatus,
): ServerRow {
  const transport = transportKind(entry);
  if (!result.ok) {
    const error = { kind: result.error.kind, message: singleLine(result.error.message) };
    return { name: entry.name, transport, state: 'failed', error };
  }
  return {
    name: entry.name,
    transport,
    state: 'connected',
    toolCount: status.toolCount,
    totalToolCount: status.totalToolCount,
    filtered: entry.allowTools !== undefined || entry.blockTools !== undefined,
  };
}
