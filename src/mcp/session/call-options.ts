/**
 * Per-call options for `tools/call`: client defaults, as an object or a function of the tool name, with
 * per-call overrides layered on top.
 */
import type { RunContext } from '../../core/tool.js';
import type { MCPTask } from '../protocol/tasks.js';
import type { CallToolResult } from '../protocol/types.js';
import { DEFAULT_REQUEST_TIMEOUT_MS, type RequestOptions } from './request-options.js';

/** Default of `taskTimeoutMs`: one hour, in ms. */
export const DEFAULT_TASK_TIMEOUT_MS = 3_600_000;

/** Default bound on a tool call, in ms (the MCP SDK's default request timeout). */
export const DEFAULT_CALL_TIMEOUT_MS = DEFAULT_REQUEST_TIMEOUT_MS;

/** Options for one tool call: those of every request, and what only a tool call has. */
export interface MCPToolCallOptions extends RequestOptions {
  /** Per-call bound in ms. Default 60 000. Rejects with `MCPCallError` kind `timeout`. */
  timeoutMs?: number | undefined;
  /**
   * With reconnection enabled, a call whose connection was lost (server crash, refused connection, expired
   * session: kind `connection_closed` or `session_expired`) is sent again once on the new connection, only
   * for a tool annotated `readOnlyHint` or `idempotentHint` and when no `beforeRetry` hook declines (reason
   * `resend`); any other fails with kind `may_have_run`. Never one whose own exchange failed (kind
   * `transport`, a response cut mid-way). False: not even a safe call is sent again after a lost connection
   * (it fails as `connection_closed`). Default true.
   */
  retryOnReconnect?: boolean | undefined;
  /**
   * Run the call as a task where the server allows it (MCP spec 2025-11-25, "Basic > Utilities > Tasks >
   * Tool-Level Negotiation": a tool whose `execution.taskSupport` is `optional`). A `required` tool always
   * runs as a task and a `forbidden` one never, whatever this says; on a 2026-07-28 server of the tasks
   * extension the server decides per call. Default false.
   */
  task?: boolean | undefined;
  /**
   * Bound on a task-backed call as a whole, in ms, polls and input included; `timeoutMs` then bounds each
   * request of it (the `tools/call` that creates the task, each `tasks/get`, …). When it passes the task is
   * cancelled on the server and the call rejects with `MCPCallError` kind `timeout` (`taskId` set).
   * Default 3 600 000 (one hour).
   */
  taskTimeoutMs?: number | undefined;
  /** Told of each status the task reports (a task-backed call only), the first one included. */
  onTaskStatus?: ((task: MCPTask) => void) | undefined;
  /**
   * Told of the task the server created for the call, as the server sent it (2025-11-25: the
   * `CreateTaskResult`'s `task`; 2026-07-28 extension: the `CreateTaskResult`, `resultType` included). When
   * it returns (or resolves to) a result, the call resolves with that result at once and the task is left to
   * the caller (`MCPClient.getTask`, `cancelTask`, …), not polled: what an intermediary passing tasks on (the
   * gateway) needs. Returning undefined lets the call run the task to its end. The shorthand for a first
   * `taskCreated` hook of this call (`MCPClientHooks.taskCreated`): asked before the client's hooks, which
   * are not asked once it returns a result. Default: absent.
   */
  onTaskCreated?:
    | ((created: Record<string, unknown>) => CallToolResult | undefined | Promise<CallToolResult | undefined>)
    | undefined;
  /**
   * Keys for the request's `params._meta` (MCP spec 2025-11-25, "Basic > General fields > _meta": name them
   * with a prefix of your own, `com.example/key`). The keys agentwire sets itself stay agentwire's: a
   * `progressToken` here, or a key under an MCP-reserved prefix (second label `modelcontextprotocol` or
   * `mcp`, as `io.modelcontextprotocol/`), is not sent, and a `traceparent` / `tracestate` here gives way to
   * the active OpenTelemetry span's. Sent again
   * unchanged when the call is re-sent (reconnection, input rounds). A per-call `_meta` replaces the client
   * default's. Default: absent.
   */
  _meta?: Readonly<Record<string, unknown>> | undefined;
  /**
   * Whom the call is made for (a tenant): given to the `headers` function, a token supplier and the client's
   * hooks as `MCPRequestContext.run` (an agent run's `RunOptions.context` arrives here). Default: none.
   */
  context?: RunContext | undefined;
  /**
   * Extra HTTP headers for this call's request, over the client's `headers` (a per-call token, say); a
   * `beforeRequest` hook sees and may change them. Over stdio there are none: ignored. Default: none.
   */
  headers?: Readonly<Record<string, string>> | undefined;
  /**
   * Per-call bound in ms; when `timeoutMs` is given too, `timeoutMs` wins.
   * @deprecated use timeoutMs
   */
  timeout?: number | undefined;
  /**
   * Hard ceiling in ms regardless of progress; when `maxTotalTimeoutMs` is given too, `maxTotalTimeoutMs` wins.
   * @deprecated use maxTotalTimeoutMs
   */
  maxTotalTimeout?: number | undefined;
}

