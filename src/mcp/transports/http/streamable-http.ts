/**
 * agentwire's Streamable HTTP client transport (MCP spec 2025-11-25, "Transports > Streamable HTTP"),
 * behind the official SDK's `Transport` interface so that the SDK's `Client` drives it unchanged.
 *
 * Why our own transport and not a guarded `fetch` around the SDK's `StreamableHTTPClientTransport`: probed
 * with our fixture server (test/mcp/transports/http-sdk-probe.test.ts), the SDK transport hangs on an empty
 * `text/event-stream` body, resolves `send()` before the response so a dead stream is only noticed at the
 * request timeout, keeps a stale session after 404, never sends DELETE from `close()`, and opens no GET
 * stream after a 204. A fetch wrapper sees bytes, not JSON-RPC: it cannot tell which frame answers which
 * request, so it cannot fail a call when its stream ends, nor return at the response frame. Owning the
 * transport lets `send()` settle with the request's fate, which the SDK's Protocol turns into the call's
 * rejection (`_requestWithSchemaViaCodec`: `transport.send(...).catch(reject)`).
 *
 * Issue 3, item by item:
 * | #  | behaviour                                                        | where                                       |
 * |----|------------------------------------------------------------------|---------------------------------------------|
 * | 1  | SSE framing per spec, split at any byte / inside UTF-8           | sse-decoder.ts (eventsource-parser)         |
 * | 2  | notifications before the response; response = no method + id     | `readRequestStream`, `deliverValue`; server requests are answered by the SDK Protocol through `send` |
 * | 3  | Accept both types; session id captured/replayed; protocol version| `headersFor`, `post` (session on initialize) |
 * | 4  | DELETE on close, tolerated and bounded                           | `close`, `deleteSession` (`deleteTimeoutMs`)|
 * | 5  | 404 (or 400 "unknown session") clears the session, typed error   | `failedAnswer`, http-errors.ts              |
 * | 6  | 202/204 ack notifications; other empty 2xx is a "proxy" error    | `sendRequest`, `emptyAnswerError`           |
 * | 7  | return at the response frame; held stream released               | `readRequestStream` + sse-reader.ts `done`  |
 * | 8  | stream ends before response: fail at once, or resume (Last-Event-ID) | `readRequestStream`, `resume`           |
 * | 9  | idle read timeout (120 s, resets per byte); abort on timeout/cancel | `IdleTimer`; `requestSignal` and `notifications/cancelled` abort the POST |
 * | 10 | GET stream, 405/404 = none, Last-Event-ID, `retry:`              | http-get-stream.ts                          |
 * | 11 | legacy HTTP+SSE fallback                                         | legacy-sse.ts (`isLegacyFallbackError`)     |
 * | 12 | non-2xx: status + ≤512 chars of body, never header values        | http-errors.ts                              |
 */

import { setTimeout as sleep } from 'node:timers/promises';
import {
  type JSONRPCMessage,
  type MessageExtraInfo,
  type OAuthClientProvider,
  type RequestId,
  type TransportSendOptions,
  UnauthorizedError,
} from '@modelcontextprotocol/client';
import { MCPCallError } from '../../protocol/errors.js';
import { isJsonRpcMessage } from '../../protocol/jsonrpc.js';
import type { AgentwireTransport, TransportCloseInfo } from '../transport.js';
import { WireOrder } from '../wire-order.js';
import { type AuthorizationCallback, type HttpAuth, httpAuthFor } from './auth.js';
import {
  emptyAnswerError,
  type HttpErrorContext,
  httpStatusError,
  httpTransportError,
  readBodyExcerpt,
  saysSessionUnknown,
  sessionExpiredError,
} from './errors.js';
import { GetStream, type HttpReconnectionOptions, resolveReconnection } from './get-stream.js';
import { IdleTimer } from './idle.js';
import { mediaType } from './media-type.js';
import { readSse } from './sse-reader.js';
import { isFetchBadPort, type JsonAnswer, REDIRECTED, sendWithUndici, undiciAvailable } from './undici.js';

/** A `fetch` implementation (the global one by default). */
export type HttpFetch = (url: string | URL, init?: RequestInit) => Promise<Response>;

