/**
 * Small promise utilities for the client's lifecycle: a deferred "ready" signal for calls waiting on a
 * reconnect, and whether a promise settles in time. Each one clears its own timer. (The abortable sleep of
 * the reconnection backoff is core/sleep.ts; the wait bounded by a signal and a time, core/wait-within.ts.)
 */

/** A promise with its settle functions exposed. */
export interface Deferred {
  promise: Promise<void>;
  resolve(): void;
  reject(error: Error): void;
}

/** A new {@link Deferred}. Its rejection, when nobody waits, is not an unhandled rejection. */
export function deferred(): Deferred {
  let resolve!: () => void;
  let reject!: (error: Error) => void;
  const promise = new Promise<void>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  promise.catch(() => {});
  return { promise, resolve, reject };
}

/**
 * Whether `pending` settles within `ms`: resolves `true` as soon as it does, `false` once `ms` passed first
 * (`pending` itself goes on). Never rejects; clears its timer.
 */
export async function settlesWithin(pending: Promise<unknown>, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const elapsed = new Promise<boolean>((resolve) => {
    timer = setTimeout(() => resolve(false), Math.max(0, ms));
  });
  try {
    return await Promise.race([
      pending.then(
        () => true,
        () => true,
      ),
      elapsed,
    ]);
  } finally {
    clearTimeout(timer);
  }
}