/** Call options with the deprecated aliases folded into their `…Ms` names. */
export type ResolvedCallOptions = Omit<MCPToolCallOptions, 'timeout' | 'maxTotalTimeout'>;

/** What a function-valued `callOptions` receives. */
export interface MCPCallOptionsContext {
  toolName: string;
}

/**
 * Client-wide defaults: fixed, or resolved per call. A function is the shorthand for the first
 * `callOptions` hook (`MCPClientHooks.callOptions`): it is given the context only.
 */
export type MCPCallOptionsSource =
  | MCPToolCallOptions
  | ((context: MCPCallOptionsContext) => MCPToolCallOptions);

/**
 * Resolves the defaults of one tool call (`MCPClientHooks.callOptions`), synchronously: given the defaults
 * the hook before it returned (the first: a copy of the `callOptions` object, `{}` without), returns those
 * to use (`undefined` keeps them). The call's own options are layered over the last one's, as over the
 * `callOptions` object. A throw fails the call with it.
 */
export type MCPCallOptionsHook = (
  defaults: MCPToolCallOptions,
  context: MCPCallOptionsContext,
) => MCPToolCallOptions | undefined;

/**
 * The defaults `source` with the `callOptions` hooks (of `given`, the client's `hooks`) after it, as one source: `source` itself without hooks
 * (so a plain object stays one, and a call with no options of its own is resolved once per tool), else a
 * function running `source` (a function: as the first hook) and then each hook.
 */
export function callOptionsThroughHooks(
  source: MCPCallOptionsSource | undefined,
  given: { callOptions?: readonly MCPCallOptionsHook[] | undefined } | undefined,
): MCPCallOptionsSource | undefined {
  const hooks = given?.callOptions;
  if (hooks === undefined || hooks.length === 0) return source;
  const stages =
    typeof source === 'function' ? [(_: unknown, c: MCPCallOptionsContext) => source(c), ...hooks] : hooks;
  const fixed = typeof source === 'function' ? undefined : source;
  return (context) => {
    let defaults: MCPToolCallOptions = { ...fixed };
    for (const stage of stages) defaults = stage(defaults, context) ?? defaults;
    return defaults;
  };
}

/**
 * Layers `overrides` over the defaults for `toolName`. A key set to `undefined` in the overrides does not
 * erase a default, so `{ signal: context.signal }` with no signal keeps the client's default signal. Each
 * layer's deprecated `timeout` / `maxTotalTimeout` count as its `timeoutMs` / `maxTotalTimeoutMs` unless
 * that layer gives those too.
 */
export function resolveCallOptions(
  defaults: MCPCallOptionsSource | undefined,
  toolName: string,
  overrides: MCPToolCallOptions | undefined,
): ResolvedCallOptions {
  const base = typeof defaults === 'function' ? defaults({ toolName }) : (defaults ?? {});
  const merged: ResolvedCallOptions = { ...withoutAliases(base) };
  const layer = withoutAliases(overrides ?? {});
  for (const [key, value] of Object.entries(layer) as [keyof ResolvedCallOptions, never][]) {
    if (value !== undefined) merged[key] = value;
  }
  return merged;
}

/** `options` with `timeout` and `maxTotalTimeout` moved to `timeoutMs` and `maxTotalTimeoutMs` (which win). */
function withoutAliases(options: MCPToolCallOptions): ResolvedCallOptions {
  const { timeout, maxTotalTimeout, ...rest } = options;
  const out: ResolvedCallOptions = { ...rest };
  const timeoutMs = rest.timeoutMs ?? timeout;
  const maxTotalTimeoutMs = rest.maxTotalTimeoutMs ?? maxTotalTimeout;
  if (timeoutMs !== undefined) out.timeoutMs = timeoutMs;
  if (maxTotalTimeoutMs !== undefined) out.maxTotalTimeoutMs = maxTotalTimeoutMs;
  return out;
}
