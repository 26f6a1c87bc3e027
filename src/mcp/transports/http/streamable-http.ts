/**
 * transports/http/: MCP over HTTP, the Streamable HTTP transport (this file) and the HTTP+SSE fallback.
 *
 * This file is the Streamable HTTP client transport (MCP spec 2025-11-25, "Transports > Streamable HTTP");
 * legacy-sse.ts is the 2024-11-05 HTTP+SSE one, tried when an old server refuses it. The transport sits
 * behind the official SDK's `Transport` interface so that the SDK's `Client` drives it unchanged. Why our
 * own and not a guarded `fetch` around the SDK's `StreamableHTTPClientTransport`: probed with a scripted
 * fixture server (SDK 2.4.0), the SDK transport hangs on an empty
 * `text/event-stream` body, resolves `send()` before the response so a dead stream is only noticed at the
 * request timeout, keeps a stale session after 404, never sends DELETE from `close()`, and opens no GET
 * stream after a 204. A fetch wrapper sees bytes, not JSON-RPC: it cannot tell which frame answers which
 * request, so it cannot fail a call when its stream ends, nor return at the response frame. Owning the
 * transport lets `send()` settle with the request's fate, which the SDK's Protocol turns into the call's
 * rejection (`_requestWithSchemaViaCodec`: `transport.send(...).catch(reject)`).
 *
 * This class coordinates; each concern has its file:
 * - headers.ts: the headers of each request (the caller's, `Mcp-Session-Id`, `MCP-Protocol-Version`); the
 *   `Accept` and `Content-Type` of each are set in `post` and `openGet`.
 * - requester.ts (and undici.ts): undici or `fetch` for each request.
 * - oauth-retry.ts (and auth.ts): 401 re-authorization, `403 insufficient_scope` step-up, on POSTs and GETs;
 *   dpop.ts: DPoP-bound tokens (RFC 9449), a fresh proof per request and the `use_dpop_nonce` retry.
 * - session.ts: the session id captured on `initialize`, its expiry on 404 (or a 400 "unknown session"),
 *   the DELETE that ends it on close (tolerated and bounded).
 * - answers.ts: JSON or SSE answers; a response is a message with no method and this request's id, and
 *   what comes before it (notifications, server requests) is passed on; the call returns at the response
 *   frame and the held stream is released (sse-reader.ts); a stream that ends first fails the call at
 *   once, or is resumed with `Last-Event-ID`; an empty 2xx where an answer was due is a "proxy" error.
 *   202/204 acknowledge notifications and responses (`sendOneWay`).
 * - request-state.ts (and idle.ts): the idle read timeout (reset per byte), aborts on close, timeout and
 *   cancellation (`requestSignal`, or `notifications/cancelled` in `abortCancelled`).
 * - sse-decoder.ts: SSE framing, split at any byte or inside a UTF-8 sequence.
 * - get-stream.ts: the GET stream (405/404 = none, `Last-Event-ID`, `retry:`).
 * - errors.ts: non-2xx errors carry the status and at most 512 characters of body, never header values.
 * - modern-headers.ts: a 2026-era request (MCP spec 2026-07-28, "Transports > Streamable HTTP"), recognised
 *   per request by the protocol version its `_meta` envelope names, so that one transport carries a
 *   negotiation probe before any verdict and needs no mode switch: `MCP-Protocol-Version` from that envelope,
 *   `Mcp-Method`, `Mcp-Name`; `Mcp-Param-*` come from the session as per-message `headers`
 *   (`TransportSendOptions.headers`, built with protocol/mcp-headers.ts). Its 4xx JSON-RPC error answers
 *   fail it as that error (kind `jsonrpc`, `code`, `data`, `status`); its stream is never resumed, and one
 *   that breaks before the response fails at once with `reissue: true`. No session id, GET stream or DELETE
 *   happen in 2026 mode because only `initialize` and `notifications/initialized` start them.
 * Server requests (`ping`, `sampling/createMessage`, …) are answered by the SDK's Protocol through `send`.
 */