/** Options of {@link StreamableHTTPTransport}. */
export interface StreamableHTTPTransportOptions {
  /** The MCP endpoint, e.g. `https://example.com/mcp`. */
  url: string | URL;
  /** Static headers sent with every request (e.g. `Authorization`). Never copied into errors. */
  headers?: Record<string, string>;
  /**
   * OAuth provider (the SDK's type). Its access token is sent as `Authorization: Bearer`; on 401 the SDK's
   * `auth()` refreshes or authorizes and the request is retried once; on `403 insufficient_scope` the wider
   * scope is authorized and the request retried (step-up). When the user must authorize in a browser, the
   * SDK's `UnauthorizedError` is thrown as-is; call {@link StreamableHTTPTransport.finishAuth} with the code,
   * then connect again. See auth.ts.
   */
  authProvider?: OAuthClientProvider;
  /**
   * The client's OAuth state, shared by every transport the client opens (so that `finishAuth` after a
   * failed connect, and reconnects, know the challenge's metadata URL and scopes). Wins over `authProvider`.
   */
  auth?: HttpAuth;
  /** See `HttpAuthOptions.skipIssuerMetadataValidation`; used when `auth` is not given. Default false. */
  skipIssuerMetadataValidation?: boolean;
  /**
   * Custom fetch, for every request. Default: undici's `request()` on the global dispatcher (what `fetch`
   * uses, without its web streams; http-undici.ts), or the global `fetch` when it is not Node's own (a
   * stub, MSW), when the server's port is one `fetch` refuses, and after the server redirected.
   */
  fetch?: HttpFetch;
  /**
   * Longest silence allowed while waiting for an answer, in ms: no headers, or no body bytes, for this long
   * fails the request with kind `timeout`. Resets on every byte, so a long call that streams progress is never
   * cut off. Default 120_000 (Rust seed, "HTTP Transport").
   */
  idleTimeoutMs?: number;
  /** Bound on the DELETE that ends the session in `close()`, in ms. Default 5_000. */
  deleteTimeoutMs?: number;
  /** The server's name, for errors. Default: the URL's host. */
  serverName?: string;
  /** Reconnection of the GET stream and resumption of interrupted POST streams. */
  reconnection?: HttpReconnectionOptions;
  /** Open the GET stream for server-initiated messages after initialization. Default `true`. */
  openGetStream?: boolean;
}

/**
 * Headers of the connection and the message framing, owned by the HTTP client: dropped from the caller's
 * headers, as `fetch` drops or refuses them. A `Host` would send some requests to another virtual host, a
 * `Content-Length` made `fetch` wait for a body that never came.
 */
const CONNECTION_HEADERS = new Set([
  'host',
  'content-length',
  'connection',
  'keep-alive',
  'proxy-connection',
  'transfer-encoding',
  'te',
  'trailer',
  'upgrade',
  'expect',
]);

/** Headers an SDK per-message header may not override: they carry the protocol's own state. */
const RESERVED_HEADERS = new Set([
  ...CONNECTION_HEADERS,
  'accept',
  'content-type',
  'authorization',
  'mcp-session-id',
  'mcp-protocol-version',
  'last-event-id',
]);

/** One outbound request's in-flight state. */
interface RequestState {
  id: RequestId;
  context: HttpErrorContext;
  controller: AbortController;
  idle: IdleTimer;
  responded: boolean;
  /** The HTTP status of the answer being read, for errors. */
  status: number;
  lastEventId: string | undefined;
  /** Set when the SDK resends a request to resume it: answers are renumbered to the new id. */
  replayId: RequestId | undefined;
  onresumptiontoken: ((token: string) => void) | undefined;
}

/**
 * Streamable HTTP client transport. One POST per outbound message; `send()` of a request settles when its
 * response has been delivered to `onmessage`, or rejects with an {@link MCPCallError} saying why it will
 * never be (kinds `http`, `session_expired`, `transport`, `timeout`, `aborted`, `connection_closed`,
 * `not_connected`), which the SDK's Protocol passes on as the call's rejection.
 */
