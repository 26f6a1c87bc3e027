/**
 * Small promise utilities for the client's lifecycle: a deferred "ready" signal for calls waiting on a
 * reconnect, and a bounded wait. Each one clears its own timer and listener. (The abortable sleep of the
 * reconnection backoff is core/sleep.ts.)
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
 * Waits for `pending`, at most `ms` (then rejects with `onTimeout()`), and rejects with the abort reason as
 * soon as `signal` aborts.
 */
export async function waitWithin(
  pending: Promise<void>,
  ms: number,
  signal: AbortSignal | undefined,
  onTimeout: () => Error,
): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  let onAbort: (() => void) | undefined;
  const bounds = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(onTimeout()), Math.max(0, ms));
    onAbort = () => reject(signal?.reason);
    signal?.addEventListener('abort', onAbort, { once: true });
    if (signal?.aborted) onAbort();
  });
  try {
    await Promise.race([pending, bounds]);
  } finally {
    clearTimeout(timer);
    if (onAbort) signal?.removeEventListener('abort', onAbort);
  }
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
