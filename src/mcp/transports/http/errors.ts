/**
 * The errors agentwire's HTTP transports raise, built in one place so that every one names the server and
 * the JSON-RPC method, carries the HTTP status and at most {@link BODY_EXCERPT_CHARS} characters of the body,
 * and never a request header value (headers carry credentials: `Authorization`, API keys, session ids).
 */
import { MCPCallError, type MCPCallErrorKind } from '../../protocol/errors.js';

/** How much of an error body an error carries, in characters (errors.ts: `body`, "at most 512"). */
export const BODY_EXCERPT_CHARS = 512;

/** Where a failure happened: the server's name and the JSON-RPC method, for messages and error fields. */
export interface HttpErrorContext {
  server: string | undefined;
  method: string | undefined;
}

/**
 * An error of `kind` saying `what` went wrong where `context` says. Outside a JSON-RPC request (a response
 * we send, a message on a stream) the method reads `request`, so that the message still says what failed.
 */
export function httpTransportError(
  kind: MCPCallErrorKind,
  context: HttpErrorContext,
  what: string,
  extra: {
    status?: number;
    body?: string;
    timeoutMs?: number;
    code?: number;
    data?: unknown;
    reissue?: boolean;
    cause?: unknown;
  } = {},
): MCPCallError {
  return new MCPCallError(kind, what, {
    server: context.server,
    method: context.method ?? 'request',
    status: extra.status,
    body: extra.body,
    timeoutMs: extra.timeoutMs,
    code: extra.code,
    data: extra.data,
    reissue: extra.reissue,
    cause: extra.cause,
  });
}

/** A non-2xx answer (kind `http`): the status and the start of the body. */
export function httpStatusError(context: HttpErrorContext, status: number, body: string): MCPCallError {
  // The message stays one line (an HTML error page is many); the `body` field keeps the text as sent.
  const oneLine = body.replace(/\s+/g, ' ').trim();
  const excerpt = oneLine === '' ? '' : `: ${oneLine}`;
  return httpTransportError('http', context, `the server answered HTTP ${status}${excerpt}`, {
    status,
    body,
  });
}

/**
 * The server no longer knows our session (kind `session_expired`). MCP spec 2025-11-25, "Transports >
 * Session Management": a 404 to a request carrying `Mcp-Session-Id` means the session ended and the client
 * MUST start a new one with a fresh `initialize`.
 */
export function sessionExpiredError(context: HttpErrorContext, status: number, body: string): MCPCallError {
  return httpTransportError(
    'session_expired',
    context,
    `the server no longer knows this session (HTTP ${status}); the session was cleared and needs a new initialize`,
    { status, body },
  );
}

/**
 * True when a 400 body says the session id is unknown. Some servers (the SDK's own example servers, among them
 * server-everything) answer an unknown session with `400 {"error":{"message":"Bad Request: No valid session ID
 * provided"}}` instead of the spec's 404.
 */
export function saysSessionUnknown(body: string): boolean {
  return /session/i.test(body) && /(no valid|invalid|unknown|not found|expired|terminated)/i.test(body);
}

/**
 * An empty 2xx where a JSON-RPC answer was due (kind `http`): reported as an error, since it usually means a
 * proxy answered instead of the MCP server (MCP spec 2025-11-25, "Transports > Streamable HTTP > Sending
 * Messages to the Server": a request is answered by a JSON body or an SSE stream).
 */
export function emptyAnswerError(
  context: HttpErrorContext,
  status: number,
  contentType: string,
): MCPCallError {
  const type = contentType === '' ? 'no content type' : contentType;
  return httpTransportError(
    'http',
    context,
    `the server answered HTTP ${status} (${type}) with an empty body; a proxy probably answered instead of the MCP server`,
    { status, body: '' },
  );
}

/** Cuts `text` to {@link BODY_EXCERPT_CHARS} characters. */
export function excerpt(text: string): string {
  return text.length > BODY_EXCERPT_CHARS ? text.slice(0, BODY_EXCERPT_CHARS) : text;
}

/**
 * Reads at most `maxChars` (default {@link BODY_EXCERPT_CHARS}) characters of an error body, then releases
 * the stream: an error body may be huge or never end. Resolves to '' when the body cannot be read.
 */
export async function readBodyExcerpt(response: Response, maxChars = BODY_EXCERPT_CHARS): Promise<string> {
  const body = response.body;
  if (body === null) return '';
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let text = '';
  try {
    while (text.length < maxChars) {
      const { done, value } = await reader.read();
      if (done) break;
      text += decoder.decode(value, { stream: true });
    }
    text += decoder.decode();
  } catch {
    // The excerpt is best-effort: what arrived before the failure is still worth reporting.
  } finally {
    reader.cancel().catch(() => {});
  }
  return text.length > maxChars ? text.slice(0, maxChars) : text;
}