export class StreamableHTTPTransport implements AgentwireTransport {
  /** One HTTP request per outbound message: the SDK may abort `requestSignal` to cancel (2026-era). */
  readonly hasPerRequestStream = true;
  onclose?: (() => void) | undefined;
  onerror?: ((error: Error) => void) | undefined;
  onmessage?: (<T extends JSONRPCMessage>(message: T, extra?: MessageExtraInfo) => void) | undefined;

  private readonly url: URL;
  /** `url` as a string, for `fetch` (which would otherwise serialise the URL object per request). */
  private readonly href: string;
  /** `options.headers` with lower-cased names. */
  private readonly staticHeaders: Record<string, string>;
  private readonly fetchFn: HttpFetch;
  private readonly idleTimeoutMs: number;
  private readonly deleteTimeoutMs: number;
  private readonly server: string;
  private readonly reconnection;
  private readonly lifetime = new AbortController();
  private readonly inflight = new Map<RequestId, RequestState>();
  /** Controllers of notifications and responses being POSTed, aborted by `close()` like `inflight`. */
  private readonly oneWay = new Set<AbortController>();
  private readonly wireOrder = new WireOrder(this, (error) =>
    this.onerror?.(error instanceof Error ? error : new Error(String(error))),
  );
  private session: string | undefined;
  /** Set when the server forgot our session: only a new `initialize` may go out until one succeeds. */
  private expired: { status: number; body: string } | undefined;
  private protocolVersion: string | undefined;
  private serverRetryMs: number | undefined;
  private getStream: GetStream | undefined;
  private closing: Promise<void> | undefined;
  private info: TransportCloseInfo | undefined;
  private readonly auth: HttpAuth | undefined;
  /**
   * Every request goes through `fetch`: the server redirected one (from then on), or its port is one
   * `fetch` refuses (http-undici.ts `isFetchBadPort`).
   */
  private fetchOnly: boolean;

  constructor(private readonly options: StreamableHTTPTransportOptions) {
    this.url = new URL(options.url);
    this.href = this.url.href;
    this.staticHeaders = lowerCaseNames(options.headers ?? {});
    this.fetchFn = options.fetch ?? ((url, init) => fetch(url, init));
    this.idleTimeoutMs = options.idleTimeoutMs ?? 120_000;
    this.deleteTimeoutMs = options.deleteTimeoutMs ?? 5_000;
    this.server = options.serverName ?? this.url.host;
    this.reconnection = resolveReconnection(options.reconnection);
    this.auth = httpAuthFor(this.url, options);
    this.fetchOnly = isFetchBadPort(this.url);
  }

  /** The `Mcp-Session-Id` the server assigned, until it expires or the transport closes. */
  get sessionId(): string | undefined {
    return this.session;
  }

  /** Why the transport closed; `undefined` while open. */
  get closeInfo(): TransportCloseInfo | undefined {
    return this.info;
  }

  /** Nothing to open: HTTP connects per request. Fails once closed (a transport is not reusable). */
  async start(): Promise<void> {
    if (this.closing !== undefined) throw this.notConnected(undefined);
  }

  /** Called by the SDK once `initialize` answered: sent as `MCP-Protocol-Version` from now on. */
  setProtocolVersion(version: string): void {
    this.protocolVersion = version;
  }

  /**
   * Completes an OAuth authorization with the code (or the whole redirect URL) from the browser, like the SDK
   * transport's `finishAuth`. See {@link HttpAuth.finishAuth}.
   * @throws UnauthorizedError without an `authProvider`, or when the code does not authorize.
   */
  async finishAuth(callback: AuthorizationCallback): Promise<void> {
    if (this.auth === undefined) throw new UnauthorizedError('finishAuth needs an authProvider');
    await this.auth.finishAuth(callback);
  }