import type {
  FetchLike,
  JSONRPCMessage,
  MessageExtraInfo,
  RequestId,
  TransportSendOptions,
} from '@modelcontextprotocol/client';
import { MCPCallError } from '../../protocol/errors.js';
import { DEFAULT_MAX_MESSAGE_BYTES } from '../limits.js';
import type { AgentwireTransport, TransportCloseInfo } from '../transport.js';
import { WireOrder } from '../wire-order.js';
import { AnswerReader } from './answers.js';
import type { HttpAuth } from './auth.js';
import { type HttpErrorContext, httpTransportError } from './errors.js';
import { GetStream, type HttpReconnectionOptions, resolveReconnection } from './get-stream.js';
import { RequestHeaders } from './headers.js';
import { idleTimeoutFor } from './idle.js';
import {
  applyModernHeaders,
  isModernRequest,
  modernFailedAnswer,
  modernRequestHeaders,
} from './modern-headers.js';
import { type AuthRetries, FIRST_ATTEMPT, retryAfter } from './oauth-retry.js';
import { isUnreachable } from './reachability.js';
import { attemptOf, type HttpRequestHeaders, requestInfo } from './request-headers.js';
import {
  abortedError,
  idleTimer,
  lostInFlight,
  newRequestState,
  RELEASED,
  type RequestState,
  requestFailure,
} from './request-state.js';
import { Requester } from './requester.js';
import { HttpSession, isInitialize } from './session.js';
import type { JsonAnswer } from './undici.js';

/** Default longest silence from a server while an answer is awaited, in ms (`idleTimeoutMs`). */
export const DEFAULT_IDLE_TIMEOUT_MS = 120_000;

/** Options of {@link StreamableHTTPTransport}. */
export interface StreamableHTTPTransportOptions {
  /** The MCP endpoint, e.g. `https://example.com/mcp`. */
  url: string | URL;
  /** Static headers sent with every request (e.g. `Authorization`). Never copied into errors. */
  headers?: Record<string, string>;
  /**
   * Headers asked for per request (request-headers.ts): every POST, the GET stream and the DELETE. Absent:
   * nothing is asked, and nothing awaited.
   */
  requestHeaders?: HttpRequestHeaders;
  /**
   * Whether a `401` asks `requestHeaders` again (`attempt` 2) and sends the request once more, when no `auth`
   * answers it: a source that can change is behind them (a headers function, a supplier). Default false.
   */
  reaskAfter401?: boolean;
  /**
   * The client's OAuth state (auth.ts), shared by every transport the client opens, so that `finishAuth`
   * after a failed connect, and reconnects, know the challenge's metadata URL and scopes. Its access token
   * is sent as `Authorization: Bearer` (a DPoP-bound one as `DPoP`, with a proof per request); on 401 it
   * refreshes or authorizes and the request is retried once; on `403 insufficient_scope` the wider scope is
   * authorized and the request retried (step-up). When the user must authorize in a browser, the SDK's
   * `UnauthorizedError` is thrown as-is.
   */
  auth?: HttpAuth;
  /**
   * Custom fetch, for every request. Default: undici's `request()` on the global dispatcher (what `fetch`
   * uses, without its web streams; undici.ts), or the global `fetch` when it is not Node's own (a
   * stub, MSW), when the server's port is one `fetch` refuses, and after the server redirected.
   */
  fetch?: FetchLike;
  /**
   * Longest silence allowed while waiting for an answer, in ms: no headers, or no body bytes, for this long
   * fails the request with kind `timeout`. Resets on every byte, so a long call that streams progress is never
   * cut off. Default 120 000 (2 minutes). Not applied to `subscriptions/listen` (idle.ts `idleTimeoutFor`).
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
  /**
   * Largest message accepted from the server, in bytes: a JSON answer (counted after `Content-Encoding` is
   * undone, so a compressed bomb is stopped at the bound) or one SSE event. Reaching it fails that one
   * request at once with an `MCPCallError` of kind `protocol` naming the limit (the GET stream reports it
   * through `onerror` and reconnects); the connection stays up. Error bodies are read up to 512 characters
   * whatever this is. Default 256 MiB (`DEFAULT_MAX_MESSAGE_BYTES`, as stdio).
   */
  maxMessageBytes?: number;
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
  private readonly headers: RequestHeaders;
  private readonly requester: Requester;
  private readonly auth: HttpAuth | undefined;
  private readonly session: HttpSession;
  private readonly answers: AnswerReader;
  private readonly idleTimeoutMs: number;
  private readonly server: string;
  private readonly reconnection;
  private readonly lifetime = new AbortController();
  private readonly inflight = new Map<RequestId, RequestState>();
  /** Controllers of notifications and responses being POSTed, aborted by `close()` like `inflight`. */
  private readonly oneWay = new Set<AbortController>();
  private readonly wireOrder = new WireOrder(this, (error) =>
    this.onerror?.(error instanceof Error ? error : new Error(String(error))),
  );
  private getStream: GetStream | undefined;
  private closing: Promise<void> | undefined;
  private info: TransportCloseInfo | undefined;
  /** Whether the server has answered a request with a 2xx: only a server once reached can be lost. */
  private reached = false;

