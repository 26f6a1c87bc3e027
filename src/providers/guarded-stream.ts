/**
 * The part every adapter shares around a vendor SDK's streaming call: failures become `ModelError`s, a
 * stalled or endless stream is ended by the request's timeouts, and an aborted request always ends in an
 * abort error, because the SDKs may end an aborted stream quietly instead of throwing, and a truncated
 * response must never be passed on as a complete one.
 */
import { ModelError, toModelError } from './errors.js';
import type { ModelEvent, ModelRequest } from './model.js';

/** Default {@link ModelRequest.idleTimeoutMs}: 120 000 ms without a stream event. */
export const DEFAULT_MODEL_IDLE_TIMEOUT_MS = 120_000;
/** Default {@link ModelRequest.requestTimeoutMs}: 600 000 ms (10 minutes) for a whole request. */
export const DEFAULT_MODEL_REQUEST_TIMEOUT_MS = 600_000;

/** Node's timers take at most 2^31 - 1 ms; longer (or `Infinity`) means no bound. */
const MAX_TIMER_MS = 2 ** 31 - 1;

/**
 * Opens the vendor stream with `open` (given the signal to hand the SDK: the request's, plus the
 * timeouts), turns it into model events with `read`, and yields them.
 * @throws ModelError (kind `timeout` when a bound of the request was hit; else `request_failed` /
 *   `bad_response`), or the abort error, for any failure of opening or reading.
 */
export async function* guardedStream<Event>(
  provider: string,
  request: ModelRequest,
  open: (signal: AbortSignal) => Promise<AsyncIterable<Event>>,
  read: (raw: AsyncIterable<Event>) => AsyncIterable<ModelEvent>,
): AsyncIterable<ModelEvent> {
  const guard = new StreamGuard(provider, request);
  try {
    let raw: AsyncIterable<Event>;
    try {
      raw = await open(guard.signal);
    } catch (error) {
      throw guard.failure(error);
    }
    try {
      for await (const event of read(guard.watch(raw))) {
        guard.throwIfStopped();
        yield event;
      }
      guard.throwIfStopped();
    } catch (error) {
      throw guard.failure(error);
    }
  } finally {
    guard.release();
  }
}

/** The request's signal and timers, for one request. */
class StreamGuard {
  readonly #provider: string;
  readonly #request: ModelRequest;
  readonly #controller = new AbortController();
  readonly #idleMs: number | undefined;
  #idleTimer: NodeJS.Timeout | undefined;
  readonly #requestTimer: NodeJS.Timeout | undefined;
  #timedOut: ModelError | undefined;
  readonly #onAbort = () => this.#controller.abort(this.#request.signal?.reason);

  constructor(provider: string, request: ModelRequest) {
    this.#provider = provider;
    this.#request = request;
    request.signal?.addEventListener('abort', this.#onAbort, { once: true });
    if (request.signal?.aborted) this.#onAbort();
    this.#idleMs = bound(request.idleTimeoutMs ?? DEFAULT_MODEL_IDLE_TIMEOUT_MS);
    const requestMs = bound(request.requestTimeoutMs ?? DEFAULT_MODEL_REQUEST_TIMEOUT_MS);
    if (requestMs !== undefined) {
      this.#requestTimer = setTimeout(() => this.#timeout('request', requestMs), requestMs);
    }
    this.#touch();
  }

  /** The signal the SDK gets: aborted by the request's signal or by a timeout. */
  get signal(): AbortSignal {
    return this.#controller.signal;
  }

  /** `raw` with the idle timer restarted at each of its events. */
  async *watch<T>(raw: AsyncIterable<T>): AsyncIterable<T> {
    for await (const event of raw) {
      this.#touch();
      yield event;
    }
  }

  throwIfStopped(): void {
    if (this.#timedOut) throw this.#timedOut;
    this.#request.signal?.throwIfAborted();
  }

  /** What a failure of the SDK becomes: the timeout that caused it, the abort, or a `ModelError`. */
  failure(error: unknown): Error {
    return this.#timedOut ?? toModelError(error, this.#provider, this.#request.signal);
  }

  release(): void {
    clearTimeout(this.#idleTimer);
    clearTimeout(this.#requestTimer);
    this.#request.signal?.removeEventListener('abort', this.#onAbort);
  }

  #touch(): void {
    const idleMs = this.#idleMs;
    if (idleMs === undefined || this.#timedOut) return;
    clearTimeout(this.#idleTimer);
    this.#idleTimer = setTimeout(() => this.#timeout('idle', idleMs), idleMs);
  }

  #timeout(which: 'idle' | 'request', ms: number): void {
    if (this.#timedOut || this.#controller.signal.aborted) return;
    const what =
      which === 'idle'
        ? `the stream sent nothing for ${ms} ms (idleTimeoutMs)`
        : `the request took longer than ${ms} ms (requestTimeoutMs)`;
    this.#timedOut = new ModelError('timeout', `${this.#provider} request timed out: ${what}`, {
      provider: this.#provider,
      timeout: which,
      timeoutMs: ms,
    });
    this.#controller.abort(this.#timedOut);
  }
}

function bound(ms: number): number | undefined {
  return ms > 0 && ms <= MAX_TIMER_MS ? ms : undefined;
}