  /**
   * Sends one JSON-RPC message. For a request, settles when its response has been delivered; for a
   * notification or response, when the server acknowledged it.
   */
  async send(message: JSONRPCMessage, options?: TransportSendOptions): Promise<void> {
    const method = 'method' in message ? message.method : undefined;
    if (this.closing !== undefined) throw this.notConnected(method);
    if (method === 'notifications/cancelled') this.abortCancelled(message);
    if (this.expired !== undefined && !isInitialize(message)) {
      throw sessionExpiredError({ server: this.server, method }, this.expired.status, this.expired.body);
    }
    if (!('method' in message && 'id' in message)) return this.sendOneWay(message, options);
    const state = this.track(message.id, method, options);
    let released = false;
    try {
      if (options?.resumptionToken !== undefined) {
        state.replayId = message.id;
        await this.resume(state, options.resumptionToken, 0);
      } else {
        await this.sendRequest(message, state, options);
      }
      // The body has been read to its end or cancelled: nothing is left to abort (an abort per request,
      // with its event dispatch into undici, was measurable). A linked `requestSignal` still needs the abort
      // to drop its listener.
      released = options?.requestSignal === undefined;
    } catch (error) {
      throw this.failure(state, error);
    } finally {
      state.idle.stop();
      if (!released) state.controller.abort(RELEASED);
      this.inflight.delete(message.id);
      if (options?.requestSignal?.aborted !== true) options?.onRequestStreamEnd?.();
    }
  }

  /**
   * Ends the session with DELETE (405, 404 and network errors tolerated, bounded by `deleteTimeoutMs`), aborts
   * every in-flight request and the GET stream, records `closeInfo`, then calls `onclose`. Idempotent.
   */
  async close(): Promise<void> {
    this.closing ??= this.shutdown();
    return this.closing;
  }

  private async shutdown(): Promise<void> {
    const session = this.session;
    const reason = httpTransportError(
      'connection_closed',
      { server: this.server, method: undefined },
      'the transport was closed',
    );
    // Each request is aborted here rather than through a listener on `lifetime`: a listener per request on
    // one shared signal costs an add and a remove per call and trips MaxListenersExceeded past 10 in flight.
    this.lifetime.abort(reason);
    for (const state of this.inflight.values()) state.controller.abort(reason);
    for (const controller of this.oneWay) controller.abort(reason);
    await this.getStream?.stop();
    if (session !== undefined) await this.deleteSession(session);
    this.session = undefined;
    this.info = { kind: 'not_connected', message: 'transport closed by the client', server: this.server };
    this.onclose?.();
  }

  private async deleteSession(session: string): Promise<void> {
    const signal = AbortSignal.timeout(this.deleteTimeoutMs);
    try {
      const headers = this.headersFor(undefined, session, await this.accessToken());
      const response = await this.request('DELETE', headers, undefined, signal);
      await response.body?.cancel().catch(() => {});
      // 405: the server does not let clients end sessions; 404: it already forgot this one. Both are fine.
    } catch {
      // Best-effort teardown (Rust seed: "Servers that reject DELETE are tolerated"); the server's own
      // session timeout ends the session when we cannot.
    }
  }

  private track(id: RequestId, method: string | undefined, options?: TransportSendOptions): RequestState {
    const controller = new AbortController();
    const context = { server: this.server, method };
    const state: RequestState = {
      id,
      context,
      controller,
      idle: new IdleTimer(this.idleTimeoutMs, () =>
        controller.abort(
          httpTransportError('timeout', context, `no data from the server for ${this.idleTimeoutMs} ms`, {
            timeoutMs: this.idleTimeoutMs,
          }),
        ),
      ),
      responded: false,
      status: 0,
      lastEventId: undefined,
      replayId: undefined,
      onresumptiontoken: options?.onresumptiontoken,
    };
    const requestSignal = options?.requestSignal;
    if (requestSignal !== undefined)
      link(requestSignal, controller, () => this.abortedError(context, requestSignal));
    this.inflight.set(id, state);
    return state;
  }

  /**
   * On a 2025-era connection the SDK cancels a call (timeout or caller abort) by sending
   * `notifications/cancelled`, not by aborting `requestSignal`; the POST it cancels is aborted here so that
   * its socket does not stay open until the server answers.
   */
  private abortCancelled(message: JSONRPCMessage): void {
    const params = 'params' in message ? message.params : undefined;
    const requestId = params?.requestId;
    if (typeof requestId !== 'string' && typeof requestId !== 'number') return;
    const state = this.inflight.get(requestId);
    state?.controller.abort(this.abortedError(state.context, params?.reason));
  }