  constructor(private readonly options: StreamableHTTPTransportOptions) {
    const url = new URL(options.url);
    this.url = url;
    this.headers = new RequestHeaders(options.headers);
    this.requester = new Requester(url, options.fetch);
    this.auth = options.auth;
    this.idleTimeoutMs = options.idleTimeoutMs ?? DEFAULT_IDLE_TIMEOUT_MS;
    this.server = options.serverName ?? url.host;
    this.reconnection = resolveReconnection(options.reconnection);
    this.session = new HttpSession(this.server, options.deleteTimeoutMs ?? 5_000, () => {
      void this.getStream?.stop();
      this.getStream = undefined;
    });
    this.answers = new AnswerReader({
      deliver: (message) => this.wireOrder.deliver(message),
      onError: (error) => this.onerror?.(error),
      openGet: (lastEventId, signal) => this.openGet(lastEventId, signal),
      reconnection: this.reconnection,
      server: this.server,
      maxMessageBytes: options.maxMessageBytes ?? DEFAULT_MAX_MESSAGE_BYTES,
    });
  }

  /** The `Mcp-Session-Id` the server assigned, until it expires or the transport closes. */
  get sessionId(): string | undefined {
    return this.session.id;
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
    this.headers.protocolVersion = version;
  }

  /**
   * Sends one JSON-RPC message. For a request, settles when its response has been delivered; for a
   * notification or response, when the server acknowledged it.
   */
  async send(message: JSONRPCMessage, options?: TransportSendOptions): Promise<void> {
    const method = 'method' in message ? message.method : undefined;
    if (this.closing !== undefined) throw this.notConnected(method);
    if (method === 'notifications/cancelled') this.abortCancelled(message);
    const refusal = this.session.refusal(message, method);
    if (refusal !== undefined) throw refusal;
    if (!('method' in message && 'id' in message)) return this.sendOneWay(message, options);
    const idleMs = idleTimeoutFor(method, this.idleTimeoutMs);
    const state = newRequestState(message.id, { server: this.server, method }, idleMs, options);
    state.modern = isModernRequest(message);
    this.inflight.set(message.id, state);
    let released = false;
    try {
      if (options?.resumptionToken !== undefined) {
        state.replayId = message.id;
        await this.answers.resume(state, options.resumptionToken, 0);
      } else {
        const response = await this.post(message, state.controller.signal, state.context, options, () => {
          state.answered = true;
          state.idle.touch();
        });
        await this.answers.read(response, state);
      }
      // The body has been read to its end or cancelled: nothing is left to abort (an abort per request,
      // with its event dispatch into undici, was measurable). A linked `requestSignal` still needs the abort
      // to drop its listener.
      released = options?.requestSignal === undefined;
    } catch (error) {
      const failure = lostInFlight(state, requestFailure(state.controller.signal, state.context, error));
      // A request to a server reached before that got no answer at all is the evidence of a lost
      // connection (reachability.ts); `onclose` has fired by the time this call fails. A failure once the
      // answer began (a body cut mid-way) is this exchange's alone.
      if (this.reached && !state.answered && isUnreachable(state.controller.signal, failure, error))
        await this.lose(failure);
      throw failure;
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

  /**
   * The server cannot be reached any more: the transport closes with `closeInfo` kind `connection_closed`
   * (no DELETE: nothing would receive it), failing every request in flight, and `onclose` fires before this
   * resolves.
   */
  private lose(failure: unknown): Promise<void> {
    if (this.closing !== undefined) return this.closing;
    const detail =
      failure instanceof MCPCallError
        ? failure.reason
        : failure instanceof Error
          ? failure.message
          : String(failure);
    this.info = {
      kind: 'connection_closed',
      message: `the server cannot be reached: ${detail}`,
      server: this.server,
      cause: failure,
    };
    this.closing = this.shutdown();
    return this.closing;
  }

  private async shutdown(): Promise<void> {
    const lost = this.info;
    const session = lost === undefined ? this.session.id : undefined;
    const reason = httpTransportError(
      'connection_closed',
      { server: this.server, method: undefined },
      lost?.message ?? 'the transport was closed',
    );
    // Each request is aborted here rather than through a listener on `lifetime`: a listener per request on
    // one shared signal costs an add and a remove per call and trips MaxListenersExceeded past 10 in flight.
    this.lifetime.abort(reason);
    for (const state of this.inflight.values()) state.controller.abort(reason);
    for (const controller of this.oneWay) controller.abort(reason);
    await this.getStream?.stop();
    await this.session.end(session, async (id, signal) => {
      const asked = await this.options.requestHeaders?.({ method: 'DELETE', attempt: 1 });
      const headers = this.headers.for(undefined, id, await this.credentials('DELETE'), asked);
      return this.requester.send('DELETE', headers, undefined, signal);
    });
    this.info ??= { kind: 'not_connected', message: 'transport closed by the client', server: this.server };
    this.onclose?.();
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
    state?.controller.abort(abortedError(state.context, params?.reason));
  }

  private notConnected(method: string | undefined): MCPCallError {
    return httpTransportError('not_connected', { server: this.server, method }, 'the transport is closed');
  }

  /** A notification or a response: settles when the server acknowledged it (202, or any 2xx). */
  private async sendOneWay(message: JSONRPCMessage, options?: TransportSendOptions): Promise<void> {
    const method = 'method' in message ? message.method : undefined;
    const controller = new AbortController();
    const context = { server: this.server, method };
    this.oneWay.add(controller);
    const idle = idleTimer(controller, context, this.idleTimeoutMs, 'no answer');
    let released = false;
    try {
      const response = await this.post(message, controller.signal, context, options, () => idle.touch());
      if (response instanceof Response) await response.body?.cancel().catch(() => {});
      released = true; // as in `send`: a cancelled or read body leaves nothing to abort
      if (method === 'notifications/initialized') this.openGetStream();
    } catch (error) {
      throw requestFailure(controller.signal, context, error);
    } finally {
      idle.stop();
      if (!released) controller.abort(RELEASED);
      this.oneWay.delete(controller);
    }
  }

  /**
   * POSTs `message`, re-authorizing and sending again when OAuth asks for it (oauth-retry.ts). Resolves with
   * a 2xx answer: a `200 application/json` one already read whole when it went through undici (undici.ts;
   * `onBytes` is called per body chunk), any other as a `Response`.
   * @throws MCPCallError kind `http` for a non-2xx answer, `session_expired` when the server forgot the
   *   session (session.ts); the SDK's `UnauthorizedError` when the user must authorize in a browser.
   */
  private async post(
    message: JSONRPCMessage,
    signal: AbortSignal,
    context: HttpErrorContext,
    options: TransportSendOptions | undefined,
    onBytes: () => void,
    retries: AuthRetries = FIRST_ATTEMPT,
  ): Promise<Response | JsonAnswer> {
    const initialize = isInitialize(message);
    const session = initialize ? undefined : this.session.id;
    const ask = this.options.requestHeaders;
    const pending = ask?.(requestInfo(message, retries));
    const asked = pending instanceof Promise ? await pending : pending;
    const headers = this.headers.for(options?.headers, session, await this.credentials('POST'), asked);
    const modern = modernRequestHeaders(message);
    if (modern !== undefined) applyModernHeaders(headers, modern);
    headers['content-type'] = 'application/json';
    headers.accept = 'application/json, text/event-stream';
    const body = JSON.stringify(message);
    const limit = this.answers.oversized(context, 'the JSON answer');
    const response = await this.requester.send('POST', headers, body, signal, onBytes, limit);
    if (this.auth !== undefined) await this.auth.observe(response.headers, this.url);
    if (response.ok) {
      this.reached = true;
      if (initialize) this.session.started(response.headers);
      return response;
    }
    const next = await this.reauthorize(response, retries);
    if (next !== undefined) return this.post(message, signal, context, options, onBytes, next);
    if (modern !== undefined) throw await modernFailedAnswer(response, context, message);
    throw await this.session.failedAnswer(response, context, session);
  }

  /** After a non-2xx answer: the retries of the next attempt, or `undefined` (oauth-retry.ts `retryAfter`). */
  private reauthorize(response: Response, retries: AuthRetries): Promise<AuthRetries | undefined> {
    return retryAfter(this.auth, this.options.reaskAfter401 === true, response, retries);
  }

  /** The OAuth credential headers of one request (auth.ts `headersFor`: Bearer, or DPoP with its proof). */
  private async credentials(method: 'POST' | 'GET' | 'DELETE') {
    return this.auth?.headersFor(method, this.url);
  }

  /**
   * A GET for an SSE stream: the standalone one, or a resumption (with `Last-Event-ID`). A 401 or
   * `403 insufficient_scope` re-authorizes and sends it again, as a POST does (oauth-retry.ts).
   * @throws the SDK's `UnauthorizedError` when the user must authorize in a browser (get-stream.ts then stops).
   */
  private async openGet(
    lastEventId: string | undefined,
    signal: AbortSignal,
    retries: AuthRetries = FIRST_ATTEMPT,
  ): Promise<Response> {
    const asked = await this.options.requestHeaders?.({ method: 'GET', attempt: attemptOf(retries) });
    const headers = this.headers.for(undefined, this.session.id, await this.credentials('GET'), asked);
    headers.accept = 'text/event-stream';
    if (lastEventId !== undefined) headers['last-event-id'] = lastEventId;
    const response = await this.requester.send('GET', headers, undefined, signal);
    if (this.auth !== undefined) await this.auth.observe(response.headers, this.url);
    const next = response.ok ? undefined : await this.reauthorize(response, retries);
    return next === undefined ? response : this.openGet(lastEventId, signal, next);
  }

  private openGetStream(): void {
    if (this.options.openGetStream === false || this.getStream !== undefined || this.closing !== undefined)
      return;
    this.getStream = new GetStream({
      open: (lastEventId, signal) =>
        this.openGet(lastEventId, AbortSignal.any([signal, this.lifetime.signal])),
      deliver: (data) => this.answers.deliverText(data, undefined),
      onError: (error) => this.onerror?.(error),
      serverRetryMs: () => this.answers.serverRetryMs,
      setServerRetryMs: (delayMs) => {
        this.answers.serverRetryMs = delayMs;
      },
      reconnection: this.reconnection,
      server: this.server,
      limit: this.answers.oversized({ server: this.server, method: 'GET stream' }, 'an SSE event'),
    });
    this.getStream.start();
  }
}
