/**
 * The idle read timeout of an HTTP exchange: a stalled server (one that accepts the POST, then sends
 * nothing) is bounded by an idle read timeout (120 s by default) rather than hanging. The timer resets on
 * every read, so a long `tools/call` streaming progress notifications is never cut off.
 */

/** A restartable one-shot timer: `onIdle` runs when `touch()` has not been called for `ms`. */
export class IdleTimer {
  private timer: NodeJS.Timeout | undefined;

  /** Starts the timer. `ms` is the longest allowed silence, in ms. */
  constructor(
    private readonly ms: number,
    private readonly onIdle: () => void,
  ) {
    this.touch();
  }

  /** Restarts the countdown (call on every byte received). */
  touch(): void {
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
