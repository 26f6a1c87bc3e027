import { describe, expect, it } from 'vitest';
import { backoffDelayMs } from '../../src/core/backoff.js';

describe('backoffDelayMs', () => {
  const backoff = { initialDelayMs: 1_000, maxDelayMs: 30_000 };

  it('doubles from the initial delay up to the ceiling, the first retry numbered 0', () => {
    expect([0, 1, 2, 3, 4, 5, 10].map((retry) => backoffDelayMs(backoff, retry))).toEqual([
      1_000, 2_000, 4_000, 8_000, 16_000, 30_000, 30_000,
    ]);
  });

  it('scales the delay into [0.5, 1] of itself with jitter', () => {
    expect(backoffDelayMs(backoff, 2, () => 0)).toBe(2_000);
    expect(backoffDelayMs(backoff, 2, () => 0.5)).toBe(3_000);
    expect(backoffDelayMs(backoff, 2, () => 1)).toBe(4_000);
  });
});
