/**
 * The one way every command reaches its servers (`tools`, `call`, `run`, `servers`): clients named apart,
 * gathered in an `MCPServers` (with each `--config` entry's tool filter), connected together under the
 * command's signal, and always disconnected.
 */
import {
  MCPCallError,
  type MCPClient,
  type MCPServerConnectResult,
  MCPServers,
  type MCPToolFilter,
} from '../mcp/index.js';
import { reportDiagnostics } from './diagnostics.js';
import type { CliIo } from './io.js';
import { throwSetupFailures } from './run-setup-error.js';
import { type ClientExtras, createClient, type ServerTarget } from './server-options.js';
import { urlElicitationHandler } from './url-consent.js';

/**
 * One client per target, in the targets' order, each with a distinct name: a `--config` server keeps its
 * entry's name (unique in its file, and the one the user wrote); the others take the name derived from the
 * command or host (`server-everything`, `localhost:3001`), with `-2`, `-3`, … when it is taken, because the
 * name is what tells servers apart in tool prefixes, events and errors. A target's `timeout` (ms) bounds
 * connecting and each tool call. Nothing is started yet.
 */
export function createClients(
  targets: readonly ServerTarget[],
  extra: ClientExtras = {},
  io?: CliIo,
): MCPClient[] {
  const taken = new Set(targets.flatMap((target) => (target.kind === 'config' ? [target.entry.name] : [])));
  // URL elicitation is declared only where the user can be asked (a terminal); elsewhere a server that
  // needs it fails the call with a -32042 error naming the URL (see url-consent.ts and failure.ts).
  const handlers: ClientExtras = io?.confirm
    ? { ...extra, onUrlElicitation: urlElicitationHandler(io) }
    : extra;
  return targets.map((target) => {
    let client = createClient(target, undefined, handlers);
    if (target.kind !== 'config') {
      const base = client.name;
      for (let n = 2; taken.has(client.name); n += 1) client = createClient(target, `${base}-${n}`, handlers);
      taken.add(client.name);
    }
    // `--timeout` bounds each request, as for `agentwire call`: here, every tool call the model makes.
    if (target.timeout !== undefined) client.setCallOptions({ timeoutMs: target.timeout });
    return client;
  });
}

/** Options of {@link withServers}. */
export interface WithServersOptions {
  /**
   * What a server that fails to connect does: `throw` (default) ends the command before `work` runs, with
   * that server's `MCPCallError`, or a `RunSetupError` holding every failure (in the targets' order) when
   * several fail; `report` runs `work` anyway, which reads each server's result (`agentwire servers`).
   */
  failures?: 'throw' | 'report';
  /** Print each client's background warnings on stderr (see diagnostics.ts). Default true. */
  diagnostics?: boolean;
  /** Options every client gets (`run`: `onSampling` answered with the run's model). Default none. */
  clientOptions?: ClientExtras;
}

/**
 * Connects a client per target ({@link createClients}) at once, runs `work`, and always disconnects them
 * all (stdio process trees ended, HTTP sessions deleted), whether `work` succeeds or throws, a server fails
 * to connect, or `io.signal` fires. `io.signal` is handed to every `connect()`, so an interrupt while
 * connecting stops the servers still starting at once; later, `work` hands it to its own requests (a tool
 * call, the agent's run). Every connect attempt is waited for (each is bounded by its connect timeout), so
 * that all the servers that fail are reported, not only the first. A `--config` target's `allowTools` /
 * `blockTools` filter what `servers.getTools()` offers.
 *
 * @param work receives the servers, in the targets' order, and each one's connect result.
 * @throws MCPCallError kind `aborted` (`interrupted before connecting` / `interrupted while connecting`,
 *   `cause` the signal's reason) when `io.signal` fires before or while connecting; the failures as
 *   {@link WithServersOptions.failures} says; or what `work` throws.
 */
export async function withServers<T>(
  targets: readonly ServerTarget[],
  io: CliIo,
  work: (servers: MCPServers, results: readonly MCPServerConnectResult[]) => Promise<T>,
  options: WithServersOptions = {},
): Promise<T> {
  const { signal } = io;
  if (signal?.aborted) {
    throw new MCPCallError('aborted', 'interrupted before connecting', { cause: signal.reason });
  }
  const servers = new MCPServers();
  for (const [index, client] of createClients(targets, options.clientOptions, io).entries()) {
    if (options.diagnostics !== false) reportDiagnostics(client, io);
    servers.add(client, filterOf(targets[index]!));
  }
  try {
    const results = await servers.connectAll(signal ? { signal } : {});
    if (signal?.aborted) {
      throw new MCPCallError('aborted', 'interrupted while connecting', { cause: signal.reason });
    }
    if (options.failures !== 'report') {
      throwSetupFailures(results.flatMap((result) => (result.ok ? [] : [result.error])));
    }
    return await work(servers, results);
  } finally {
    await servers.disconnectAll();
  }
}

/**
 * {@link withServers} for the one server of `tools` and `call`: `work` gets its client.
 * @throws as {@link withServers} does; a failed connect as the server's own `MCPCallError`.
 */
export function withServer<T>(
  target: ServerTarget,
  io: CliIo,
  work: (client: MCPClient) => Promise<T>,
): Promise<T> {
  return withServers([target], io, (servers) => work(servers.clients()[0]!));
}

function filterOf(target: ServerTarget): MCPToolFilter {
  return target.kind === 'config' ? target.entry : {};
}
