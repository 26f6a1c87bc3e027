/**
 * Requests answered without the SDK's request funnel: agentwire's hot path for `tools/call`.
 *
 * Why: the SDK classifies every inbound message with zod schemas and routes each response through its
 * generic funnel (timeout bookkeeping per id, codec, async result validation); profiled, that was about a
 * fifth of the client CPU of a tool call. Here a response is matched to its call
 * through one map lookup and checked with the caller's structural schema.
 *
 * Ids are strings (`"aw-1"`, `"aw-2"`, …; JSON-RPC 2.0 §4 allows string ids, and MCP requires only that an
 * id is unique per session), so they can never collide with the SDK's numeric ids: the SDK keeps handling
 * `initialize`, lists and every server-initiated message on the same connection.
 *
 * Everything the SDK did for a call is done here, with the same error values, so that `toCallError`
 * (error-mapping.ts) turns them into exactly the same {@link MCPCallError}s:
 * - timeout (one timer, refreshed on progress when `resetTimeoutOnProgress`): `SdkError` `RequestTimeout`;
 * - `maxTotalTimeoutMs` (a second timer, exact whatever the progress): `SdkError` `RequestTimeout` with
 *   `{ maxTotalTimeout }`;
 * - the caller's `AbortSignal`: rejects at once; `toCallError` reports it as `aborted` with the reason;
 * - timeout and abort send `notifications/cancelled` `{ requestId, reason }` (MCP spec 2025-11-25,
 *   "Utilities > Cancellation"); over Streamable HTTP the transport aborts the request's POST when it sees it;
 * - progress (`progressToken` = the request id; spec "Utilities > Progress") goes to the call's `onprogress`;
 * - a JSON-RPC error answer: `ProtocolError`; a malformed result: `SdkError` `InvalidResult`, at once;
 * - the connection closing: `SdkError` `ConnectionClosed` (mapped with the transport's `closeInfo`).
 */
import {
  type JSONRPCMessage,
  type JSONRPCRequest,
  ProtocolError,
  SdkError,
  SdkErrorCode,
  type StandardSchemaV1,
} from '@modelcontextprotocol/client';
import { isRecord } from '../../../core/json.js';
import type { Progress } from '../../protocol/types.js';
import { SENT } from '../../transports/sent.js';
import { DEFAULT_REQUEST_TIMEOUT_MS, type RequestOptions } from '../request-options.js';
import type { Correlator, Wire } from './wire.js';

/**
 * One request in flight: a record, not a set of closures (the hot path allocates it, a timer and the
 * promise, nothing more); {@link DirectRequests} acts on it.
 */
interface PendingRequest {
  readonly id: string;
  readonly resolve: (value: unknown) => void;
  readonly reject: (error: unknown) => void;
  readonly decode: (result: unknown, context: unknown) => unknown;
  /** What the caller keeps with the request, handed to `decode` and `recover` (no closure per request). */
  readonly context: unknown;
  /** What a failure becomes (a retry, a mapped error), settling the one promise; absent: it rejects as is. */
  readonly recover: ((error: unknown, context: unknown) => unknown) | undefined;
  timer: NodeJS.Timeout | undefined;
  capTimer: NodeJS.Timeout | undefined;
  readonly signal: AbortSignal | undefined;
  onAbort: (() => void) | undefined;
  readonly onprogress: ((progress: Progress) => void) | undefined;
  readonly resets: boolean;
  /** Streamable HTTP in the 2026-07-28 era: closing the request's stream cancels it. */
  readonly requestAbort: AbortController | undefined;
}

/** The direct path's id space on the wire (wire.ts): `aw-1`, `aw-2`, … */
export const DIRECT_ID_PREFIX = 'aw-';

/** How requests travel on a 2026-07-28 connection. */
export interface ModernWire {
  /** The per-request `_meta` envelope (protocol version, client info, client capabilities). */
  envelope: Readonly<Record<string, unknown>>;
  /** Streamable HTTP: closing a request's stream cancels it (no `notifications/cancelled`). */
  streamCloseCancels: boolean;
}

/**
 * Pending direct requests of one connection, by id: the correlator of the `aw-` id space on the wire, which
 * hands it the responses and progress of its requests, at once and in wire order (the transports deliver in
 * wire order, transports/wire-order.ts), and tells it of late ones itself.
 */
