/**
 * The pure parts of the 2026-07-28 listen stream: the filter a server's declared capabilities allow
 * (session/listen.ts) and the idle timeout a listen request gets over HTTP (transports/http/idle.ts). The
 * stream itself is tested against the real fixtures in test/mcp/era2026/listen-*.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { listenFilter } from '../../../src/mcp/session/listen.js';
import { IdleTimer, idleTimeoutFor } from '../../../src/mcp/transports/http/idle.js';

describe('listenFilter', () => {
  it('asks only for what the capabilities declare', () => {
    expect(listenFilter(undefined, ['a'])).toBeUndefined();
    expect(listenFilter({}, [])).toBeUndefined();
    expect(listenFilter({ tools: {} }, [])).toBeUndefined();
    expect(listenFilter({ tools: { listChanged: true } }, ['a'])).toEqual({ toolsListChanged: true });
    expect(listenFilter({ prompts: { listChanged: true } }, [])).toEqual({ promptsListChanged: true });
    expect(listenFilter({ resources: { listChanged: true } }, ['a'])).toEqual({ resourcesListChanged: true });
    expect(listenFilter({ resources: { subscribe: true } }, [])).toBeUndefined();
    expect(listenFilter({ resources: { subscribe: true } }, ['a', 'b'])).toEqual({
      resourceSubscriptions: ['a', 'b'],
    });
    expect(
      listenFilter(
        {
          tools: { listChanged: true },
          prompts: { listChanged: true },
          resources: { listChanged: true, subscribe: true },
        },
        ['a'],
      ),
    ).toEqual({
      toolsListChanged: true,
      promptsListChanged: true,
      resourcesListChanged: true,
      resourceSubscriptions: ['a'],
    });
  });
});

describe('idleTimeoutFor', () => {
  it('gives subscriptions/listen no idle timeout, every other request the configured one', async () => {
    expect(idleTimeoutFor('subscriptions/listen', 500)).toBe(Number.POSITIVE_INFINITY);
    expect(idleTimeoutFor('tools/call', 500)).toBe(500);
    expect(idleTimeoutFor(undefined, 500)).toBe(500);
    let fired = 0;
    const never = new IdleTimer(Number.POSITIVE_INFINITY, () => fired++);
    never.touch();
    const soon = new IdleTimer(20, () => fired++);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(fired).toBe(1);
    never.stop();
    soon.stop();
  });
});
