/**
 * A push-to-pull bridge: the run pushes events from wherever they happen (the model stream, concurrent
 * tools' progress callbacks) and `agent.prompt()`'s consumer pulls them in order. Unbounded, because a run
 * produces events at the pace of a model and tools, not faster than anyone can read them.
 */
export class EventChannel<T> implements AsyncIterableIterator<T> {
  readonly #items: T[] = [];
  #waiter: { resolve: (r: IteratorResult<T>) => void; reject: (e: unknown) => void } | undefined;
  #closed = false;
  #failure: { error: unknown } | undefined;
  readonly #onCancel: () => Promise<void> | void;

  /**
   * `onCancel` runs when the consumer stops early (`break` out of `for await`); the `break` completes once
   * the promise it returns settles, so the producer has stopped by then.
   */
  constructor(onCancel: () => Promise<void> | void) {
    this.#onCancel = onCancel;
  }

  push(item: T): void {
    if (this.#closed) return;
    if (this.#waiter) {
      const { resolve } = this.#waiter;
      this.#waiter = undefined;
      resolve({ value: item, done: false });
    } else this.#items.push(item);
  }

  /** Ends the stream after the queued items. */
  close(): void {
    this.#closed = true;
    this.#settleWaiter();
  }

  /** Ends the stream after the queued items, then rejects the next pull with `error`. */
  fail(error: unknown): void {
    if (this.#closed) return;
    this.#failure = { error };
    this.#closed = true;
    this.#settleWaiter();
  }

  next(): Promise<IteratorResult<T>> {
    const item = this.#items.shift();
    if (item !== undefined) return Promise.resolve({ value: item, done: false });
    if (this.#closed) return this.#end();
    return new Promise((resolve, reject) => {
      this.#waiter = { resolve, reject };
    });
  }

  async return(): Promise<IteratorResult<T>> {
    const wasOpen = !this.#closed;
    this.#closed = true;
    this.#items.length = 0;
    this.#failure = undefined;
    if (wasOpen) await this.#onCancel();
    return { value: undefined, done: true };
  }

  [Symbol.asyncIterator](): AsyncIterableIterator<T> {
    return this;
  }

  #end(): Promise<IteratorResult<T>> {
    const failure = this.#failure;
    this.#failure = undefined;
    if (failure) return Promise.reject(failure.error);
    return Promise.resolve({ value: undefined, done: true });
  }

  #settleWaiter(): void {
    if (!this.#waiter || this.#items.length > 0) return;
    const waiter = this.#waiter;
    this.#waiter = undefined;
    this.#end().then(waiter.resolve, waiter.reject);
  }
}
