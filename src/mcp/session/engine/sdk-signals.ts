/**
 * What the MCP SDK reports only as text. Everything else agentwire learns from an error's class and fields;
 * these are the exceptions, each checked in one place against the SDK's exact wording.
 */

/**
 * True for the SDK's report of a response or progress notification that arrived for a request no longer
 * pending (it timed out or was cancelled). MCP spec 2025-11-25, "Utilities > Cancellation": the receiver may
 * already be answering when the cancellation arrives, so such late messages are normal, not failures.
 *
 * Why the text: the SDK (2.4.0, `Protocol._onresponse` and `_onprogress`) hands these to `onerror` as plain
 * `Error`s built from a template (`Received a response for an unknown message ID: …`, `Received a progress
 * notification for an unknown token: …`), with no class, code or field; which requests are pending is its
 * private state. The text is the only signal there is. agentwire's own `tools/call` path (calls.ts) reports
 * its late messages through a hook instead.
 */
export function isSdkLateMessageReport(error: Error): boolean {
  return /^Received a (response for an unknown message ID|progress notification for an unknown token): /.test(
    error.message,
  );
}
