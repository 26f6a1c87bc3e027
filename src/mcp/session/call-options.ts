/**
 * Per-call options for `tools/call` (TypeScript seed, "Cancellation and Timeouts"): client defaults, as an
 * object or a function of the tool name, with per-call overrides layered on top.
 */
import type { Progress } from '../protocol/types.js';

/** Default request timeout, in ms (the MCP SDK's and the TypeScript seed's default). */
export const DEFAULT_CALL_TIMEOUT_MS = 60_000;

/** Options for one MCP request. */
export interface MCPToolCallOptions {
  /** Cancels the in-flight call: it rejects at once (`MCPCallError` kind `aborted`) and the server is told. */
  signal?: AbortSignal | undefined;
  /** Per-request timeout in ms. Default 60 000. Rejects with `MCPCallError` kind `timeout`. */
  timeout?: number | undefined;
  /** Restart the timeout on each `notifications/progress` for this call. Default false. */
  resetTimeoutOnProgress?: boolean | undefined;
  /** Hard ceiling in ms regardless of progress. Default: none. */
  maxTotalTimeout?: number | undefined;
  /** Receives `notifications/progress` for this call. */
  onprogress?: ((progress: Progress) => void) | undefined;
  /**
   * With reconnection enabled, a call whose connection was lost (server crash, expired session, refused
   * connection) is sent again once, on the new connection. The server may then run the tool twice if it had
   * started before the loss: set false for tools whose side effects must not repeat. Default true.
   */
  retryOnReconnect?: boolean | undefined;
}

/** What a function-valued `callOptions` receives. */
export interface MCPCallOptionsContext {
  toolName: string;
}

/** Client-wide defaults: fixed, or resolved per call. */
export type MCPCallOptionsSource =
  | MCPToolCallOptions
  | ((context: MCPCallOptionsContext) => MCPToolCallOptions);

/**
 * Layers `overrides` over the defaults for `toolName`. A key set to `undefined` in the overrides does not
 * erase a default, so `{ signal: context.signal }` with no signal keeps the client's default signal.
 */
export function resolveCallOptions(
  defaults: MCPCallOptionsSource | undefined,
  toolName: string,
  overrides: MCPToolCallOptions | undefined,
): MCPToolCallOptions {
  const base = typeof defaults === 'function' ? defaults({ toolName }) : (defaults ?? {});
  const merged: MCPToolCallOptions = { ...base };
  for (const [key, value] of Object.entries(overrides ?? {}) as [keyof MCPToolCallOptions, never][]) {
    if (value !== undefined) merged[key] = value;
  }
  return merged;
}
