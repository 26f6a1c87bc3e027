/**
 * One `tools/call` through the client's connection, as `MCPClient.callTool` makes it: within the call's
 * timeout, waiting for a connect or reconnect under way included, through the client's concurrency limit
 * (call-limiter.ts), and sent again once after a reconnect when the server lost it with its connection. A
 * task the server created for the call lives on the server: after a reconnect that task is polled, not
 * the call re-sent (task-calls.ts; MCP spec 2025-11-25, "Basic > Utilities > Tasks").
 */
import { MCPCallError } from '../protocol/errors.js';
import type { Redactor } from '../protocol/redact.js';
import type { CallToolResult } from '../protocol/types.js';
import {
  DEFAULT_CALL_TIMEOUT_MS,
  type MCPToolCallOptions,
  type ResolvedCallOptions,
} from '../session/call-options.js';
import type { Session } from '../session/session.js';
import type { CallDefaults } from './call-defaults.js';
import type { CallLimiter } from './call-limiter.js';
import type { Connection } from './connection.js';
import type { RequestHooks } from './hooks/request-hooks.js';
import { resumableTask } from './task-calls.js';
import { redactToolErrorText } from './tool-error-text.js';

/**
 * The client's `tools/call`s on its connection: a failed tool's text loses the client's credentials
 * (tool-error-text.ts), and a call the server lost with its connection is sent again after the reconnect
 * ({@link callThroughConnection}). Through the hooks, the result is redacted after them, so that
 * `afterResult` sees it as it came.
 */
export class ConnectionCalls {
  readonly #connection: Connection;
  readonly #calls: CallLimiter;
  readonly #defaults: CallDefaults;
  readonly #hooks: RequestHooks;
  readonly #redact: Redactor | undefined;
  /** This connection's calls with results as they came (the hooks' `send`). */
  readonly #unredacted: ConnectionCalls | undefined;

  constructor(
    connection: Connection,
    calls: CallLimiter,
    defaults: CallDefaults,
    hooks: RequestHooks,
    redact?: Redactor,
  ) {
    this.#connection = connection;
    this.#calls = calls;
    this.#defaults = defaults;
    this.#hooks = hooks;
    this.#redact = redact;
    this.#unredacted = redact && new ConnectionCalls(connection, calls, defaults, hooks);
  }

  /**
   * `MCPClient.callTool`: `options` layered over the client's defaults (call-defaults.ts), through the hooks
   * when they have anything to do.
   * @throws MCPCallError as `MCPClient.callTool` documents.
   */
  callTool(
    name: string,
    input: Record<string, unknown>,
    options?: MCPToolCallOptions,
  ): Promise<CallToolResult> {
    try {
      const resolved = this.#defaults.resolve(name, options);
      if (this.#hooks.plain(resolved)) return this.call(name, input, resolved);
      return this.#hooks.callTool(name, input, resolved, this.#send).then(this.finish);
    } catch (error) {
      return Promise.reject(error);
    }
  }

  readonly #send = (name: string, input: Record<string, unknown>, resolved: ResolvedCallOptions) =>
    (this.#unredacted ?? this).call(name, input, resolved);

  /**
   * Calls `name` with `input` as {@link callThroughConnection} does, the result redacted when `redact` was given.
   * @throws MCPCallError as `MCPClient.callTool` documents.
   */
  call(name: string, input: Record<string, unknown>, resolved: ResolvedCallOptions): Promise<CallToolResult> {
    const called = callThroughConnection(this.#connection, this.#calls, name, input, resolved);
    return this.#redact === undefined ? called : called.then(this.finish);
  }

  /** The result as the caller gets it (one function per client, handed to `then` as it is). */
  readonly finish = (result: CallToolResult): CallToolResult =>
    this.#redact === undefined ? result : redactToolErrorText(result, this.#redact);
}

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
  // Connected (the common case): no await before the request, and the configured timeout as given.
  const ready = connection.connected;
  const session = ready ?? (await connection.sessionForCall(name, resolved, deadline));
  try {
    // Without `maxConcurrentCalls` and with the timeout as configured, the limiter would only copy the
    // options: the session gets them as they are.
    if (ready !== undefined && !calls.bounded && resolved.timeoutMs === timeout && timeout >= 1)
      return await session.callTool(name, input, resolved);
    // The timeout bounds the whole call, waiting for a reconnect included: a later attempt gets what is left.
    return await calls.call(session, name, input, resolved, ready ? timeout : deadline - Date.now());
  } catch (error) {
    return afterFailure(connection, calls, session, error, name, input, resolved, deadline);
  }
}

/**
 * A failed call on `session`: a lost connection is reported to `connection`; a call the server lost with its
 * connection (crash, expired session) is sent again once reconnected, a task it created is polled instead.
 * @throws `error`, when it is not to be retried.
 */
async function afterFailure(
  connection: Connection,
  calls: CallLimiter,
  session: Session,
  error: unknown,
  name: string,
  input: Record<string, unknown>,
  resolved: ResolvedCallOptions,
  deadline: number,
): Promise<CallToolResult> {
  if (error instanceof MCPCallError && connection.meansConnectionLost(error)) connection.lost(session, error);
  if (!connection.shouldRetry(error, resolved)) throw error;
  // Sent again once reconnected only if that is safe (connection.ts resendRefused); a task the server created
  // lives on the server: that one is polled.
  const taskId = resumableTask(error);
  const refusal = taskId === undefined && (await connection.resendRefused(error as MCPCallError, name));
  if (refusal) throw refusal;
  const next = await connection.sessionForCall(name, resolved, deadline);
  const timeout = resolved.timeoutMs ?? DEFAULT_CALL_TIMEOUT_MS;
  if (taskId !== undefined) return next.tasks.resume(taskId, name, { ...resolved, timeoutMs: timeout });
  return calls.call(next, name, input, resolved, deadline - Date.now());
}
