/**
 * Losing the Streamable HTTP GET stream (MCP spec 2025-11-25, "Transports > Streamable HTTP > Listening for
 * Messages from the Server": optional, and separate from the POSTs), or the 2026-07-28 `subscriptions/listen`
 * stream ("Basic > Patterns > Subscriptions"), costs no call: calls in flight are answered on their own POST
 * responses, the client stays connected, and the stream is opened again.
 */
import type { ServerResponse } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { MCPClient } from '../../../src/mcp/client/client.js';
import { startEra2026Http } from '../../fixtures/era2026/http-server.js';
import { HttpFixture, openSse, respondJson, sseFrame, textResult } from '../../fixtures/http-server.js';
import { waitUntil } from '../../helpers.js';

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

const CALLS = 5;

describe('a Streamable HTTP GET stream cut while calls are in flight (2025-11-25)', () => {
  it('completes every call, stays connected and opens the stream again', async () => {
    const fixture = await HttpFixture.start();
    cleanups.push(() => fixture.close());
    const streams: ServerResponse[] = [];
    fixture.onGet((_req, res) => {
      openSse(res);
      streams.push(res);
    });
    const held: (() => void)[] = [];
    fixture.onMethod('tools/call', (_req, res, message) => {
      const result = { jsonrpc: '2.0', id: message.id, result: textResult('ok') };
      // Odd calls are answered on an SSE stream opened before the cut, even ones with JSON after it.
      if (held.length % 2 === 1) {
        openSse(res);
        held.push(() => res.end(sseFrame(result)));
      } else held.push(() => respondJson(res, result));
    });
    const client = MCPClient.fromUrl(fixture.url, {
      name: 'cut-get',
      transport: 'streamable-http',
      protocolVersion: '2025-11-25',
    });
    cleanups.push(() => client.disconnect());
    const events: string[] = [];
    client.on('disconnected', () => events.push('disconnected'));
    client.on('error', () => events.push('error'));
    await client.connect();
    await fixture.waitForRequest((r) => r.method === 'GET');
    const calls = Array.from({ length: CALLS }, (_, i) => client.callTool('anything', { i }));
    await expect.poll(() => held.length).toBe(CALLS);
    // The server drops the GET stream's connection, as a proxy's idle timeout does.
    streams[0]?.socket?.destroy();
    await expect.poll(() => fixture.requestsFor('GET').length, { timeout: 5_000 }).toBe(2);
    for (const answer of held) answer();
    const results = await Promise.all(calls);
    expect(results.map((r) => r.content.length)).toEqual([1, 1, 1, 1, 1]);
    expect(client.getState()).toBe('connected');
    expect(events.filter((e) => e === 'disconnected')).toEqual([]);
  });
});

describe('a 2026-07-28 subscriptions/listen stream dropped while calls are in flight', () => {
  it('completes every call, stays connected and re-opens the listen', async () => {
    const server = await startEra2026Http({ modernOnly: true, changes: true });
    cleanups.push(() => server.close());
    const client = MCPClient.fromUrl(server.url, { name: 'cut-listen' });
    cleanups.push(() => client.disconnect());
    const events: string[] = [];
    client.on('disconnected', () => events.push('disconnected'));
    await client.connect();
    expect(client.getProtocolVersion()).toBe('2026-07-28');
    await waitUntil(() => server.openListenStreams === 1, 5_000, 'the listen stream');
    const calls = Array.from({ length: CALLS }, () => client.callTool('slow', { ms: 400 }));
    expect(server.dropListenStreams()).toBe(1);
    const results = await Promise.all(calls);
    expect(results.map((r) => r.isError === true)).toEqual([false, false, false, false, false]);
    await waitUntil(() => server.openListenStreams === 1, 5_000, 'the re-opened listen stream');
    expect(client.getState()).toBe('connected');
    expect(events).toEqual([]);
  });
});