export class DirectRequests implements Correlator {
  readonly #wire: Wire;
  readonly #onError: (error: Error) => void;
  readonly #pending = new Map<string, PendingRequest>();
  readonly #modern: ModernWire | undefined;
  #lastId = 0;
  #closed = false;

  /**
   * @param onError - receives failures that belong to no call (a cancellation that could not be sent).
   * @param modern - on a 2026-07-28 connection: the envelope and how cancellation travels.
   */
  constructor(wire: Wire, onError: (error: Error) => void, modern?: ModernWire) {
    this.#modern = modern;
    this.#wire = wire;
    this.#onError = onError;
  }

  /**
   * Sends `method` and resolves with its result once `schema` accepts it.
   * @throws (rejects with) the SDK's error values listed in the file comment, or what the transport's
   *   `send` rejected with; `SdkError` `NotConnected` after {@link DirectRequests.close}.
   */
  request<T>(
    method: string,
    params: Record<string, unknown>,
    schema: StandardSchemaV1<unknown, T>,
    options: RequestOptions,
  ): Promise<T> {
    return this.send(method, params, options, (result) => checkResult(method, schema, result));
  }

  /**
   * Sends one request and resolves with what `decode` makes of its result (a 2026-07-28 leg, say:
   * modern-calls.ts). In the 2026-07-28 era the request carries the `_meta` envelope, and with
   * `streamCloseCancels` a timeout or abort closes the request's stream instead of sending
   * `notifications/cancelled` (MCP spec 2026-07-28, "Basic > Patterns > Cancellation").
   * @throws as {@link DirectRequests.request}, and what `decode` throws.
   */
  send<R>(
    method: string,
    params: Record<string, unknown>,
    options: RequestOptions,
    decode: (result: unknown) => R | Promise<R>,
    headers?: Record<string, string>,
  ): Promise<R> {
    return this.#start(method, params, options, decode, undefined, undefined, headers);
  }

  /**
   * Sends one request whose outcome is one promise: its result is what `decode` makes of it, a failure (any
   * of {@link DirectRequests.request}'s, or what `decode` throws) is what `recover` makes of it; both get
   * `context`, so that the caller needs no closure per request.
   */
  call<R, C>(
    method: string,
    params: Record<string, unknown>,
    options: RequestOptions,
    decode: (result: unknown, context: C) => R,
    context: C,
    recover: (error: unknown, context: C) => R | Promise<R>,
  ): Promise<R> {
    const onFailure = recover as (error: unknown, context: unknown) => unknown;
    if (this.#closed || options.signal?.aborted) {
      const error = this.#closed ? notConnected() : abortError(options.signal?.reason);
      return new Promise<R>((resolve) => resolve(onFailure(error, context) as R));
    }
    return this.#start(method, params, options, decode as (result: unknown) => R, context, onFailure);
  }

