/**
 * A -32022 refusal of `server/discover` that lists the very revision the client sent (as the conformance
 * suite's request-metadata scenario does) is retried once with it (MCP spec 2026-07-28, "Basic >
 * Versioning"); a second refusal ends negotiation with the typed error. The refusal is answered by a `fetch`
 * in front of the real 2026-only HTTP fixture, which records what reaches it.
 */
import type { FetchLike } from '@modelcontextprotocol/client';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { MCPClient } from '../../../src/mcp/client/client.js';
import { type Era2026HttpServer, startEra2026Http } from '../../fixtures/era2026/http-server.js';

let server: Era2026HttpServer;
beforeAll(async () => {
  server = await startEra2026Http({ modernOnly: true });
});
afterAll(() => server.close());

const open: MCPClient[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((client) => client.disconnect()));
});

const REFUSAL = { supported: ['2026-07-28'], requested: '2026-07-28' };

/** A fetch that answers the first `refusals` `server/discover` POSTs with 400 -32022, and records them all. */
function refusing(refusals: number) {
  const discovers: { header: string | null; version: unknown }[] = [];
  const fetchLike: FetchLike = async (input, init) => {
    const body = typeof init?.body === 'string' ? (JSON.parse(init.body) as Record<string, unknown>) : {};
    if (body.method === 'server/discover') {
      const meta = (body.params as { _meta?: Record<string, unknown> } | undefined)?._meta;
      const header = new Headers(init?.headers).get('mcp-protocol-version');
      discovers.push({ header, version: meta?.['io.modelcontextprotocol/protocolVersion'] });
      if (discovers.length <= refusals) {
        const error = { code: -32022, message: 'Unsupported protocol version', data: REFUSAL };
        return new Response(JSON.stringify({ jsonrpc: '2.0', id: body.id, error }), {
          status: 400,
          headers: { 'content-type': 'application/json' },
        });
      }
    }
    return fetch(input, init);
  };
  return { discovers, fetch: fetchLike };
}

describe('a -32022 refusal naming the revision sent', () => {
  it('is retried once with that revision, which the server then accepts', async () => {
    server.requests.length = 0;
    const { discovers, fetch } = refusing(1);
    const mcp = MCPClient.fromUrl(server.url, { name: 'http', fetch });
    open.push(mcp);
    await mcp.connect();
    expect(mcp.getProtocolVersion()).toBe('2026-07-28');
    const sent = { header: '2026-07-28', version: '2026-07-28' };
    expect(discovers).toEqual([sent, sent]);
    // Besides the one subscriptions/listen of the connection (the fixture declares tools.listChanged; MCP
    // spec 2026-07-28, "Basic > Patterns > Subscriptions"), sent beside tools/list in no fixed order.
    const methods = server.requests.map((r) => (JSON.parse(r.body) as { method: string }).method);
    expect(methods.filter((method) => method !== 'subscriptions/listen')).toEqual([
      'server/discover',
      'tools/list',
    ]);
    expect(methods.filter((method) => method === 'subscriptions/listen')).toHaveLength(1);
  });

  it('refused again, fails with the typed error naming both lists, after exactly two probes', async () => {
    const { discovers, fetch } = refusing(2);
    const mcp = MCPClient.fromUrl(server.url, { name: 'http', fetch });
    open.push(mcp);
    const error = await mcp.connect().catch((e: unknown) => e);
    expect(error).toMatchObject({
      kind: 'protocol',
      code: -32022,
      method: 'server/discover',
      data: {
        supported: ['2026-07-28'],
        offered: ['2026-07-28', '2025-11-25', '2025-06-18', '2025-03-26', '2024-11-05'],
      },
    });
    expect(discovers).toHaveLength(2);
  });
});
