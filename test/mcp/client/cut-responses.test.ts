/**
 * A response cut mid-way fails that call alone: the server is alive, the session kept, and with
 * reconnection on no other call is aborted, none is retried, and the client does not reconnect. The
 * connection is declared lost only when a transport says so (here: the server stops listening).
 */
import type { ServerResponse } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { MCPClient } from '../../../src/mcp/client/client.js';
import { MCPCallError } from '../../../src/mcp/protocol/errors.js';
import {
  delay,
  HttpFixture,
  initializeResult,
  openSse,
  respondJson,
  textResult,
} from '../../fixtures/http-server.js';

const open: { client: MCPClient; fixture: HttpFixture }[] = [];
afterEach(async () => {
  for (const { client, fixture } of open.splice(0)) {
    await client.disconnect();
    await fixture.close();
  }
});

/** Sends the start of a JSON answer promising more, then cuts the connection. */
async function cutJson(res: ServerResponse, id: unknown): Promise<void> {
  res.writeHead(200, { 'content-type': 'application/json', 'content-length': '4096' });
  res.write(`{"jsonrpc":"2.0","id":${JSON.stringify(id)},"result":{"content":[`);
  await delay(10);
  res.socket?.destroy();
}

/** Opens an SSE answer, sends half an event, then cuts the connection. */
async function cutSse(res: ServerResponse, id: unknown): Promise<void> {
  openSse(res);
  res.write(`data: {"jsonrpc":"2.0","id":${JSON.stringify(id)},"result":{`);
  await delay(10);
  res.socket?.destroy();
}

describe('responses cut mid-way, reconnection on', () => {
  it('cost exactly the cut calls: no other call fails, none is retried, no reconnect', async () => {
    const M = 40;
    const fixture = await HttpFixture.start();
    fixture.onMethod('tools/call', async (_req, res, message) => {
      const i = (message.params?.arguments as { i?: number } | undefined)?.i ?? 1;
      await delay(20); // every call in flight at once
      if (i % 10 === 0) return cutJson(res, message.id);
      if (i % 10 === 5) return cutSse(res, message.id);
      respondJson(res, { jsonrpc: '2.0', id: message.id, result: textResult(`ok ${i}`) });
    });
    const client = MCPClient.fromUrl(fixture.url, {
      name: 'cut',
      transport: 'streamable-http',
      reconnect: { enabled: true, initialDelayMs: 10, maxDelayMs: 20, maxRetries: 3 },
    });
    open.push({ client, fixture });
    const events: string[] = [];
    for (const name of ['disconnected', 'reconnecting', 'reconnected'] as const)
      client.on(name, () => events.push(name));
    await client.connect();
    const outcomes = await Promise.allSettled(
      Array.from({ length: M }, (_, i) => client.callTool('echo', { i }, { timeoutMs: 20_000 })),
    );
    const failed = outcomes.flatMap((outcome, i) => (outcome.status === 'rejected' ? [i] : []));
    const kinds = outcomes.flatMap((outcome) =>
      outcome.status === 'rejected' ? [(outcome.reason as MCPCallError).kind] : [],
    );
    expect(failed).toEqual([0, 5, 10, 15, 20, 25, 30, 35]);
    expect(kinds).toEqual(Array.from({ length: 8 }, () => 'transport'));
    expect(outcomes.filter((outcome) => outcome.status === 'fulfilled')).toHaveLength(M - 8);
    expect(outcomes[1]).toEqual({
      status: 'fulfilled',
      value: { content: [{ type: 'text', text: 'ok 1' }] },
    });
    expect(fixture.requestsFor('POST', 'tools/call')).toHaveLength(M);
    expect(fixture.requestsFor('POST', 'initialize')).toHaveLength(1);
    expect(events).toEqual([]);
    expect(client.getState()).toBe('connected');
  });

  it('a server that stops listening is a lost connection: the pending call waits for the reconnection', async () => {
    const fixture = await HttpFixture.start();
    const client = MCPClient.fromUrl(fixture.url, {
      name: 'gone',
      transport: 'streamable-http',
      reconnect: { enabled: true, initialDelayMs: 10, maxDelayMs: 20, maxRetries: 2 },
    });
    open.push({ client, fixture });
    const events: string[] = [];
    for (const name of ['disconnected', 'reconnecting'] as const) client.on(name, () => events.push(name));
    client.on('error', () => events.push('error'));
    await client.connect();
    await fixture.close();
    const error = (await client.callTool('echo', {}, { timeoutMs: 20_000 }).catch((e) => e)) as MCPCallError;
    expect(error).toBeInstanceOf(MCPCallError);
    // The call waited for the reconnection, which gave up: it fails with the last attempt's error.
    expect(error).toMatchObject({
      kind: 'transport',
      message: expect.stringMatching(/^MCP server "gone": tools\/call "echo" failed: connect ECONNREFUSED /),
    });
    expect(events).toEqual(['disconnected', 'reconnecting', 'reconnecting', 'error']);
    expect(client.getState()).toBe('failed');
  });

  it('a call caught by the teardown of a lost session fails as connection_closed, and is retried like one', async () => {
    const fixture = await HttpFixture.start();
    let sessions = 0;
    fixture.onMethod('initialize', (_req, res, message) => {
      sessions++;
      respondJson(res, initializeResult(message), { 'mcp-session-id': `s${sessions}` });
    });
    fixture.onMethod('tools/call', async (req, res, message) => {
      const name = message.params?.name;
      if (req.headers['mcp-session-id'] === 's1' && name === 'expire') {
        await delay(50); // once `slow` is in flight
        res.writeHead(404).end();
        return;
      }
      if (req.headers['mcp-session-id'] === 's1') return; // held open, never answered
      respondJson(res, { jsonrpc: '2.0', id: message.id, result: textResult(`${name} on s${sessions}`) });
    });
    const client = MCPClient.fromUrl(fixture.url, {
      name: 'teardown',
      transport: 'streamable-http',
      reconnect: { enabled: true, initialDelayMs: 10, maxDelayMs: 20, maxRetries: 3 },
    });
    open.push({ client, fixture });
    await client.connect();
    const once = client.callTool('slow', {}, { timeoutMs: 20_000, retryOnReconnect: false }).catch((e) => e);
    const retried = client.callTool('slow', {}, { timeoutMs: 20_000 });
    const expired = client.callTool('expire', {}, { timeoutMs: 20_000 });
    expect(await once).toMatchObject({ name: 'MCPCallError', kind: 'connection_closed' });
    expect(await retried).toEqual({ content: [{ type: 'text', text: 'slow on s2' }] });
    expect(await expired).toEqual({ content: [{ type: 'text', text: 'expire on s2' }] });
    expect(sessions).toBe(2);
  });
});
