/**
 * The idle read timeout of an HTTP exchange: a stalled server (one that accepts the POST, then sends
 * nothing) is bounded by an idle read timeout (120 s by default) rather than hanging. The timer resets on
 * every read, so a long `tools/call` streaming progress notifications is never cut off.
 */

/**
 * The idle read timeout of a request for `method`, in ms: `idleTimeoutMs`, except for `subscriptions/listen`,
 * whose response stream stays open and quiet for as long as nothing changes (MCP spec 2026-07-28,
 * "Transports > Streamable HTTP": the listen stream is long-lived; keep-alive comments are only encouraged).
 * Its acknowledgment is bounded by the SDK's request timeout instead. `Infinity` means no idle timeout.
 */
export function idleTimeoutFor(method: string | undefined, idleTimeoutMs: number): number {
  return method === 'subscriptions/listen' ? Number.POSITIVE_INFINITY : idleTimeoutMs;
}

/** A restartable one-shot timer: `onIdle` runs when `touch()` has not been called for `ms`. */
export class IdleTimer {
  private timer: NodeJS.Timeout | undefined;

  /** Starts the timer. `ms` is the longest allowed silence, in ms (`Infinity`: none). */
  constructor(
    private readonly ms: number,
    private readonly onIdle: () => void,
  ) {
    this.touch();
  }

  /** Restarts the countdown (call on every byte received). An infinite `ms` never counts down. */
  touch(): void {
    if (this.ms === Number.POSITIVE_INFINITY) return;
    if (this.timer !== undefined) {
      this.timer.refresh();
      return;
    }
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.onIdle();
    }, this.ms);
    // The socket it guards keeps the process alive; the timer alone must not.
    this.timer.unref();
  }

  /** Stops the countdown; `touch()` starts it again. */
  stop(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
  }
}