  #start<R>(
    method: string,
    params: Record<string, unknown>,
    options: RequestOptions,
    decode: (result: unknown, context: unknown) => R | Promise<R>,
    context: unknown,
    recover: ((error: unknown, context: unknown) => unknown) | undefined,
    headers?: Record<string, string>,
  ): Promise<R> {
    if (this.#closed) return Promise.reject(notConnected());
    const signal = options.signal;
    if (signal?.aborted) return Promise.reject(abortError(signal.reason));
    const id = `${DIRECT_ID_PREFIX}${++this.#lastId}`;
    const wantsProgress = options.onprogress !== undefined || options.resetTimeoutOnProgress === true;
    const modern = this.#modern;
    const sent = wantsProgress ? withProgressToken(params, id) : params;
    const message: JSONRPCRequest = {
      jsonrpc: '2.0',
      id,
      method,
      params: modern ? withEnvelope(sent, modern.envelope) : sent,
    };
    const requestAbort = modern?.streamCloseCancels ? new AbortController() : undefined;
    return new Promise<R>((resolve, reject) => {
      const pending: PendingRequest = {
        id,
        resolve: resolve as (value: unknown) => void,
        reject,
        decode,
        context,
        recover,
        timer: undefined,
        capTimer: undefined,
        signal,
        onAbort: undefined,
        onprogress: options.onprogress,
        resets: options.resetTimeoutOnProgress === true,
        requestAbort,
      };
      const timeout = options.timeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS;
      pending.timer = setTimeout(this.#timedOut, timeout, pending, timeout);
      const cap = options.maxTotalTimeoutMs;
      if (cap !== undefined) pending.capTimer = setTimeout(this.#capped, cap, pending, cap);
      if (signal !== undefined) {
        const onAbort = () => this.#cancel(pending, abortError(signal.reason), signal.reason);
        pending.onAbort = onAbort;
        signal.addEventListener('abort', onAbort, { once: true });
      }
      this.#pending.set(id, pending);
      const sendOptions =
        headers || requestAbort ? { headers, requestSignal: requestAbort?.signal } : undefined;
      const written = this.#wire.send(message, sendOptions);
      // The stdio transport's common case: a settled, shared promise (nothing to wait for, no `.catch`).
      if (written !== SENT) written.catch((error: unknown) => this.#fail(pending, error));
    });
  }

  /** The request timer's callback (one function per connection, not per request). */
  readonly #timedOut = (pending: PendingRequest, timeout: number): void =>
    this.#cancel(pending, new SdkError(SdkErrorCode.RequestTimeout, 'Request timed out', { timeout }));

  /** The `maxTotalTimeoutMs` timer's callback. */
  readonly #capped = (pending: PendingRequest, cap: number): void =>
    this.#cancel(
      pending,
      new SdkError(SdkErrorCode.RequestTimeout, 'Maximum total timeout exceeded', { maxTotalTimeout: cap }),
    );

  /** Takes `pending` out of the pending requests, its timers and abort listener with it; false when it was not. */
  #settle(pending: PendingRequest): boolean {
    if (!this.#pending.delete(pending.id)) return false;
    clearTimeout(pending.timer);
    if (pending.capTimer !== undefined) clearTimeout(pending.capTimer);
    if (pending.onAbort !== undefined) pending.signal?.removeEventListener('abort', pending.onAbort);
    return true;
  }

  #fail(pending: PendingRequest, error: unknown): void {
    if (this.#settle(pending)) failed(pending, error);
  }

  /** Fails `pending` and tells the server it is cancelled (MCP spec 2025-11-25, "Utilities > Cancellation"). */
  #cancel(pending: PendingRequest, error: unknown, reason: unknown = error): void {
    if (!this.#settle(pending)) return;
    failed(pending, error);
    if (pending.requestAbort) pending.requestAbort.abort();
    else this.#sendCancellation(pending.id, reason);
  }

  /** The response to direct request `id` (see {@link Correlator.answer}). */
  answer(id: string, response: Record<string, unknown>): boolean {
    const pending = this.#pending.get(id);
    if (pending === undefined || !this.#settle(pending)) return false;
    if ('error' in response) {
      failed(pending, jsonRpcError(response.error));
      return true;
    }
    let value: unknown;
    try {
      value = pending.decode(response.result, pending.context);
    } catch (error) {
      failed(pending, error);
      return true;
    }
    pending.resolve(value);
    return true;
  }

  /** Progress for direct request `token` (its id); a payload without a numeric `progress` is dropped. */
  progress(token: string, params: Record<string, unknown>): boolean {
    const pending = this.#pending.get(token);
    if (pending === undefined) return false;
    if (typeof params.progress !== 'number') return true;
    if (pending.resets) pending.timer?.refresh();
    pending.onprogress?.(progressOf(params));
    return true;
  }

  /** The connection ended: every pending request fails with `ConnectionClosed`; later ones are refused. */
  closed(): void {
    this.#closed = true;
    const error = new SdkError(SdkErrorCode.ConnectionClosed, 'Connection closed');
    for (const pending of [...this.#pending.values()]) this.#fail(pending, error);
  }

  #sendCancellation(id: string, reason: unknown): void {
    if (this.#closed) return;
    const cancelled: JSONRPCMessage = {
      jsonrpc: '2.0',
      method: 'notifications/cancelled',
      params: this.#modern
        ? withEnvelope({ requestId: id, reason: String(reason) }, this.#modern.envelope)
        : { requestId: id, reason: String(reason) },
    };
    this.#wire.send(cancelled).catch((error: unknown) => {
      this.#onError(new Error(`Failed to send cancellation: ${error}`, { cause: error }));
    });
  }
}

/** Settles a settled-out `pending` with `error`, or with what its `recover` makes of it. */
function failed(pending: PendingRequest, error: unknown): void {
  const recover = pending.recover;
  if (recover === undefined) {
    pending.reject(error);
    return;
  }
  try {
    pending.resolve(recover(error, pending.context));
  } catch (thrown) {
    pending.reject(thrown);
  }
}

function withProgressToken(params: Record<string, unknown>, token: string): Record<string, unknown> {
  const meta = isRecord(params._meta) ? params._meta : {};
  return { ...params, _meta: { ...meta, progressToken: token } };
}

/**
 * `params` with the 2026-07-28 `_meta` envelope, the caller's `_meta` keys (log level, progress token) after
 * it, as the SDK's funnel builds it (MCP spec 2026-07-28, "Basic > _meta").
 */
function withEnvelope(
  params: Record<string, unknown>,
  envelope: Readonly<Record<string, unknown>>,
): Record<string, unknown> {
  const meta = isRecord(params._meta) ? params._meta : {};
  return { ...params, _meta: { ...envelope, ...meta } };
}

/** What a request on a closed connection rejects with (typed, where the SDK's request funnel has only text). */
export function notConnected(): SdkError {
  return new SdkError(SdkErrorCode.NotConnected, 'Not connected');
}

/** What the SDK rejects an aborted request with; `toCallError` reports it from the signal either way. */
export function abortError(reason: unknown): SdkError {
  return reason instanceof SdkError ? reason : new SdkError(SdkErrorCode.RequestTimeout, String(reason));
}

/**
 * A `notifications/progress` payload (MCP spec 2025-11-25, "Utilities > Progress") as the `Progress` the
 * caller's `onprogress` gets: `progress`, and `total` / `message` when they are present and typed right.
 */
export function progressOf(params: Record<string, unknown>): Progress {
  const out: Progress = { progress: params.progress as number };
  if (typeof params.total === 'number') out.total = params.total;
  if (typeof params.message === 'string') out.message = params.message;
  return out;
}

function jsonRpcError(error: unknown): ProtocolError {
  const fields = isRecord(error) ? error : {};
  const code = typeof fields.code === 'number' ? fields.code : -32603;
  return ProtocolError.fromError(code, String(fields.message ?? ''), fields.data);
}

/**
 * The result checked by `schema`, the SDK's way (its error text: `Invalid result for <method>: …`);
 * synchronous for a synchronous schema, as ours are (wire-schemas.ts), so a call settles without extra hops.
 */
export function checkResult<T>(
  method: string,
  schema: StandardSchemaV1<unknown, T>,
  result: unknown,
): T | Promise<T> {
  const checked = schema['~standard'].validate(resultOf(result));
  return checked instanceof Promise ? checked.then((c) => verdict(method, c)) : verdict(method, checked);
}

/** A result as the checks see it: earlier-revision servers may send `resultType`; the SDK's 2025 codec strips it, so do we. */
export function resultOf(result: unknown): unknown {
  return isRecord(result) && 'resultType' in result ? withoutResultType(result) : result;
}

/** What a result that fails its check rejects with, as the SDK words it (`problems`: the issues, joined). */
export function invalidResult(method: string, problems: string): SdkError {
  return new SdkError(SdkErrorCode.InvalidResult, `Invalid result for ${method}: ${problems}`);
}

function verdict<T>(method: string, checked: StandardSchemaV1.Result<T>): T {
  if (checked.issues === undefined) return checked.value;
  throw invalidResult(method, checked.issues.map(formatIssue).join(', '));
}

/** As the SDK formats a schema issue: `path.to.field: message`, or the message alone. */
function formatIssue(issue: StandardSchemaV1.Issue): string {
  if (issue.path === undefined || issue.path.length === 0) return issue.message;
  const path = issue.path.map((part) => String(typeof part === 'object' ? part.key : part)).join('.');
  return `${path}: ${issue.message}`;
}

function withoutResultType(result: Record<string, unknown>): Record<string, unknown> {
  const { resultType: _, ...rest } = result;
  return rest;
}
