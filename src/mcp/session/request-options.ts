/**
 * The options of one MCP request, as every layer passes them on: the client to its session, the session to
 * the SDK or to the `tools/call` fast path (calls.ts). The public option types derive from this one:
 * `MCPToolCallOptions` is it plus what only a tool call has, `MCPRequestOptions` its signal and timeout.
 */
import type { Progress } from '../protocol/types.js';

/** Upper bound on a cached result's freshness in ms (one day), whatever `ttlMs` the server sent. */
export const MAX_CACHE_TTL_MS = 86_400_000;

/** Default bound on one request, in ms: the MCP SDK's (`DEFAULT_REQUEST_TIMEOUT_MSEC`). */
export const DEFAULT_REQUEST_TIMEOUT_MS = 60_000;

/** Options of one request (MCP spec 2025-11-25, "Utilities > Cancellation" and "Utilities > Progress"). */
export interface RequestOptions {
  /**
   * Cancels the request: it rejects at once (`MCPCallError` kind `aborted`, the reason on `cause`) and the
   * server is sent `notifications/cancelled`.
   */
  signal?: AbortSignal | undefined;
  /**
   * Bound on the request in ms; rejects with `MCPCallError` kind `timeout` and tells the server.
   * Default 60 000.
   */
  timeoutMs?: number | undefined;
  /** Restart the timeout on each `notifications/progress` for this request. Default false. */
  resetTimeoutOnProgress?: boolean | undefined;
  /** Hard ceiling on the request's total time in ms, whatever progress arrives. Default: none. */
  maxTotalTimeoutMs?: number | undefined;
  /** Receives the server's `notifications/progress` for this request. */
  onprogress?: ((progress: Progress) => void) | undefined;
  /**
   * Serves a cacheable 2026-07-28 request from the client's response cache or sends it (client/response-cache.ts;
   * MCP spec 2026-07-28, "Server > Utilities > Caching"). Absent: sent.
   */
  cache?: RequestCache | undefined;
}

/** A response cache as one session's requests see it. */
export interface RequestCache {
  /** The cached result of `method` with `params` while fresh, else `send()`'s, stored when cacheable. */
  through<T>(method: string, params: Record<string, unknown>, send: () => Promise<T>): Promise<T>;
}

/**
 * One deadline `timeoutMs` from now, for several requests in turn (the connect's probe and `initialize`
 * share the connect timeout, negotiate.ts): the function returns the milliseconds left, at least 1.
 */
export function timeLeft(timeoutMs: number): () => number {
  const deadline = performance.now() + timeoutMs;
  return () => Math.max(1, Math.ceil(deadline - performance.now()));
}
