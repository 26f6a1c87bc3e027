/**
 * The 2024-11-05 HTTP+SSE transport, for servers that predate Streamable HTTP (MCP spec 2024-11-05,
 * "Transports > HTTP with SSE"; spec 2025-11-25, "Transports > Backwards Compatibility").
 *
 * The client GETs the SSE endpoint and waits for an `endpoint` event naming the URL to POST messages to;
 * every server message (responses included) then arrives as a `message` event on that one GET stream.
 * Our own rather than the SDK's `SSEClientTransport` so that it speaks our errors (kind, status, bounded
 * body, no header values), records `closeInfo`, and shares the SSE decoder of the Streamable HTTP transport.
 */
import {
  type FetchLike,
  type JSONRPCMessage,
  type MessageExtraInfo,
  type OAuthClientProvider,
  parseJSONRPCMessage,
} from '@modelcontextprotocol/client';
import { MCPCallError } from '../../protocol/errors.js';
import { DEFAULT_MAX_MESSAGE_BYTES, oversizedMessageError } from '../limits.js';
import type { AgentwireTransport, TransportCloseInfo } from '../transport.js';
import { WireOrder } from '../wire-order.js';
import { type HttpAuth, httpAuthFor } from './auth.js';
import { type HttpErrorContext, httpStatusError, httpTransportError, readBodyExcerpt } from './errors.js';
import { type AuthRetries, FIRST_ATTEMPT, retryAfter } from './oauth-retry.js';
import { fetchFollowingRedirects } from './redirects.js';
import { attemptOf, type HttpRequestHeaders } from './request-headers.js';
import { readSse } from './sse-reader.js';

/** Options of {@link LegacySSETransport}. */
export interface LegacySSETransportOptions {
  /** The SSE endpoint (what the server's docs call its URL, e.g. `http://host:3001/sse`). */
  url: string | URL;
  /** Static headers on the GET and every POST. Never copied into errors. */
  headers?: Record<string, string>;
  /** Headers asked for per request (request-headers.ts), over the static ones. */
  requestHeaders?: HttpRequestHeaders;
  /**
   * Whether a `401` asks `requestHeaders` again (`attempt` 2) and sends the request (the GET or a POST) once
   * more, when no `auth` answers it: a source that can change is behind them (a headers function, a
   * supplier). As the Streamable HTTP transport does. Default false.
   */
  reaskAfter401?: boolean;
  /**
   * OAuth provider (the SDK's type): its token on every request (Bearer, or DPoP with a fresh proof); on 401,
   * `auth()` and one retry; on `403 insufficient_scope`, step-up (oauth-retry.ts).
   */
  authProvider?: OAuthClientProvider;
  /** The client's OAuth state shared across its transports (see auth.ts). Wins over `authProvider`. */
  auth?: HttpAuth;
  /** See `HttpAuthOptions.skipIssuerMetadataValidation`; used when `auth` is not given. Default false. */
  skipIssuerMetadataValidation?: boolean;
  /** Custom fetch. Default: the global `fetch`. */
  fetch?: FetchLike;
  /** The server's name, for errors. Default: the URL's host. */
  serverName?: string;
  /**
   * Bound on `start()` in ms: the GET's response headers and then the `endpoint` event, together. A client
   * passes its connect timeout. Default 30_000.
   */
  endpointTimeoutMs?: number;
  /**
   * Largest SSE event accepted, in bytes (after `Content-Encoding` is undone). Every answer arrives on the
   * one stream, so an event over it ends the connection at once: `closeInfo` kind `protocol` naming the
   * limit, and the pending calls fail with it. Default 256 MiB (`DEFAULT_MAX_MESSAGE_BYTES`, as stdio).
   */
  maxMessageBytes?: number;
}

/** HTTP statuses to a POSTed `initialize` that mean "not a Streamable HTTP endpoint" (spec: 400, 404, 405). */
const NOT_STREAMABLE_HTTP = new Set([400, 404, 405]);

/**
 * True when `error` (or an error on its `cause` chain) says the server refused a Streamable HTTP `initialize`
 * in the way a 2024-11-05 HTTP+SSE server does: an {@link MCPCallError} of kind `http` with status 400, 404
 * or 405 (spec 2025-11-25, "Backwards Compatibility": "If it fails with an HTTP 4xx status code (e.g., 405
 * Method Not Allowed or 404 Not Found)", then fall back to GET + `endpoint` event). 401 and 403 are auth,
 * not a sign of an old server; network errors and timeouts are not either.
 */
export function isLegacyFallbackError(error: unknown): boolean {
  for (
    let current = error, depth = 0;
    current instanceof Error && depth < 5;
    current = current.cause, depth++
  ) {
    if (current instanceof MCPCallError) {
      return (
        current.kind === 'http' && current.status !== undefined && NOT_STREAMABLE_HTTP.has(current.status)
      );
    }
  }
  return false;
}

/** HTTP+SSE (2024-11-05) client transport. */
export class LegacySSETransport implements AgentwireTransport {
  onclose?: (() => void) | undefined;
  onerror?: ((error: Error) => void) | undefined;
  onmessage?: (<T extends JSONRPCMessage>(message: T, extra?: MessageExtraInfo) => void) | undefined;