  private abortedError(context: HttpErrorContext, reason: unknown): MCPCallError {
    return httpTransportError('aborted', context, 'the request was cancelled', { cause: reason });
  }

  private notConnected(method: string | undefined): MCPCallError {
    return httpTransportError('not_connected', { server: this.server, method }, 'the transport is closed');
  }

  /** The error a failed request rejects with: the abort reason when we aborted, else the error itself. */
  private failure(state: RequestState, error: unknown): unknown {
    const reason: unknown = state.controller.signal.aborted ? state.controller.signal.reason : undefined;
    if (reason instanceof MCPCallError) return reason;
    if (error instanceof MCPCallError || error instanceof UnauthorizedError) return error;
    return httpTransportError('transport', state.context, describe(error), { cause: error });
  }

  private async sendOneWay(message: JSONRPCMessage, options?: TransportSendOptions): Promise<void> {
    const method = 'method' in message ? message.method : undefined;
    const controller = new AbortController();
    const context = { server: this.server, method };
    this.oneWay.add(controller);
    const idle = new IdleTimer(this.idleTimeoutMs, () =>
      controller.abort(
        httpTransportError('timeout', context, `no answer for ${this.idleTimeoutMs} ms`, {
          timeoutMs: this.idleTimeoutMs,
        }),
      ),
    );
    let released = false;
    try {
      const response = await this.post(message, controller.signal, context, options, () => idle.touch());
      if (response instanceof Response) await response.body?.cancel().catch(() => {});
      released = true; // as in `send`: a cancelled or read body leaves nothing to abort
      if (method === 'notifications/initialized') this.openGetStream();
    } catch (error) {
      const reason: unknown = controller.signal.aborted ? controller.signal.reason : undefined;
      if (reason instanceof MCPCallError) throw reason;
      if (error instanceof MCPCallError || error instanceof UnauthorizedError) throw error;
      throw httpTransportError('transport', context, describe(error), { cause: error });
    } finally {
      idle.stop();
      if (!released) controller.abort(RELEASED);
      this.oneWay.delete(controller);
    }
  }

  private async sendRequest(
    message: JSONRPCMessage,
    state: RequestState,
    options: TransportSendOptions | undefined,
  ): Promise<void> {
    const response = await this.post(message, state.controller.signal, state.context, options, () =>
      state.idle.touch(),
    );
    state.idle.touch();
    state.status = response.status;
    if (!(response instanceof Response))
      return 'value' in response.body
        ? this.deliverParsedAnswer(response.body.value, state)
        : this.deliverJsonAnswer(response.body.text, state, 'application/json');
    const contentType = mediaType(response.headers.get('content-type'));
    if (response.status === 202 || response.status === 204 || response.body === null) {
      await response.body?.cancel().catch(() => {});
      throw emptyAnswerError(state.context, response.status, contentType);
    }
    if (contentType === 'text/event-stream') return this.readRequestStream(response.body, state, 0);
    const text = await readText(response.body, () => state.idle.touch());
    this.deliverJsonAnswer(text, state, contentType);
  }

  /** A whole (non-SSE) answer: JSON carrying this request's response, or why not. */
  private deliverJsonAnswer(text: string, state: RequestState, contentType: string): void {
    if (text.trim() === '') throw emptyAnswerError(state.context, state.status, contentType);
    if (contentType !== 'application/json') {
      throw httpTransportError('http', state.context, `unexpected content type "${contentType}"`, {
        status: state.status,
        body: text.slice(0, 512),
      });
    }
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch (error) {
      throw httpTransportError('protocol', state.context, 'the answer is not valid JSON', { cause: error });
    }
    this.deliverParsedAnswer(parsed, state);
  }

  /** A parsed JSON answer: a message or a batch, one of them this request's response. */
  private deliverParsedAnswer(parsed: unknown, state: RequestState): void {
    if (!Array.isArray(parsed)) this.deliverValue(parsed, state);
    else for (const item of parsed) this.deliverValue(item, state);
    if (!state.responded) {
      throw httpTransportError(
        'protocol',
        state.context,
        'the JSON answer carried no response to this request',
      );
    }
  }

