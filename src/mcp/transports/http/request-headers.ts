/**
 * Headers asked for per HTTP request: the client's source of request-dependent headers (a tenant's token,
 * headers a hook set for one call), consulted by the HTTP transports for every request they send, the
 * connect's included, and asked again once after a `401` (MCP spec 2025-11-25, "Authorization > Access
 * Token Usage": the token goes in the `Authorization` header of every HTTP request).
 */

/** The HTTP request the headers are for. */
export interface HttpRequestInfo {
  /**
   * The JSON-RPC method of the message POSTed (`initialize`, `tools/call`, …); `response` for a response to
   * a server request; `GET` for the server's SSE stream; `DELETE` for the end of the session.
   */
  method: string;
  /** 1, or 2 when the request is sent again after a `401`. */
  attempt: number;
}

/**
 * The headers of one request, names as given (they are lower-cased where they are applied); `undefined`
 * for none. Only a promise is awaited, so a source that knows at once costs no turn of the event loop. A
 * throw or rejection fails the request as the transport's failure of it.
 */
export type HttpRequestHeaders = (
  request: HttpRequestInfo,
) => Readonly<Record<string, string>> | undefined | Promise<Readonly<Record<string, string>> | undefined>;

/** What the headers of a POST of `message` are asked for: its method (`response` for a response), the attempt. */
export function requestInfo(message: object, retries: { unauthorized: boolean }): HttpRequestInfo {
  return {
    method: 'method' in message && typeof message.method === 'string' ? message.method : 'response',
    attempt: attemptOf(retries),
  };
}

/** 1, or 2 once a `401` was answered (by OAuth, or by asking the headers again). */
export function attemptOf(retries: { unauthorized: boolean }): number {
  return retries.unauthorized ? 2 : 1;
}
