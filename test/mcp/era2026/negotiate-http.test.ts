/**
 * Negotiation over Streamable HTTP through `MCPClient` (session/negotiate.ts with the `'http'` probe):
 * against the real 2026-only and dual-era fixtures (test/fixtures/era2026/http-server.ts, which records every
 * request) it speaks 2026-07-28 after one `server/discover` POST, with no session, GET or DELETE; against
 * server-everything (2025) the probe's 400 leads to `initialize`, one extra round trip; a 2025 pin sends no
 * probe.
 */

import type { FetchLike } from '@modelcontextprotocol/client';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { MCPClient, type MCPClientOptions } from '../../../src/mcp/client/client.js';
import { MCPCallError } from '../../../src/mcp/protocol/errors.js';
import { type Era2026HttpServer, startEra2026Http } from '../../fixtures/era2026/http-server.js';
import { SERVER_INFO } from '../../fixtures/era2026/server.mjs';
import { type EverythingServer, startEverything } from '../../fixtures/http-everything.js';

const open: MCPClient[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((client) => client.disconnect()));
});

function client(url: string, options: MCPClientOptions & { fetch?: FetchLike } = {}): MCPClient {
  const created = MCPClient.fromUrl(url, { name: 'http', ...options });
  open.push(created);
  return created;
}

/** `[HTTP method, JSON-RPC method]` of each recorded request. */
function sequence(requests: { method: string; body: string }[]): [string, string | undefined][] {
  return requests.map((r) => [
    r.method,
    r.body === '' ? undefined : (JSON.parse(r.body) as { method?: string }).method,
  ]);
}

describe.each([
  ['2026-only', true],
  ['dual-era', false],
])('the %s HTTP fixture', (_label, modernOnly) => {
  let server: Era2026HttpServer;
  beforeAll(async () => {
    server = await startEra2026Http({ modernOnly });
  });
  afterAll(() => server.close());

  it('is spoken to in 2026-07-28 after one server/discover: no initialize, session, GET or DELETE', async () => {
    server.requests.length = 0;
    const mcp = client(server.url);
    await mcp.connect();
    expect(mcp.getProtocolVersion()).toBe('2026-07-28');
    expect(mcp.getServerInfo()).toEqual({ name: SERVER_INFO.name, version: SERVER_INFO.version });
    expect(mcp.sessionId).toBeUndefined();
    expect(mcp.getTools().map((tool) => tool.name)).toContain('add');
    const result = await mcp.callTool('add', { a: 2, b: 3 });
    expect(result.structuredContent).toEqual({ sum: 5 });
    await mcp.disconnect();
    // The fixture declares tools.listChanged: one subscriptions/listen for it (session/listen.ts), sent
    // beside the first tools/list (two POSTs in flight at once, so either may arrive first).
    const [first, ...rest] = sequence(server.requests);
    expect(first).toEqual(['POST', 'server/discover']);
    expect(rest.slice(0, 2).sort()).toEqual([
      ['POST', 'subscriptions/listen'],
      ['POST', 'tools/list'],
    ]);
    expect(rest.slice(2)).toEqual([['POST', 'tools/call']]);
    expect(server.requests.map((r) => r.headers['mcp-session-id'])).toEqual([
      undefined,
      undefined,
      undefined,
      undefined,
    ]);
    const probe = server.requests[0];
    expect([probe?.headers['mcp-protocol-version'], probe?.headers['mcp-method']]).toEqual([
      '2026-07-28',
      'server/discover',
    ]);
  });
});

describe('MCPClient over Streamable HTTP with server-everything (2025)', () => {
  let everything: EverythingServer;
  beforeAll(async () => {
    everything = await startEverything('streamableHttp');
  });
  afterAll(() => everything.stop());

  /** A `fetch` that records `[HTTP method, JSON-RPC method, status]` of each request. */
  function recording(): { fetch: FetchLike; seen: [string, string | undefined, number][] } {
    const seen: [string, string | undefined, number][] = [];
    const recorder: FetchLike = async (url, init) => {
      const body = typeof init?.body === 'string' ? init.body : undefined;
      const method = body === undefined ? undefined : (JSON.parse(body) as { method?: string }).method;
      const entry: [string, string | undefined, number] = [init?.method ?? 'GET', method, 0];
      seen.push(entry);
      const response = await fetch(url, init);
      entry[2] = response.status;
      return response;
    };
    return { fetch: recorder, seen };
  }

  it("speaks 2025-11-25 after the probe's 400: discover, initialize, initialized, then its GET", async () => {
    const { fetch: recorder, seen } = recording();
    const mcp = client(everything.url, { fetch: recorder });
    await mcp.connect();
    expect(mcp.getProtocolVersion()).toBe('2025-11-25');
    expect(mcp.getServerInfo()?.name).toBe('mcp-servers/everything');
    expect(mcp.sessionId).toEqual(expect.any(String));
    const firstFour = () => seen.slice(0, 4).map(([http, rpc]) => [http, rpc]);
    await expect.poll(firstFour).toEqual([
      ['POST', 'server/discover'],
      ['POST', 'initialize'],
      ['POST', 'notifications/initialized'],
      ['GET', undefined],
    ]);
    expect(seen[0]?.[2]).toBe(400);
  });

  it('sends no server/discover when pinned to 2025-11-25', async () => {
    const { fetch: recorder, seen } = recording();
    const mcp = client(everything.url, { fetch: recorder, protocolVersion: '2025-11-25' });
    await mcp.connect();
    expect(mcp.getProtocolVersion()).toBe('2025-11-25');
    expect(seen.slice(0, 2).map(([http, rpc]) => [http, rpc])).toEqual([
      ['POST', 'initialize'],
      ['POST', 'notifications/initialized'],
    ]);
    expect(seen.map(([, rpc]) => rpc)).not.toContain('server/discover');
  });
});

describe('a 2025 pin against the 2026-only HTTP fixture', () => {
  let server: Era2026HttpServer;
  beforeAll(async () => {
    server = await startEra2026Http({ modernOnly: true });
  });
  afterAll(() => server.close());

  it('fails connect() with kind protocol, code -32022 and both lists, as over stdio', async () => {
    const mcp = client(server.url, { protocolVersion: '2025-11-25' });
    const error = await mcp.connect().then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(MCPCallError);
    expect(error).toMatchObject({
      kind: 'protocol',
      code: -32022,
      method: 'initialize',
      data: { supported: ['2026-07-28'], offered: ['2025-11-25'] },
    });
    expect(mcp.getState()).toBe('failed');
  });
});
