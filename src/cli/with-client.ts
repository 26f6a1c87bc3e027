import { MCPCallError, type MCPClient } from '../mcp/index.js';
import { reportDiagnostics } from './diagnostics.js';
import type { CliIo } from './io.js';
import { createClient, type ServerTarget } from './server-options.js';

/**
 * Connects to the target, runs `work`, and always disconnects (the stdio server's process tree is ended,
 * the HTTP session deleted), whether `work` succeeds, throws, or `io.signal` aborts.
 * @throws MCPCallError from `connect()` (kind `spawn`, `transport`, `http`, `timeout`, …) or what `work` throws.
 */
export async function withClient<T>(
  target: ServerTarget,
  io: CliIo,
  work: (client: MCPClient) => Promise<T>,
): Promise<T> {
  if (io.signal?.aborted)
    throw new MCPCallError('aborted', 'interrupted before connecting', { cause: io.signal.reason });
  const client = createClient(target);
  reportDiagnostics(client, io);
  // connect() takes no signal: an abort while connecting is honoured by disconnect(), which cancels the
  // attempt. Later, `work` passes the signal to its own requests. One shared disconnect, because a second
  // call may return before the first has finished stopping the server.
  let closing: Promise<void> | undefined;
  const disconnect = () => {
    closing ??= client.disconnect();
    return closing;
  };
  const onAbort = () => void disconnect();
  io.signal?.addEventListener('abort', onAbort, { once: true });
  try {
    try {
      await client.connect();
    } catch (error) {
      // The abort ended the attempt: say so, rather than "disconnect() was called while connecting".
      if (io.signal?.aborted) {
        throw new MCPCallError('aborted', 'interrupted while connecting', { cause: io.signal.reason });
      }
      throw error;
    }
    io.signal?.removeEventListener('abort', onAbort);
    return await work(client);
  } finally {
    io.signal?.removeEventListener('abort', onAbort);
    await disconnect();
  }
}