  /**
   * POSTs `message`, handling 401 (auth, once), 403 `insufficient_scope` (step-up, bounded) and non-2xx
   * answers. Resolves with a 2xx response: a `200 application/json` one already read whole when it went
   * through undici (http-undici.ts; `onBytes` is called per body chunk), any other as a `Response`.
   */
  private async post(
    message: JSONRPCMessage,
    signal: AbortSignal,
    context: HttpErrorContext,
    options: TransportSendOptions | undefined,
    onBytes: () => void,
    authRetried = false,
    stepUps = 0,
  ): Promise<Response | JsonAnswer> {
    const initialize = isInitialize(message);
    const session = initialize ? undefined : this.session;
    const token = this.auth === undefined ? undefined : await this.auth.accessToken();
    const headers = this.headersFor(options?.headers, session, token);
    headers['content-type'] = 'application/json';
    headers.accept = 'application/json, text/event-stream';
    const body = JSON.stringify(message);
    const response = await this.request('POST', headers, body, signal, onBytes);
    if (response.ok) {
      if (initialize) {
        this.session = response.headers.get('mcp-session-id') ?? undefined;
        this.expired = undefined;
      }
      return response;
    }
    if (response.status === 401 && this.auth !== undefined && !authRetried) {
      await this.auth.onUnauthorized(response);
      return this.post(message, signal, context, options, onBytes, true, stepUps);
    }
    if (
      response.status === 403 &&
      this.auth !== undefined &&
      stepUps < this.auth.maxStepUpRetries &&
      (await this.auth.onForbidden(response))
    ) {
      return this.post(message, signal, context, options, onBytes, authRetried, stepUps + 1);
    }
    throw await this.failedAnswer(response, context, session);
  }

  /** The error for a non-2xx answer; clears the session when the server no longer knows it (item 5). */
  private async failedAnswer(
    response: Response,
    context: HttpErrorContext,
    session: string | undefined,
  ): Promise<MCPCallError> {
    const body = await readBodyExcerpt(response);
    const unknownSession =
      session !== undefined &&
      (response.status === 404 || (response.status === 400 && saysSessionUnknown(body)));
    if (!unknownSession) return httpStatusError(context, response.status, body);
    if (this.session === session) {
      this.session = undefined;
      this.expired = { status: response.status, body };
      void this.getStream?.stop();
      this.getStream = undefined;
    }
    return sessionExpiredError(context, response.status, body);
  }

  /**
   * Static headers, then the per-message ones the SDK may add, then the protocol's own; names lower-cased so
   * that a later one replaces an earlier one whatever its case. A plain object, built synchronously: a
   * `Headers` instance and an `await` per request were measurable on the hot path, and `fetch` validates
   * names and values either way.
   */
  private headersFor(
    extra: Readonly<Record<string, string>> | undefined,
    session: string | undefined,
    token: string | undefined,
  ): Record<string, string> {
    const headers = { ...this.staticHeaders };
    if (extra !== undefined) {
      for (const [name, value] of Object.entries(extra)) {
        const key = name.toLowerCase();
        if (!RESERVED_HEADERS.has(key)) headers[key] = value;
      }
    }
    if (token !== undefined) headers.authorization = `Bearer ${token}`;
    if (session !== undefined) headers['mcp-session-id'] = session;
    if (this.protocolVersion !== undefined) headers['mcp-protocol-version'] = this.protocolVersion;
    return headers;
  }

  private async accessToken(): Promise<string | undefined> {
    return this.auth?.accessToken();
  }

