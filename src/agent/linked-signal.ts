/**
 * A short-lived signal that follows a run's signal. Vendor SDKs (OpenAI's, Anthropic's) and MCP calls add
 * an `abort` listener to the signal they are given and do not always remove it; given the run's own signal,
 * those listeners pile up turn after turn until Node prints `MaxListenersExceededWarning` on the user's
 * terminal. Each model request and tool call gets its own linked signal instead, and the one listener that
 * links it to the run's is removed as soon as the request or call is done.
 */

/** A signal that aborts when its parent does, until released. */
export interface LinkedSignal {
  /** Aborts (with the parent's reason) when the parent aborts before {@link release} is called. */
  readonly signal: AbortSignal;
  /** Unlinks from the parent. Idempotent; call it once the request or call is over, on every path. */
  release(): void;
}

/** A signal linked to `parent`: aborted already when `parent` is, else when it fires, until released. */
export function linkedSignal(parent: AbortSignal): LinkedSignal {
  const controller = new AbortController();
  if (parent.aborted) {
    controller.abort(parent.reason);
    return { signal: controller.signal, release: () => {} };
  }
  const onAbort = () => controller.abort(parent.reason);
  parent.addEventListener('abort', onAbort, { once: true });
  return {
    signal: controller.signal,
    release: () => parent.removeEventListener('abort', onAbort),
  };
}

/**
 * Runs `work` with a signal linked to `parent`, and unlinks it when `work` settles (resolves or rejects).
 * A stream (async iterable) is not "settled" when its promise resolves: wrap its whole consumption.
 */
export async function withLinkedSignal<T>(
  parent: AbortSignal,
  work: (signal: AbortSignal) => Promise<T>,
): Promise<T> {
  const link = linkedSignal(parent);
  try {
    return await work(link.signal);
  } finally {
    link.release();
  }
}
