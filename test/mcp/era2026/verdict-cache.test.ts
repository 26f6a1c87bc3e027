/**
 * The era verdict kept per HTTP origin (session/era-verdict.ts; MCP spec 2026-07-28, "Basic > Versioning >
 * Backward Compatibility"), through `MCPClient` with every request counted: a reconnect to server-everything
 * (2025) sends no second probe; one to the 2026-only fixture sends nothing while the `server/discover`
 * result is fresh; when the origin's server changes era, the refused connect drops the verdict and probes
 * again, once.
 */

import type { FetchLike } from '@modelcontextprotocol/client';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { MCPClient, type MCPClientOptions } from '../../../src/mcp/client/client.js';
import { type Era2026HttpServer, startEra2026Http } from '../../fixtures/era2026/http-server.js';
import { type EverythingServer, startEverything } from '../../fixtures/http-everything.js';

const open: MCPClient[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((client) => client.disconnect()));
});

function client(url: string, options: MCPClientOptions & { fetch?: FetchLike } = {}): MCPClient {
  const created = MCPClient.fromUrl(url, { name: 'verdict', ...options });
  open.push(created);
  return created;
}

/** The JSON-RPC method of a request body, `undefined` for none. */
function rpcMethod(body: unknown): string | undefined {
  return typeof body === 'string' ? (JSON.parse(body) as { method?: string }).method : undefined;
}

/**
 * `sent` without its `subscriptions/listen` requests, and how many there were: each 2026-07-28 connection
 * opens one, as the fixture declares `tools.listChanged` (MCP spec 2026-07-28, "Basic > Patterns >
 * Subscriptions"). It goes out beside the first `tools/list`, so their order at the server is not fixed.
 */
function split(sent: (string | undefined)[]): { requests: (string | undefined)[]; listens: number } {
  const requests = sent.filter((method) => method !== 'subscriptions/listen');
  return { requests, listens: sent.length - requests.length };
}

/**
 * A `fetch` that records the JSON-RPC method of every POST, and sends each request to `target()`'s origin
 * and path: the client's origin stays the same while the server behind it changes.
 */
function routing(target: () => string): { fetch: FetchLike; posts: string[] } {
  const posts: string[] = [];
  const route: FetchLike = (url, init) => {
    if (init?.method === 'POST') posts.push(rpcMethod(init.body) ?? '');
    const to = new URL(target());
    const from = new URL(String(url));
    return fetch(new URL(from.search, to), init);
  };
  return { fetch: route, posts };
}

describe('the era verdict per HTTP origin', () => {
  let everything: EverythingServer;
  let modern: Era2026HttpServer;
  let fresh: Era2026HttpServer;
  beforeAll(async () => {
    [everything, modern, fresh] = await Promise.all([
      startEverything('streamableHttp'),
      startEra2026Http({ modernOnly: true }),
      startEra2026Http({ modernOnly: true, cacheHints: { 'server/discover': { ttlMs: 60_000 } } }),
    ]);
  });
  afterAll(() => Promise.all([everything.stop(), modern.close(), fresh.close()]));

  it('sends initialize at once when a 2025 server is connected to again: no second probe', async () => {
    const { fetch: recorder, posts } = routing(() => everything.url);
    const mcp = client(everything.url, { fetch: recorder });
    await mcp.connect();
    await mcp.disconnect();
    await mcp.connect();
    expect(mcp.getProtocolVersion()).toBe('2025-11-25');
    expect(posts).toEqual([
      'server/discover',
      'initialize',
      'notifications/initialized',
      'tools/list',
      'initialize',
      'notifications/initialized',
      'tools/list',
    ]);
  });

  it('probes a 2026 server again when its server/discover result is stale (ttlMs 0)', async () => {
    modern.requests.length = 0;
    const mcp = client(modern.url);
    await mcp.connect();
    await mcp.disconnect();
    await mcp.connect();
    expect(split(modern.requests.map((r) => rpcMethod(r.body)))).toEqual({
      requests: ['server/discover', 'tools/list', 'server/discover', 'tools/list'],
      listens: 2,
    });
  });

  it('adopts a fresh server/discover result at reconnect: no probe', async () => {
    fresh.requests.length = 0;
    const mcp = client(fresh.url);
    await mcp.connect();
    await mcp.disconnect();
    await mcp.connect();
    expect(mcp.getProtocolVersion()).toBe('2026-07-28');
    expect(mcp.getServerInfo()?.name).toBe('era2026-fixture');
    expect((await mcp.callTool('add', { a: 1, b: 2 })).structuredContent).toEqual({ sum: 3 });
    expect(split(fresh.requests.map((r) => rpcMethod(r.body)))).toEqual({
      requests: ['server/discover', 'tools/list', 'tools/list', 'tools/call'],
      listens: 2,
    });
  });

  it('probes again, once, when a 2025 verdict meets a 2026-only server at the same origin', async () => {
    let target = everything.url;
    const { fetch: router, posts } = routing(() => target);
    const mcp = client(everything.url, { fetch: router });
    await mcp.connect();
    await mcp.disconnect();
    posts.length = 0;
    target = modern.url;
    await mcp.connect();
    expect(mcp.getProtocolVersion()).toBe('2026-07-28');
    // Recorded as sent, so in order: the listen goes out before the first tools/list.
    expect(posts).toEqual(['initialize', 'server/discover', 'subscriptions/listen', 'tools/list']);
  });

  it('probes again, once, when a fresh 2026 verdict meets a 2025 server at the same origin', async () => {
    let target = fresh.url;
    const { fetch: router, posts } = routing(() => target);
    const mcp = client(fresh.url, { fetch: router });
    await mcp.connect();
    await mcp.disconnect();
    posts.length = 0;
    target = everything.url;
    await mcp.connect();
    expect(mcp.getProtocolVersion()).toBe('2025-11-25');
    // The fresh verdict is adopted: the connection starts as a 2026-07-28 one (listen and tools/list, both
    // refused by the 2025 server), then probes once and speaks 2025 (no listen).
    expect(posts).toEqual([
      'subscriptions/listen',
      'tools/list',
      'server/discover',
      'initialize',
      'notifications/initialized',
      'tools/list',
    ]);
  });
});
