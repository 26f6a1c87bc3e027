/**
 * One outbound HTTP request in flight: the controller that aborts it (on close, cancellation, or the idle
 * timeout), its idle timer, what its answer has shown so far, and the error it fails with.
 */
import { type RequestId, type TransportSendOptions, UnauthorizedError } from '@modelcontextprotocol/client';
import { MCPAuthConfigError } from '../../auth/auth-config-error.js';
import { MCPOAuthGrantError } from '../../auth/grant-error.js';
import { MCPCallError } from '../../protocol/errors.js';
import { type HttpErrorContext, httpTransportError } from './errors.js';
import { IdleTimer } from './idle.js';

/** A JSON-RPC request's in-flight state, from its POST to its response. */
export interface RequestState {
  id: RequestId;
  context: HttpErrorContext;
  controller: AbortController;
  idle: IdleTimer;
  /** Whether its response was delivered. */
  responded: boolean;
  /** The HTTP status of the answer being read, for errors. */
  status: number;
  /** Whether the answer's headers arrived: a failure before them may mean the server is gone. */
  answered: boolean;
  lastEventId: string | undefined;
  /** Set when the SDK resends a request to resume it: answers are renumbered to the new id. */
  replayId: RequestId | undefined;
  /**
   * A 2026-era request (its `_meta` envelope names a 2026-era protocol version): its stream is never resumed,
   * and one that breaks before the response fails with `reissue` (MCP spec 2026-07-28, "Transports >
   * Streamable HTTP": resumable SSE streams are not supported).
   */
  modern: boolean;
  onresumptiontoken: ((token: string) => void) | undefined;
}

/**
 * The state of request `id`, its idle timer running: `idleTimeoutMs` without a byte from the server aborts
 * it with kind `timeout`, and the SDK's `requestSignal` (when given) with kind `aborted`.
 */
export function newRequestState(
  id: RequestId,
  context: HttpErrorContext,
  idleTimeoutMs: number,
  options: TransportSendOptions | undefined,
): RequestState {
  const controller = new AbortController();
  const state: RequestState = {
    id,
    context,
    controller,
    idle: idleTimer(controller, context, idleTimeoutMs, 'no data from the server'),
    responded: false,
    status: 0,
    answered: false,
    lastEventId: undefined,
    replayId: undefined,
    modern: false,
    onresumptiontoken: options?.onresumptiontoken,
  };
  const requestSignal = options?.requestSignal;
  if (requestSignal !== undefined)
    link(requestSignal, controller, () => abortedError(context, requestSignal));
  return state;
}

/** A running idle timer that aborts `controller` with kind `timeout`, saying `what` came for `timeoutMs`. */
export function idleTimer(
  controller: AbortController,
  context: HttpErrorContext,
  timeoutMs: number,
  what: string,
): IdleTimer {
  return new IdleTimer(timeoutMs, () =>
    controller.abort(httpTransportError('timeout', context, `${what} for ${timeoutMs} ms`, { timeoutMs })),
  );
}

/** The error of a request the caller cancelled (kind `aborted`), the cancellation's reason as cause. */
export function abortedError(context: HttpErrorContext, reason: unknown): MCPCallError {
  return httpTransportError('aborted', context, 'the request was cancelled', { cause: reason });
}

/**
 * The error a failed request rejects with: the abort reason when we aborted it (close, timeout,
 * cancellation), else the error itself when it is ours, the SDK's `UnauthorizedError` or a refused grant
 * (`MCPOAuthGrantError`, mapped by the session), else a `transport`
 * error caused by it (for an `auth` file that cannot be read, worded by its `MCPAuthConfigError`).
 */
export function requestFailure(signal: AbortSignal, context: HttpErrorContext, error: unknown): unknown {
  const reason: unknown = signal.aborted ? signal.reason : undefined;
  if (reason instanceof MCPCallError) return reason;
  if (
    error instanceof MCPCallError ||
    error instanceof UnauthorizedError ||
    error instanceof MCPOAuthGrantError
  )
    return error;
  // An `auth` file that cannot be read names the file itself: its cause's message would say it twice.
  if (error instanceof MCPAuthConfigError)
    return httpTransportError('transport', context, error.reason, { cause: error });
  return httpTransportError('transport', context, describe(error), { cause: error });
}

/**
 * `failure` of a 2026-era request, marked `reissue` when the request was lost in flight: its 2xx answer had
 * begun and broke (a reset socket, say) before the response (MCP spec 2026-07-28, "Key Changes" 9). An
 * answer whose headers came but whose status is not recorded yet is a `200 application/json` one whose body
 * undici was reading (undici.ts reads only those itself).
 */
export function lostInFlight(state: RequestState, failure: unknown): unknown {
  const began = state.status === 0 ? state.answered : state.status >= 200 && state.status < 300;
  const broken =
    state.modern &&
    !state.responded &&
    began &&
    failure instanceof MCPCallError &&
    failure.kind === 'transport' &&
    failure.reissue !== true;
  return broken ? failure.with({ reissue: true }) : failure;
}

/**
 * The abort reason that releases a finished request's connection. Shared, because `abort()` without a reason
 * builds a `DOMException` (with its stack) each time.
 */
export const RELEASED = new Error('the request finished');

/** Aborts `controller` when `signal` fires, with `reason()` or the signal's own reason. */
function link(signal: AbortSignal, controller: AbortController, reason?: () => unknown): void {
  const abort = () => controller.abort(reason === undefined ? signal.reason : reason());
  if (signal.aborted) abort();
  else signal.addEventListener('abort', abort, { once: true, signal: controller.signal });
}

function describe(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const cause = error.cause instanceof Error ? ` (${error.cause.message})` : '';
  return `${error.message}${cause}`;
}