  private readonly url: URL;
  private readonly fetchFn: FetchLike;
  private readonly server: string;
  private readonly lifetime = new AbortController();
  private endpoint: URL | undefined;
  private info: TransportCloseInfo | undefined;
  private closed = false;
  private readonly auth: HttpAuth | undefined;
  private readonly wireOrder = new WireOrder(this, (error) =>
    this.onerror?.(error instanceof Error ? error : new Error(String(error))),
  );

  constructor(private readonly options: LegacySSETransportOptions) {
    this.url = new URL(options.url);
    this.fetchFn = options.fetch ?? ((url, init) => fetch(url, init));
    this.server = options.serverName ?? this.url.host;
    this.auth = httpAuthFor(this.url, options);
  }

  /** Why the transport closed; `undefined` while open. */
  get closeInfo(): TransportCloseInfo | undefined {
    return this.info;
  }

  /**
   * Opens the SSE stream and resolves once the server named its message endpoint, within
   * `endpointTimeoutMs` (headers and `endpoint` event together). `close()` ends a pending `start()` at once:
   * the GET is aborted and `start()` rejects with kind `connection_closed`.
   * @throws MCPCallError kind `http` (non-2xx GET), `transport` (network, or stream ended first), `timeout`
   *   (`method` `GET SSE stream`, `timeoutMs`), `connection_closed` (closed while starting).
   * @throws UnauthorizedError when OAuth needs the user.
   */
  async start(): Promise<void> {
    const context = { server: this.server, method: 'GET SSE stream' };
    const timeoutMs = this.options.endpointTimeoutMs ?? 30_000;
    let phase = 'no response to the SSE GET';
    // The timeout aborts the GET with its own error as the reason, so that it is what `start()` rejects with
    // in either phase (fetch() rethrows the lifetime's reason).
    const timer = setTimeout(() => {
      this.lifetime.abort(
        httpTransportError('timeout', context, `${phase} within ${timeoutMs} ms`, { timeoutMs }),
      );
    }, timeoutMs);
    try {
      const response = await this.openStream(context);
      if (response.body === null) throw httpStatusError(context, response.status, '');
      phase = 'no endpoint event on the SSE stream';
      await this.awaitEndpoint(response.body, context);
    } finally {
      clearTimeout(timer);
    }
  }

  /** Reads `body` until the `endpoint` event; rejects at once with the lifetime's reason when it is aborted. */
  private awaitEndpoint(body: ReadableStream<Uint8Array>, context: HttpErrorContext): Promise<void> {
    const { signal } = this.lifetime;
    return new Promise<void>((resolve, reject) => {
      const onAbort = () => reject(signal.reason);
      signal.addEventListener('abort', onAbort, { once: true });
      const settle = (error?: unknown) => {
        signal.removeEventListener('abort', onAbort);
        if (error === undefined) resolve();
        else reject(error);
      };
      if (signal.aborted) onAbort();
      void this.readStream(body, context, settle);
    });
  }

  /**
   * POSTs one message to the endpoint; its answer arrives on the SSE stream.
   * @throws MCPCallError kind `not_connected`, `http` (non-2xx; status and ≤512 body chars), `transport`.
   */
  async send(message: JSONRPCMessage): Promise<void> {
    const method = 'method' in message ? message.method : undefined;
    const context = { server: this.server, method };
    if (this.closed || this.endpoint === undefined) {
      throw httpTransportError('not_connected', context, 'the SSE transport is not connected');
    }
    const response = await this.post(message, context);
    await response.body?.cancel().catch(() => {});
  }

  /** Aborts the SSE stream, records `closeInfo`, calls `onclose`. Idempotent. */
  async close(): Promise<void> {
    this.finish({ kind: 'not_connected', message: 'transport closed by the client', server: this.server });
  }

  private finish(info: TransportCloseInfo): void {
    if (this.closed) return;
    this.closed = true;
    this.info = info;
    this.lifetime.abort(
      httpTransportError('connection_closed', { server: this.server, method: undefined }, info.message),
    );
    this.onclose?.();
  }

