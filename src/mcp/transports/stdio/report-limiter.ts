/**
 * Rate limit for reports of stdout lines a stdio server should not have written.
 *
 * A server that logs to stdout (MCP spec 2025-11-25, "Transports > stdio": the server MUST NOT write anything
 * to stdout that is not a valid MCP message) can print thousands of lines; reporting each would flood the
 * host. The first `burst` are reported, then at most one per `intervalMs`, carrying how many were skipped
 * silently in between. No timer is involved: the count travels with the next report.
 */

/** Options of a {@link ReportLimiter}. */
export interface ReportLimiterOptions {
  /** Reports let through before limiting starts. Default 5. */
  burst?: number;
  /** Minimum time between two reports once limiting has started, in ms. Default 10 000. */
  intervalMs?: number;
  /** Clock, in ms; for tests. Default `Date.now`. */
  now?: () => number;
}

/** The verdict on one event. */
export type ReportDecision =
  | { report: true /** Events suppressed since the previous report. */; suppressed: number }
  | { report: false };

/** Decides, event by event, whether to report (see the module comment). */
export class ReportLimiter {
  private readonly burst: number;
  private readonly intervalMs: number;
  private readonly now: () => number;
  private reported = 0;
  private suppressed = 0;
  private lastReportAt = Number.NEGATIVE_INFINITY;

  constructor(options: ReportLimiterOptions = {}) {
    this.burst = options.burst ?? 5;
    this.intervalMs = options.intervalMs ?? 10_000;
    this.now = options.now ?? Date.now;
  }

  /** Records one event and says whether to report it. */
  offer(): ReportDecision {
    const now = this.now();
    if (this.reported < this.burst || now - this.lastReportAt >= this.intervalMs) {
      const suppressed = this.suppressed;
      this.reported += 1;
      this.suppressed = 0;
      this.lastReportAt = now;
      return { report: true, suppressed };
    }
    this.suppressed += 1;
    return { report: false };
  }
}
