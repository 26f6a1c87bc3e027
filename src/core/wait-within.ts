/**
 * A wait bounded by a time and a signal, for whoever waits on work it does not own (a call waiting for the
 * reconnect, a lost request waiting for its session's renewal). It clears its own timer and listener.
 */

/**
 * Waits for `pending` and resolves with its value, at most `ms` (then rejects with `onTimeout()`), and rejects
 * with the abort reason as soon as `signal` aborts. `pending` itself goes on either way.
 */
export async function waitWithin<T>(
  pending: Promise<T>,
  ms: number,
  signal: AbortSignal | undefined,
  onTimeout: () => Error,
): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  let onAbort: (() => void) | undefined;
  const bounds = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(onTimeout()), Math.max(0, ms));
    onAbort = () => reject(signal?.reason);
    signal?.addEventListener('abort', onAbort, { once: true });
    if (signal?.aborted) onAbort();
  });
  try {
    return await Promise.race([pending, bounds]);
  } finally {
    clearTimeout(timer);
    if (onAbort) signal?.removeEventListener('abort', onAbort);
  }
}