  private async readStream(
    body: ReadableStream<Uint8Array>,
    context: HttpErrorContext,
    settleStart: (error?: unknown) => void,
  ): Promise<void> {
    let started = false;
    const onEvent = (event: { event: string; data: string }) => {
      if (event.event === 'endpoint' && !started) {
        const endpoint = new URL(event.data.trim(), this.url);
        // The endpoint must be on the server's own origin (spec 2024-11-05 security note): a different origin
        // would receive our headers and credentials.
        if (endpoint.origin !== this.url.origin) {
          settleStart(httpTransportError('protocol', context, 'the endpoint event names another origin'));
          this.lifetime.abort();
          return;
        }
        this.endpoint = endpoint;
        started = true;
        settleStart();
      } else if (event.event === 'message' && event.data !== '') {
        this.deliver(event.data);
      }
    };
    const limit = this.options.maxMessageBytes ?? DEFAULT_MAX_MESSAGE_BYTES;
    const oversized = oversizedMessageError(context, 'an SSE event', limit);
    try {
      await readSse(body, {
        onEvent,
        done: () => this.lifetime.signal.aborted,
        maxEventBytes: limit,
        oversized: () => oversized,
      });
      if (!started)
        settleStart(
          httpTransportError('transport', context, 'the SSE stream ended before the endpoint event'),
        );
      this.finish({
        kind: 'connection_closed',
        message: 'the server ended the SSE stream',
        server: this.server,
      });
    } catch (error) {
      if (error === oversized) {
        if (!started) settleStart(error);
        const { kind, reason } = oversized;
        this.finish({ kind, message: reason, server: this.server, cause: error });
        return;
      }
      if (!started)
        settleStart(httpTransportError('transport', context, 'the SSE stream failed', { cause: error }));
      this.finish({
        kind: 'connection_closed',
        message: 'the SSE stream failed',
        server: this.server,
        cause: error,
      });
    }
  }

  private deliver(data: string): void {
    try {
      this.wireOrder.deliver(parseJSONRPCMessage(JSON.parse(data)));
    } catch (error) {
      this.onerror?.(
        httpTransportError('protocol', { server: this.server, method: undefined }, 'not a JSON-RPC message', {
          cause: error,
        }),
      );
    }
  }

  /**
   * The SSE GET; a 401 or `403 insufficient_scope` re-authorizes and sends it again, and without OAuth a 401
   * asks the request's headers again (`reaskAfter401`) and sends it once more (oauth-retry.ts `retryAfter`).
   */
  private async openStream(
    context: HttpErrorContext,
    retries: AuthRetries = FIRST_ATTEMPT,
  ): Promise<Response> {
    const headers = await this.headers('GET', this.url, 'GET', retries);
    headers.set('accept', 'text/event-stream');
    const init = { method: 'GET', headers, signal: this.lifetime.signal };
    const response = await this.fetch(this.url, init, context);
    const next = await this.retries(response, this.url, retries);
    if (next !== undefined) return this.openStream(context, next);
    if (response.ok) return response;
    throw httpStatusError(context, response.status, await readBodyExcerpt(response));
  }

  /** One POST to the message endpoint; OAuth as {@link openStream}. */
  private async post(
    message: JSONRPCMessage,
    context: HttpErrorContext,
    retries: AuthRetries = FIRST_ATTEMPT,
  ): Promise<Response> {
    const endpoint = this.endpoint!;
    const rpcMethod = 'method' in message ? message.method : 'response';
    const headers = await this.headers('POST', endpoint, rpcMethod, retries);
    headers.set('content-type', 'application/json');
    const init = { method: 'POST', headers, body: JSON.stringify(message), signal: this.lifetime.signal };
    const response = await this.fetch(endpoint, init, context);
    const next = await this.retries(response, endpoint, retries);
    if (next !== undefined) return this.post(message, context, next);
    if (response.ok) return response;
    throw httpStatusError(context, response.status, await readBodyExcerpt(response));
  }

  /**
   * Notes the answer's DPoP nonce; the retries of the next attempt when OAuth asks for one, or when a first
   * 401 is to be answered by asking the headers again (`reaskAfter401`); else undefined.
   */
  private async retries(
    response: Response,
    url: URL,
    retries: AuthRetries,
  ): Promise<AuthRetries | undefined> {
    if (this.auth !== undefined) await this.auth.observe(response.headers, url);
    if (response.ok) return undefined;
    return retryAfter(this.auth, this.options.reaskAfter401 === true, response, retries);
  }

  private async fetch(url: URL, init: RequestInit, context: HttpErrorContext): Promise<Response> {
    try {
      // redirects.ts: a redirect to another origin does not carry our headers and credentials there.
      return await fetchFollowingRedirects(this.fetchFn, url, init);
    } catch (error) {
      const reason: unknown = this.lifetime.signal.reason;
      if (this.lifetime.signal.aborted && reason instanceof MCPCallError) throw reason;
      const detail = error instanceof Error ? error.message : String(error);
      throw httpTransportError('transport', context, detail, { cause: error });
    }
  }

  /**
   * The static headers, those asked for `rpcMethod` at this attempt (2 after a 401), and the OAuth
   * credentials (Bearer, or DPoP with a proof for `method` and `url`).
   */
  private async headers(
    method: 'GET' | 'POST',
    url: URL,
    rpcMethod: string,
    retries: AuthRetries,
  ): Promise<Headers> {
    const headers = new Headers(this.options.headers);
    const asked = await this.options.requestHeaders?.({ method: rpcMethod, attempt: attemptOf(retries) });
    for (const [name, value] of Object.entries(asked ?? {})) headers.set(name, value);
    const credentials = await this.auth?.headersFor(method, url);
    if (credentials !== undefined) headers.set('authorization', credentials.authorization);
    if (credentials?.dpop !== undefined) headers.set('dpop', credentials.dpop);
    return headers;
  }
}
