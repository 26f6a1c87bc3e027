/**
 * The per-server bound on tool calls in flight (`MCPClientOptions.maxConcurrentCalls`): a stdio server that
 * works one request at a time is not flooded by one model turn's parallel calls. Calls beyond the bound
 * wait in order (FIFO); the wait counts toward the call's own timeout, and an abort while waiting takes
 * the call out of the queue, so a call that gave up never takes a slot.
 */
import { MCPCallError } from '../protocol/errors.js';
import type { CallToolResult } from '../protocol/types.js';
import type { RequestOptions } from '../session/request-options.js';
import type { Session } from '../session/session.js';

interface Waiter {
  start(): void;
}

/** Runs calls with at most `max` in flight; without a bound it adds nothing (no await, no timer). */
export class CallLimiter {
  readonly #max: number;
  readonly #server: string;
  #running = 0;
  readonly #queue: Waiter[] = [];

  /**
   * @param max most calls in flight; `undefined` or `Infinity`: no bound.
   * @throws RangeError when `max` is not a whole number of at least 1.
   */
  constructor(max: number | undefined, server: string) {
    if (max !== undefined && max !== Number.POSITIVE_INFINITY && !(Number.isInteger(max) && max >= 1)) {
      throw new RangeError(`maxConcurrentCalls must be a whole number of at least 1 (got ${max})`);
    }
    this.#max = max ?? Number.POSITIVE_INFINITY;
    this.#server = server;
  }

  /** Whether calls are bounded at all: without a bound a caller may skip the limiter (no promise, no closure). */
  get bounded(): boolean {
    return this.#max !== Number.POSITIVE_INFINITY;
  }

  /** Calls waiting for a slot. */
  get queued(): number {
    return this.#queue.length;
  }

  /**
   * `session.callTool(name, input, options)` once a slot is free, bounded by `timeoutMs` (at least 1) from
   * now, the wait included.
   * @throws as {@link run}.
   */
  call(
    session: Pick<Session, 'callTool'>,
    name: string,
    input: Record<string, unknown>,
    options: RequestOptions,
    timeoutMs: number,
  ): Promise<CallToolResult> {
    return this.run(name, Math.max(1, timeoutMs), options.signal, (left) =>
      session.callTool(name, input, { ...options, timeoutMs: left }),
    );
  }

  /**
   * Runs `call` with what is left of `timeoutMs` once a slot is free.
   * @throws MCPCallError kind `timeout` when `timeoutMs` passes while waiting, `aborted` when `signal` fires
   *   while waiting (the call never starts then); else what `call` throws.
   */
  run<T>(
    toolName: string,
    timeoutMs: number,
    signal: AbortSignal | undefined,
    call: (timeoutMs: number) => Promise<T>,
  ): Promise<T> {
    if (this.#max === Number.POSITIVE_INFINITY) return call(timeoutMs);
    if (this.#running < this.#max && this.#queue.length === 0) return this.#start(call, timeoutMs);
    const queuedAt = Date.now();
    return new Promise<T>((resolve, reject) => {
      const context = { server: this.#server, method: 'tools/call', toolName };
      const leave = () => {
        clearTimeout(timer);
        signal?.removeEventListener('abort', onAbort);
        const at = this.#queue.indexOf(waiter);
        if (at >= 0) this.#queue.splice(at, 1);
      };
      const onAbort = () => {
        leave();
        reject(
          new MCPCallError('aborted', 'aborted while waiting for a free call slot (maxConcurrentCalls)', {
            ...context,
            cause: signal?.reason,
          }),
        );
      };
      const timer = setTimeout(() => {
        leave();
        const why = `timed out after ${timeoutMs} ms waiting for a free call slot (maxConcurrentCalls ${this.#max})`;
        reject(new MCPCallError('timeout', why, { ...context, timeoutMs }));
      }, timeoutMs);
      const waiter: Waiter = {
        start: () => {
          leave();
          this.#start(call, timeoutMs - (Date.now() - queuedAt)).then(resolve, reject);
        },
      };
      if (signal?.aborted) return onAbort();
      signal?.addEventListener('abort', onAbort, { once: true });
      this.#queue.push(waiter);
    });
  }

  #start<T>(call: (timeoutMs: number) => Promise<T>, timeoutMs: number): Promise<T> {
    this.#running += 1;
    let pending: Promise<T>;
    try {
      pending = call(Math.max(1, timeoutMs));
    } catch (error) {
      pending = Promise.reject(error);
    }
    return pending.finally(() => {
      this.#running -= 1;
      this.#queue[0]?.start();
    });
  }
}
