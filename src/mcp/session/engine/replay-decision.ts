/**
 * Whether a request lost before its response is sent again: one pure function of the request, the tool's
 * annotations and the attempt, for both ways a request is lost:
 * - MCP 2025-11-25 over Streamable HTTP, the server forgot the session (HTTP 404 to a request carrying its
 *   `Mcp-Session-Id`): the client MUST start a new session with a new `initialize` ("Transports > Streamable
 *   HTTP > Session Management"), and the request may be sent again on it;
 * - MCP 2026-07-28 over Streamable HTTP, the response stream broke before the response: streams are not
 *   resumable, so the client MUST re-issue the request as a new request with a new id ("Transports >
 *   Streamable HTTP").
 *
 * Either way the client cannot know whether the server acted on the request, so only what is safe to repeat
 * is repeated, once:
 * - reads, which the spec defines as returning what the server holds without changing it (the lists,
 *   `resources/read`, `prompts/get`, `completion/complete` "Utilities > Completion", `ping`, `server/discover`,
 *   `tasks/get`, `tasks/list` and `tasks/result` "Utilities > Tasks");
 * - requests that set a state, so that twice is once (`logging/setLevel`, `resources/subscribe`,
 *   `resources/unsubscribe`);
 * - `tools/call` of a tool whose annotations say `readOnlyHint` (it does not modify its environment) or
 *   `idempotentHint` (calling it again with the same arguments has no further effect): "Server Features >
 *   Tools > Tool Annotations". Any other tool may have run before the loss, and running it again could
 *   repeat its side effects: it fails with kind `may_have_run`, and the caller decides.
 * Anything else (`tasks/cancel`, a request this list does not know) fails with the error it met.
 */

/** The methods sent again once after a loss (see the file header): they read, or set a state. */
export const REPEATABLE_METHODS: ReadonlySet<string> = new Set([
  'tools/list',
  'prompts/list',
  'prompts/get',
  'resources/list',
  'resources/templates/list',
  'resources/read',
  'completion/complete',
  'ping',
  'server/discover',
  'tasks/get',
  'tasks/list',
  'tasks/result',
  'logging/setLevel',
  'resources/subscribe',
  'resources/unsubscribe',
]);

/** How many times a lost request is sent in all, the first time included. */
export const MAX_SENDS = 2;

/** What {@link decideReplay} decides from. */
export interface ReplayInput {
  /** The JSON-RPC method of the lost request (`tools/call`, `tools/list`, …). */
  method: string;
  /**
   * For `tools/call`: the tool's annotations from the last `tools/list`; `undefined` for a tool not listed
   * (or another method).
   */
  annotations?: { readOnlyHint?: boolean | undefined; idempotentHint?: boolean | undefined } | undefined;
  /** The send that was lost, from 1 (the first send). */
  attempt: number;
}

/**
 * What {@link decideReplay} decided:
 * - `resend`: send the request again, as a new request with a new id; `reason` says why it is safe;
 * - `fail`: do not; `error` says with what: `may_have_run` (a `tools/call` that may have run: kind
 *   `may_have_run`) or `original` (the error the lost request met).
 */
export type ReplayDecision =
  | { action: 'resend'; reason: 'repeatable_method' | 'read_only_tool' | 'idempotent_tool' }
  | {
      action: 'fail';
      reason: 'attempts_spent' | 'tool_not_safe' | 'method_not_repeatable';
      error: 'may_have_run' | 'original';
    };

/** Decides whether a lost request is sent again (see the file header). Pure: same input, same decision. */
export function decideReplay(input: ReplayInput): ReplayDecision {
  const tool = input.method === 'tools/call';
  const error = tool ? 'may_have_run' : 'original';
  if (input.attempt >= MAX_SENDS) return { action: 'fail', reason: 'attempts_spent', error };
  if (tool) {
    if (input.annotations?.readOnlyHint === true) return { action: 'resend', reason: 'read_only_tool' };
    if (input.annotations?.idempotentHint === true) return { action: 'resend', reason: 'idempotent_tool' };
    return { action: 'fail', reason: 'tool_not_safe', error };
  }
  if (REPEATABLE_METHODS.has(input.method)) return { action: 'resend', reason: 'repeatable_method' };
  return { action: 'fail', reason: 'method_not_repeatable', error };
}
