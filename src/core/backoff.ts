/**
 * Exponential backoff: the delay before each retry doubles from an initial delay up to a ceiling. One
 * formula for every retry loop of agentwire: the client's reconnection, and the HTTP transport's reopening of
 * its GET stream and resumption of an interrupted response stream.
 */

/** The delays of a backoff, in ms. */
export interface Backoff {
  /** The delay before the first retry, in ms. */
  initialDelayMs: number;
  /** The ceiling on the delay, in ms. */
  maxDelayMs: number;
}

/**
 * The delay before retry `retry` (0-based: the first retry waits `initialDelayMs`), in ms:
 * `initialDelayMs · 2^retry`, capped at `maxDelayMs`. With `jitter` (a random source in [0, 1), such as
 * `Math.random`), scaled by a factor in [0.5, 1] ("equal jitter") and rounded, so that many clients of one
 * restarted server do not retry in lockstep.
 */
export function backoffDelayMs(backoff: Backoff, retry: number, jitter?: () => number): number {
  const exponential = Math.min(backoff.maxDelayMs, backoff.initialDelayMs * 2 ** Math.max(0, retry));
  return jitter === undefined ? exponential : Math.round(exponential * (0.5 + jitter() * 0.5));
}
