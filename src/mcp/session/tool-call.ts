/**
 * One `tools/call` as a record: what the session's lean path needs to finish its result or recover from
 * its failure, handed to the direct request path as the request's context (wire/calls.ts `call`), so that
 * a call is one promise from the caller to the response and allocates no closure.
 *
 * The caller (the client) may give a {@link CallSite}: what it does to every result (the client removes its
 * credentials from a failed tool's text) and to a failure the session could not recover from (a reconnect
 * and a re-send). A call without one settles with the session's result or error as it is.
 */
import type { CallToolResult } from '../protocol/types.js';
import { decodeCallToolResult } from './engine/result-checks.js';

/** A `tools/call`'s params before the request's own `_meta` (progress token, trace context) is added. */
export type ToolCallParams = {
  name: string;
  arguments: Record<string, unknown>;
  _meta?: Record<string, unknown>;
};

/** What the caller of a `tools/call` does to its outcome; see the file header. `S` is the session. */
export interface CallSite<O, S> {
  /** The result as the caller returns it; called once per result, after `content` was defaulted to `[]`. */
  finish(result: CallToolResult): CallToolResult;
  /**
   * A failure after the session's own recovery (already an `MCPCallError`, or what failed before the
   * request was made): a result from a retry, or a rejection.
   */
  recover(error: unknown, call: ToolCall<O, S>): Promise<CallToolResult>;
}

/** One `tools/call`: see the file header. */
export class ToolCall<O, S> {
  /**
   * @param deadline - when the whole call must have ended, in `Date.now()` ms, reconnects included (the
   *   caller's, read by its `recover`); 0 when the caller keeps none.
   */
  constructor(
    readonly session: S,
    readonly params: ToolCallParams,
    readonly options: O,
    readonly site: CallSite<O, S> | undefined,
    readonly deadline: number,
  ) {}

  /**
   * `result` as the caller gets it: `content` is `[]` when the server omitted it (2025-06-18+ servers may,
   * returning `structuredContent`; MCP spec 2025-06-18, "Server Features > Tools > Structured Content").
   */
  finish(result: CallToolResult): CallToolResult {
    if (result.content === undefined) result.content = [];
    return this.site === undefined ? result : this.site.finish(result);
  }

  /** The outcome of `sent` (a path other than the lean one, or the session's recovery) as the caller gets it. */
  after(sent: Promise<CallToolResult>): Promise<CallToolResult> {
    const site = this.site;
    const finished = sent.then((result) => this.finish(result));
    return site === undefined ? finished : finished.catch((error: unknown) => site.recover(error, this));
  }
}

/** The lean path's decoder: the result checked (result-checks.ts), then finished as its call says. */
export function decodeToolCall<O, S>(result: unknown, call: ToolCall<O, S>): CallToolResult {
  return call.finish(decodeCallToolResult(result));
}

/** `work()`, a synchronous throw included as a rejection. */
export function attempt<T>(work: () => Promise<T>): Promise<T> {
  try {
    return work();
  } catch (error) {
    return Promise.reject(error);
  }
}
