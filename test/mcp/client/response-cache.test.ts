/**
 * ResponseCache's rules that the fixtures cannot drive (client/response-cache.ts; MCP spec 2026-07-28,
 * "Server > Utilities > Caching"): what is stored, the key, scopes, identity partitions. The server side is
 * a counting `send`; the fixtures' behaviour is in test/mcp/era2026/caching.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { ResponseCache } from '../../../src/mcp/client/response-cache.js';

const modern = { era: 'modern' as const, serverInfo: { name: 's', version: '1' } };

/** A `send` answering `result` and counting its calls. */
function server(result: Record<string, unknown>): { send: () => Promise<unknown>; count: () => number } {
  let count = 0;
  return {
    send: async () => {
      count += 1;
      return { ...result };
    },
    count: () => count,
  };
}

describe('ResponseCache', () => {
  it('stores only positive ttlMs; 0, negative or absent are stale at once', async () => {
    for (const ttlMs of [0, -5, undefined, Number.NaN]) {
      const cache = new ResponseCache().forSession(modern);
      const { send, count } = server({ tools: [], ...(ttlMs !== undefined && { ttlMs }) });
      await cache?.through('tools/list', {}, send);
      await cache?.through('tools/list', {}, send);
      expect(count()).toBe(2);
    }
  });

  it('keys by method and shaping params, never _meta', async () => {
    const cache = new ResponseCache().forSession(modern);
    const { send, count } = server({ contents: [], ttlMs: 10_000 });
    await cache?.through('resources/read', { uri: 'a', _meta: { x: 1 } }, send);
    await cache?.through('resources/read', { uri: 'a', _meta: { x: 2 } }, send);
    await cache?.through('resources/read', { uri: 'b' }, send);
    await cache?.through('prompts/get', { name: 'p' }, send);
    await cache?.through('prompts/get', { name: 'p' }, send);
    expect(count()).toBe(4);
  });

  it('does not store multi round-trip retries nor input_required results', async () => {
    const cache = new ResponseCache().forSession(modern);
    const retried = server({ contents: [], ttlMs: 10_000 });
    await cache?.through('resources/read', { uri: 'a', requestState: 'x' }, retried.send);
    await cache?.through('resources/read', { uri: 'a', inputResponses: {} }, retried.send);
    expect(retried.count()).toBe(2);
    const interim = server({ resultType: 'input_required', ttlMs: 10_000 });
    await cache?.through('resources/read', { uri: 'b' }, interim.send);
    await cache?.through('resources/read', { uri: 'b' }, interim.send);
    expect(interim.count()).toBe(2);
  });

  it('drops private entries on dropPrivate(), keeps public ones', async () => {
    const cache = new ResponseCache();
    const pub = server({ tools: [], ttlMs: 10_000, cacheScope: 'public' });
    const priv = server({ contents: [], ttlMs: 10_000, cacheScope: 'private' });
    await cache.forSession(modern)?.through('tools/list', {}, pub.send);
    await cache.forSession(modern)?.through('resources/read', { uri: 'a' }, priv.send);
    cache.dropPrivate();
    await cache.forSession(modern)?.through('tools/list', {}, pub.send);
    await cache.forSession(modern)?.through('resources/read', { uri: 'a' }, priv.send);
    expect([pub.count(), priv.count()]).toEqual([1, 2]);
  });

  it('starts empty for a server of another identity, and is off for the 2025 era', async () => {
    const cache = new ResponseCache();
    const { send, count } = server({ tools: [], ttlMs: 10_000 });
    await cache.forSession(modern)?.through('tools/list', {}, send);
    await cache
      .forSession({ era: 'modern', serverInfo: { name: 's', version: '2' } })
      ?.through('tools/list', {}, send);
    expect(count()).toBe(2);
    expect(cache.forSession({ era: 'legacy', serverInfo: modern.serverInfo })).toBeUndefined();
  });

  it('discards the pages of a method when a cursor request fails', async () => {
    const cache = new ResponseCache().forSession(modern);
    const { send, count } = server({ tools: [], ttlMs: 10_000 });
    await cache?.through('tools/list', {}, send);
    const failing = () => Promise.reject(new Error('invalid cursor'));
    await expect(cache?.through('tools/list', { cursor: 'c' }, failing)).rejects.toThrow();
    await cache?.through('tools/list', {}, send);
    expect(count()).toBe(2);
  });
});
