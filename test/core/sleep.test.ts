import { describe, expect, it } from 'vitest';
import { sleep } from '../../src/core/sleep.js';

describe('sleep', () => {
  it('resolves true once the time has passed', async () => {
    const started = Date.now();
    expect(await sleep(30)).toBe(true);
    expect(Date.now() - started).toBeGreaterThanOrEqual(25);
  });

  it('resolves false as soon as the signal aborts, and at once when it already has', async () => {
    const controller = new AbortController();
    const started = Date.now();
    setTimeout(() => controller.abort(new Error('stop')), 20);
    expect(await sleep(10_000, controller.signal)).toBe(false);
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(await sleep(10_000, controller.signal)).toBe(false);
  });
});
