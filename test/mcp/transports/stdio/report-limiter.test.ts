import { describe, expect, it } from 'vitest';
import { ReportLimiter } from '../../../../src/mcp/transports/stdio/report-limiter.js';

describe('ReportLimiter', () => {
  it('reports the first five, then one per interval carrying the count suppressed in between', () => {
    let now = 0;
    const limiter = new ReportLimiter({ burst: 5, intervalMs: 1000, now: () => now });
    const first = Array.from({ length: 8 }, () => limiter.offer());
    expect(first).toEqual([
      { report: true, suppressed: 0 },
      { report: true, suppressed: 0 },
      { report: true, suppressed: 0 },
      { report: true, suppressed: 0 },
      { report: true, suppressed: 0 },
      { report: false },
      { report: false },
      { report: false },
    ]);
    now = 999;
    expect(limiter.offer()).toEqual({ report: false });
    now = 1000;
    expect(limiter.offer()).toEqual({ report: true, suppressed: 4 });
    expect(limiter.offer()).toEqual({ report: false });
    now = 2000;
    expect(limiter.offer()).toEqual({ report: true, suppressed: 1 });
  });
});
