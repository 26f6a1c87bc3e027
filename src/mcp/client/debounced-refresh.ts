/**
 * The debounced tool-list refresh that follows `notifications/tools/list_changed` (MCP spec 2025-11-25,
 * "Tools > List Changed Notification"): a burst of notifications makes one `tools/list`, and whoever needs
 * an up-to-date list (an agent building its next model turn) can wait for the refresh still to come.
 */
import { type Deferred, deferred } from './waiting.js';

/** One pending refresh at most: scheduled, rescheduled by each new notification, or cancelled. */
export class DebouncedRefresh {
  #timer: NodeJS.Timeout | undefined;
  #waiting: Deferred | undefined;

  /** Settles when the scheduled refresh has started (then see the client's own refresh promise). */
  get pending(): Promise<void> | undefined {
    return this.#waiting?.promise;
  }

  /** Runs `refresh` `delayMs` from now, unless scheduled again or cancelled before. */
  schedule(delayMs: number, refresh: () => void): void {
    clearTimeout(this.#timer);
    this.#waiting ??= deferred();
    this.#timer = setTimeout(() => {
      refresh();
      this.#release();
    }, delayMs);
  }

  /** Drops the scheduled refresh (the session ended); waiters are let go. */
  cancel(): void {
    clearTimeout(this.#timer);
    this.#release();
  }

  #release(): void {
    const waiting = this.#waiting;
    this.#waiting = undefined;
    waiting?.resolve();
  }
}
