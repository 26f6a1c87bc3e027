/**
 * `agentwire servers --config <file>`: every server of a configuration file, connected at once, with its
 * state and tool counts (issue 5, "Server configuration": "`agentwire servers` lists configured servers with
 * their state and tool counts").
 */
import type { Command } from 'commander';
import {
  loadServerConfig,
  MCPCallError,
  type MCPServerConfig,
  type MCPServerConnectResult,
  type MCPServerEntry,
  type MCPServerStatus,
  MCPServers,
} from '../../mcp/index.js';
import type { CommandContext } from '../context.js';
import { ExitCode } from '../io.js';
import { positiveInteger } from '../server-options.js';
import { formatServerRows, type ServerRow, singleLine, transportKind } from '../server-status.js';

interface ServersOptions {
  config: string;
  json?: boolean;
  timeout?: number;
}

/**
 * Registers `servers` on the program. Connects every enabled server of the file in parallel (each bounded
 * by `--timeout`, default 60000 ms), prints one row per server (see `server-status.ts`; `--json`:
 * `{ "config": <absolute path>, "servers": [ServerRow, …] }`), then disconnects them all.
 *
 * Exit codes: 0 every enabled server connected, 3 at least one failed (every row is still printed, and a
 * summary goes to stderr) or the command was interrupted, 2 the file or the command line is wrong.
 */
export function registerServersCommand(program: Command, context: CommandContext): void {
  program
    .command('servers')
    .description("connect to every server of a config file and list each one's state and tool count")
    .requiredOption('--config <file>', 'server configuration file (mcpServers / VS Code servers JSON)')
    .option('--json', 'print the rows as JSON')
    .option('--timeout <ms>', 'bound on connecting to each server, in ms (default 60000)', positiveInteger)
    .action(async (options: ServersOptions) => {
      const config = await loadServerConfig(options.config);
      const enabled = await connectEach(config, options.timeout, context.io.signal);
      const disabled = config.disabled.map((name): ServerRow => ({ name, state: 'disabled' }));
      const rows = [...enabled, ...disabled];
      context.io.stdout(
        options.json
          ? `${JSON.stringify({ config: config.source, servers: rows }, null, 2)}\n`
          : formatServerRows(rows),
      );
      const failed = enabled.filter((row) => row.state === 'failed').length;
      if (failed === 0) return;
      context.io.stderr(`error: ${failed} of ${enabled.length} enabled servers failed to connect\n`);
      context.exit(ExitCode.connection);
    });
}

/**
 * One row per enabled server, in the file's order. Every server is disconnected before this returns.
 * @throws MCPCallError kind `aborted` when `signal` fires before or while connecting.
 */
async function connectEach(
  config: MCPServerConfig,
  timeout: number | undefined,
  signal: AbortSignal | undefined,
): Promise<ServerRow[]> {
  if (signal?.aborted) {
    throw new MCPCallError('aborted', 'interrupted before connecting', { cause: signal.reason });
  }
  const servers = MCPServers.fromConfig(config, timeout === undefined ? {} : { connectTimeout: timeout });
  // connect() takes no signal: an abort is honoured by disconnecting, which cancels the attempts in flight.
  const onAbort = () => void servers.disconnectAll();
  signal?.addEventListener('abort', onAbort, { once: true });
  try {
    const results = await servers.connectAll();
    if (signal?.aborted) {
      throw new MCPCallError('aborted', 'interrupted while connecting', { cause: signal.reason });
    }
    // Read before disconnecting, which forgets the tool lists. Both lists are in the file's order.
    const status = servers.status();
    return config.servers.map((entry, index) => enabledRow(entry, results[index]!, status[index]!));
  } finally {
    signal?.removeEventListener('abort', onAbort);
    await servers.disconnectAll();
  }
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