  /**
   * Reads a request's SSE stream until the frame carrying its response (items 2, 7), then releases it. A
   * stream that ends first is resumed from its last event id when the server gave one, else fails the call
   * at once (item 8); an empty stream is the "proxy answered" error (item 6).
   */
  private async readRequestStream(body: ReadableStream<Uint8Array>, state: RequestState, attempt: number) {
    const outcome = await readSse(body, {
      onEvent: (event) => {
        if (event.id !== undefined) {
          state.lastEventId = event.id;
          state.onresumptiontoken?.(event.id);
        }
        if (event.event === 'message' && event.data !== '') this.deliverText(event.data, state);
      },
      onRetry: (delayMs) => {
        this.serverRetryMs = delayMs;
      },
      onBytes: () => state.idle.touch(),
      done: () => state.responded,
    });
    if (state.responded) return;
    if (outcome.bytes === 0 && attempt === 0)
      throw emptyAnswerError(state.context, state.status, 'text/event-stream');
    if (state.lastEventId !== undefined) return this.resume(state, state.lastEventId, attempt);
    throw httpTransportError(
      'transport',
      state.context,
      'the server ended the response stream before the response',
    );
  }

  /** Reopens an interrupted request stream with GET + `Last-Event-ID` (spec "Resumability and Redelivery"). */
  private async resume(state: RequestState, lastEventId: string, attempt: number): Promise<void> {
    if (attempt >= this.reconnection.maxRetries) {
      throw httpTransportError(
        'transport',
        state.context,
        `the response stream ended before the response and ${attempt} resumption attempts failed`,
      );
    }
    const delay =
      this.serverRetryMs ??
      Math.min(this.reconnection.initialDelayMs * 2 ** attempt, this.reconnection.maxDelayMs);
    state.idle.stop();
    await sleepUnlessAborted(delay, state.controller.signal);
    state.idle.touch();
    const response = await this.openGet(lastEventId, state.controller.signal);
    state.idle.touch();
    if (!response.ok || response.body === null) {
      const body = await readBodyExcerpt(response);
      throw httpTransportError(
        'transport',
        state.context,
        `resuming the response stream failed with HTTP ${response.status}`,
        {
          status: response.status,
          body,
        },
      );
    }
    return this.readRequestStream(response.body, state, attempt + 1);
  }

  private async openGet(lastEventId: string | undefined, signal: AbortSignal): Promise<Response> {
    const headers = this.headersFor(undefined, this.session, await this.accessToken());
    headers.accept = 'text/event-stream';
    if (lastEventId !== undefined) headers['last-event-id'] = lastEventId;
    return this.request('GET', headers, undefined, signal);
  }

  /**
   * One HTTP request: through undici when it may be used (http-undici.ts), else, and from the first
   * redirect on, through `fetch`. Only a POST may come back as a {@link JsonAnswer}.
   */
  private request(
    method: 'POST',
    headers: Record<string, string>,
    body: string,
    signal: AbortSignal,
    onBytes: () => void,
  ): Promise<Response | JsonAnswer>;
  private request(
    method: 'GET' | 'DELETE',
    headers: Record<string, string>,
    body: undefined,
    signal: AbortSignal,
  ): Promise<Response>;
  private async request(
    method: 'POST' | 'GET' | 'DELETE',
    headers: Record<string, string>,
    body: string | undefined,
    signal: AbortSignal,
    onBytes: () => void = () => {},
  ): Promise<Response | JsonAnswer> {
    if (!this.fetchOnly && undiciAvailable(this.options.fetch)) {
      const answer = await sendWithUndici(method, this.href, headers, body, signal, onBytes);
      if (answer !== REDIRECTED) return answer;
      // fetch follows redirects by the Fetch standard's rules; undici is not asked to imitate them. The
      // redirecting endpoint sees this request twice (undici's, then fetch's); it answered with a redirect.
      this.fetchOnly = true;
    }
    return this.fetchFn(this.href, { method, headers, ...(body !== undefined && { body }), signal });
  }

  private openGetStream(): void {
    if (this.options.openGetStream === false || this.getStream !== undefined || this.closing !== undefined)
      return;
    this.getStream = new GetStream({
      open: (lastEventId, signal) =>
        this.openGet(lastEventId, AbortSignal.any([signal, this.lifetime.signal])),
      deliver: (data) => this.deliverText(data, undefined),
      onError: (error) => this.onerror?.(error),
      serverRetryMs: () => this.serverRetryMs,
      setServerRetryMs: (delayMs) => {
        this.serverRetryMs = delayMs;
      },
      reconnection: this.reconnection,
      server: this.server,
    });
    this.getStream.start();
  }

