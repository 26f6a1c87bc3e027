/**
 * One `tools/call` through the client's connection, as `MCPClient.callTool` makes it: within the call's
 * timeout, waiting for a connect or reconnect under way included, through the client's concurrency limit
 * (call-limiter.ts), and sent again once after a reconnect when the server lost it with its connection. A
 * task the server created for the call lives on the server: after a reconnect that task is polled, not
 * the call re-sent (task-calls.ts; MCP spec 2025-11-25, "Basic > Utilities > Tasks").
 */
import { MCPCallError } from '../protocol/errors.js';
import type { CallToolResult } from '../protocol/types.js';
import { DEFAULT_CALL_TIMEOUT_MS, type ResolvedCallOptions } from '../session/call-options.js';
import type { Session } from '../session/session.js';
import type { CallLimiter } from './call-limiter.js';
import type { Connection } from './connection.js';
import { resumableTask } from './task-calls.js';

/**
 * Calls `name` with `input` on `connection`'s current (or next) session.
 * @throws MCPCallError as `MCPClient.callTool` documents.
 */
export async function callThroughConnection(
  connection: Connection,
  calls: CallLimiter,
  name: string,
  input: Record<string, unknown>,
  resolved: ResolvedCallOptions,
): Promise<CallToolResult> {
  const timeout = resolved.timeoutMs ?? DEFAULT_CALL_TIMEOUT_MS;
  const deadline = Date.now() + timeout;
  // The timeout bounds the whole call, waiting for a reconnect included: a later attempt gets what is left.
  const request = (session: Session, ms: number) => calls.call(session, name, input, resolved, ms);
  // Connected (the common case): no await before the request, and the configured timeout as given.
  const ready = connection.connected;
  const session = ready ?? (await connection.sessionForCall(name, resolved, deadline));
  try {
    // Without `maxConcurrentCalls` and with the timeout as configured, the limiter would only copy the
    // options: the session gets them as they are.
    if (ready !== undefined && !calls.bounded && resolved.timeoutMs === timeout && timeout >= 1)
      return await session.callTool(name, input, resolved);
    return await request(session, ready ? timeout : deadline - Date.now());
  } catch (error) {
    if (error instanceof MCPCallError && connection.meansConnectionLost(error))
      connection.lost(session, error);
    if (!connection.shouldRetry(error, resolved)) throw error;
    // The server lost this call with its connection (crash, expired session): once reconnected, send it again
    // if that is safe (connection.ts resendRefused); a task it created lives on the server: poll that one.
    const taskId = resumableTask(error);
    const refusal = taskId === undefined && (await connection.resendRefused(error as MCPCallError, name));
    if (refusal) throw refusal;
    const next = await connection.sessionForCall(name, resolved, deadline);
    if (taskId !== undefined) return next.tasks.resume(taskId, name, { ...resolved, timeoutMs: timeout });
    return request(next, deadline - Date.now());
  }
}
