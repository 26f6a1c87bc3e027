/**
 * The MCP servers of one `agentwire run`: named apart, connected together, and always disconnected.
 */
import type { McpServerHandle } from '../agent/index.js';
import { MCPCallError, type MCPClient, toolFilter } from '../mcp/index.js';
import { throwSetupFailures } from './run-setup-error.js';
import { createClient, type ServerTarget } from './server-options.js';

/**
 * One client per target, in the targets' order, each with a distinct name: a `--config` server keeps its
 * entry's name (unique in its file, and the one the user wrote); the others take the name derived from the
 * command or host (`server-everything`, `localhost:3001`), with `-2`, `-3`, … when it is taken, because the
 * name is what tells servers apart in tool prefixes, events and errors. A target's `timeout` (ms) bounds
 * connecting and each tool call. Nothing is started yet.
 */
export function createClients(targets: readonly ServerTarget[]): MCPClient[] {
  const taken = new Set(targets.flatMap((target) => (target.kind === 'config' ? [target.entry.name] : [])));
  return targets.map((target) => {
    let client = createClient(target);
    if (target.kind !== 'config') {
      const base = client.name;
      for (let n = 2; taken.has(client.name); n += 1) client = createClient(target, `${base}-${n}`);
      taken.add(client.name);
    }
    // `--timeout` bounds each request, as for `agentwire call`: here, every tool call the model makes.
    if (target.timeout !== undefined) client.setCallOptions({ timeoutMs: target.timeout });
    return client;
  });
}

/**
 * What the agent is given of `client`: the client itself, except that a `--config` server's tool list is
 * read through its entry's `allowTools` / `blockTools` at every turn (so a `toolsChanged` stays filtered).
 */
export function agentHandle(client: MCPClient, target: ServerTarget): McpServerHandle {
  if (target.kind !== 'config') return client;
  // Compiled once: the agent asks for the tools every turn.
  const accepts = toolFilter(target.entry);
  return {
    name: client.name,
    connect: () => client.connect(),
    disconnect: () => client.disconnect(),
    isConnected: () => client.isConnected(),
    getTools: () => client.getTools().filter((tool) => accepts(tool.name)),
  };
}

/**
 * Connects every client at once, runs `work`, and always disconnects them all (stdio process trees ended,
 * HTTP sessions deleted) — whether `work` succeeds, throws, a server fails to connect, or `signal` fires.
 * An abort while connecting is honoured by disconnecting, which cancels the attempts in flight; later,
 * `work` hands the signal to the agent, which cancels its MCP calls (`notifications/cancelled`).
 * Every connect attempt is waited for (each is bounded by its connect timeout), so that all the servers
 * that fail are reported, not only the first.
 * @throws MCPCallError kind `aborted` when `signal` has already fired; the one server's `connect()`
 *   failure (`MCPCallError` kind `spawn`, `transport`, `http`, `timeout`, …), or a `RunSetupError` with
 *   each failure, in the clients' order, when several fail; or what `work` throws.
 */
export async function withServers<T>(
  clients: readonly MCPClient[],
  signal: AbortSignal | undefined,
  work: () => Promise<T>,
): Promise<T> {
  if (signal?.aborted)
    throw new MCPCallError('aborted', 'interrupted before connecting', { cause: signal.reason });
  // One shared disconnect: a second call could otherwise return before the first has stopped the servers.
  let closing: Promise<void> | undefined;
  const disconnect = () => {
    closing ??= Promise.all(clients.map((client) => client.disconnect())).then(() => undefined);
    return closing;
  };
  const onAbort = () => void disconnect();
  signal?.addEventListener('abort', onAbort, { once: true });
  try {
    const attempts = await Promise.allSettled(clients.map((client) => client.connect()));
    throwSetupFailures(
      attempts.flatMap((attempt) => (attempt.status === 'rejected' ? [attempt.reason] : [])),
    );
    signal?.removeEventListener('abort', onAbort);
    return await work();
  } finally {
    signal?.removeEventListener('abort', onAbort);
    await disconnect();
  }
}
