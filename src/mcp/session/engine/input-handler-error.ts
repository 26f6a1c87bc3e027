/**
 * A client handler's failure while answering an embedded request of a 2026-07-28 `input_required` round
 * (MCP spec 2026-07-28, "Basic > Patterns > Multi Round-Trip Requests"). The spec's error handling for those
 * requests ("Client > Sampling / Roots > Error Handling") is that the client sends nothing more: the server
 * is not waiting for an answer. So the call fails at once; `toCallError` (error-mapping.ts) makes it an
 * `MCPCallError` of kind `input_required` with `inputMethod` set and the handler's own error as `cause`.
 */
export class InputHandlerError extends Error {
  /** The embedded request's key in `inputRequests`. */
  readonly key: string;
  /** The embedded request's method: `elicitation/create`, `sampling/createMessage` or `roots/list`. */
  readonly method: string;

  constructor(key: string, method: string, cause: unknown) {
    super(`the client's ${method} handler failed on input request '${key}'`, { cause });
    this.name = 'InputHandlerError';
    this.key = key;
    this.method = method;
  }
}