  private deliverText(data: string, state: RequestState | undefined): void {
    let value: unknown;
    try {
      value = JSON.parse(data);
    } catch (error) {
      this.onerror?.(
        httpTransportError('protocol', state?.context ?? this.context(), 'an SSE event is not JSON', {
          cause: error,
        }),
      );
      return;
    }
    this.deliverValue(value, state);
  }

  /**
   * Hands one message to the SDK. It answers this request only when it has no `method`, has `result` or
   * `error`, and carries this request's id (Rust seed, "HTTP Transport"); anything else (progress, log
   * messages, server requests such as `ping` or `sampling/createMessage`) is passed on as it is.
   */
  private deliverValue(value: unknown, state: RequestState | undefined): void {
    // A structural check, as on stdio: the content of each message is checked where it is used.
    if (!isJsonRpcMessage(value)) {
      this.onerror?.(
        httpTransportError('protocol', state?.context ?? this.context(), 'not a JSON-RPC message'),
      );
      return;
    }
    const message = value;
    const isResponse = !('method' in message) && ('result' in message || 'error' in message);
    const answersState =
      state !== undefined && (state.replayId !== undefined || ('id' in message && message.id === state.id));
    if (state !== undefined && isResponse && answersState) {
      state.responded = true;
      // At once when nothing came before it in this tick, else behind the SDK's dispatch of what did.
      this.wireOrder.deliver(state.replayId === undefined ? message : { ...message, id: state.replayId });
      return;
    }
    this.wireOrder.deliver(message);
  }

  private context(): HttpErrorContext {
    return { server: this.server, method: undefined };
  }
}

/**
 * The abort reason that releases a failed request's connection. Shared, because `abort()` without a reason
 * builds a `DOMException` (with its stack) each time.
 */
const RELEASED = new Error('the request finished');

/** The `initialize` request (a structural check: the SDK's zod guard was a per-request cost). */
function isInitialize(message: JSONRPCMessage): boolean {
  return 'method' in message && message.method === 'initialize' && 'id' in message;
}

/** Aborts `controller` when `signal` fires, with `reason()` or the signal's own reason. */
function link(signal: AbortSignal, controller: AbortController, reason?: () => unknown): void {
  const abort = () => controller.abort(reason === undefined ? signal.reason : reason());
  if (signal.aborted) abort();
  else signal.addEventListener('abort', abort, { once: true, signal: controller.signal });
}

/** The caller's static headers, names lower-cased, without {@link CONNECTION_HEADERS}. */
function lowerCaseNames(headers: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    const key = name.toLowerCase();
    if (!CONNECTION_HEADERS.has(key)) out[key] = value;
  }
  return out;
}

/** For bodies that arrived whole: a non-streaming decode keeps no state, so one decoder serves every call. */
const UTF8 = new TextDecoder();

/**
 * Reads a whole body as UTF-8 text, calling `onBytes` per chunk (to reset the idle timer). A reader loop
 * rather than `for await`: the async iterator releases its reader at the end, which builds a `TypeError`
 * (stack included) per response, and costs a few promise hops more; measured in 1 000-call bursts, about
 * 50 µs of client CPU per call. A body that came in one chunk (the usual JSON answer) is decoded in one go,
 * without a streaming decoder.
 */
async function readText(body: ReadableStream<Uint8Array>, onBytes: () => void): Promise<string> {
  const reader = body.getReader();
  let first: Uint8Array | undefined;
  let decoder: InstanceType<typeof TextDecoder> | undefined;
  let text = '';
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    onBytes();
    if (decoder === undefined) {
      if (first === undefined) {
        first = value;
        continue;
      }
      decoder = new TextDecoder();
      text = decoder.decode(first, { stream: true });
    }
    text += decoder.decode(value, { stream: true });
  }
  if (decoder !== undefined) return text + decoder.decode();
  return first === undefined ? '' : UTF8.decode(first);
}

function describe(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const cause = error.cause instanceof Error ? ` (${error.cause.message})` : '';
  return `${error.message}${cause}`;
}

async function sleepUnlessAborted(ms: number, signal: AbortSignal): Promise<void> {
  await sleep(ms, undefined, { signal }).catch(() => {});
}
