/** Issue 3, item 11: the 2024-11-05 HTTP+SSE transport, and which errors mean "fall back to it". */
import type { ServerResponse } from 'node:http';
import { Client } from '@modelcontextprotocol/client';
import { afterEach, describe, expect, it } from 'vitest';
import { MCPCallError } from '../../../../src/mcp/protocol/errors.js';
import { isLegacyFallbackError, LegacySSETransport } from '../../../../src/mcp/transports/http/legacy-sse.js';
import { StreamableHTTPTransport } from '../../../../src/mcp/transports/http/streamable-http.js';
import {
  HttpFixture,
  initializeResult,
  type JsonRpcLike,
  openSse,
  textResult,
} from '../../../fixtures/http-server.js';
import { listenOnLoopback } from '../../../fixtures/loopback.js';
import { waitUntil } from '../../../helpers.js';

const fixtures: { close(): Promise<void> }[] = [];
const clients: Client[] = [];
afterEach(async () => {
  for (const client of clients.splice(0)) await client.close().catch(() => {});
  for (const fixture of fixtures.splice(0)) await fixture.close();
});

/**
 * A server whose GET never answers (`stall`) or sends SSE headers and a comment but no `endpoint` event
 * (`silent`); `openGets()` counts the GETs whose connection is still open.
 */
async function stallingGet(mode: 'stall' | 'silent') {
  let open = 0;
  const server = await listenOnLoopback((req, res) => {
    req.resume();
    if (req.method !== 'GET') return void res.writeHead(404).end();
    open += 1;
    res.on('close', () => {
      open -= 1;
    });
    if (mode === 'silent') {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write(': no endpoint here\n\n');
    }
  });
  fixtures.push(server);
  return { url: `${server.origin}/sse`, openGets: () => open };
}

async function fixture(): Promise<HttpFixture> {
  const f = await HttpFixture.start();
  fixtures.push(f);
  return f;
}

/** Scripts `f` as a 2024-11-05 server: GET opens the stream, POSTs answer 202 and reply on the stream. */
function legacyServer(f: HttpFixture, endpoint: string): { stream: () => ServerResponse | undefined } {
  let stream: ServerResponse | undefined;
  f.onGet((_req, res) => {
    stream = res;
    openSse(res);
    res.write(`event: endpoint\ndata: ${endpoint}\n\n`);
  });
  const reply = (message: JsonRpcLike, result: unknown) =>
    stream?.write(`event: message\ndata: ${JSON.stringify({ jsonrpc: '2.0', id: message.id, result })}\n\n`);
  f.onMethod('initialize', (_req, res, m) => {
    res.writeHead(202).end('Accepted');
    reply(m, initializeResult(m).result);
  });
  f.onMethod('tools/call', (_req, res, m) => {
    res.writeHead(202).end('Accepted');
    reply(m, textResult('legacy ok'));
  });
  return { stream: () => stream };
}

describe('LegacySSETransport', () => {
  it('waits for the endpoint event, POSTs there, and reads answers from the SSE stream', async () => {
    const f = await fixture();
    legacyServer(f, '/messages?sessionId=abc');
    const client = new Client({ name: 't', version: '0' });
    clients.push(client);
    await client.connect(new LegacySSETransport({ url: f.url, headers: { 'X-Api-Key': 'k' } }));
    const result = await client.callTool({ name: 'x', arguments: {} });
    expect(result.content).toEqual([{ type: 'text', text: 'legacy ok' }]);
    const posts = f.requestsFor('POST');
    expect(posts.map((r) => r.url)).toEqual(posts.map(() => '/messages?sessionId=abc'));
    expect(f.requests.map((r) => r.headers['x-api-key'])).toEqual(f.requests.map(() => 'k'));
    expect(f.requestsFor('GET')[0]?.headers.accept).toBe('text/event-stream');
  });

  it('refuses an endpoint on another origin', async () => {
    const f = await fixture();
    legacyServer(f, 'http://evil.example/steal');
    const error = await new LegacySSETransport({ url: f.url, serverName: 'old' })
      .start()
      .catch((e: unknown) => e);
    expect(error).toMatchObject({
      kind: 'protocol',
      message: 'MCP server "old": GET SSE stream failed: the endpoint event names another origin',
    });
  });

  it('fails pending calls and records closeInfo when the server ends the stream', async () => {
    const f = await fixture();
    const server = legacyServer(f, '/messages');
    f.onMethod('tools/call', (_req, res) => {
      res.writeHead(202).end();
      server.stream()?.end();
    });
    const transport = new LegacySSETransport({ url: f.url, serverName: 'old' });
    const client = new Client({ name: 't', version: '0' });
    clients.push(client);
    await client.connect(transport);
    const error = await client.callTool({ name: 'x', arguments: {} }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(Error);
    expect(transport.closeInfo).toEqual({
      kind: 'connection_closed',
      message: 'the server ended the SSE stream',
      server: 'old',
    });
  });

  it('fails start() with kind http and the status when the GET is refused', async () => {
    const f = await fixture();
    f.onGet((_req, res) => void res.writeHead(404).end('Not Found'));
    const error = await new LegacySSETransport({ url: f.url, serverName: 'old' })
      .start()
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ kind: 'http', status: 404, body: 'Not Found' });
  });
});

describe('LegacySSETransport.start() on a server that does not name its endpoint', () => {
  it.each(['stall', 'silent'] as const)(
    'ends a pending start() at once when closed (GET %s): kind connection_closed, GET aborted',
    async (mode) => {
      const server = await stallingGet(mode);
      const transport = new LegacySSETransport({ url: server.url, serverName: 'old' });
      const starting = transport.start().catch((e: unknown) => e);
      await waitUntil(() => server.openGets() === 1, 5000, 'the GET to arrive');
      const started = Date.now();
      await transport.close();
      const error = await starting;
      expect(Date.now() - started).toBeLessThan(1000);
      expect(error).toBeInstanceOf(MCPCallError);
      expect(error).toMatchObject({ kind: 'connection_closed', server: 'old' });
      expect(transport.closeInfo).toEqual({
        kind: 'not_connected',
        message: 'transport closed by the client',
        server: 'old',
      });
      await waitUntil(() => server.openGets() === 0, 5000, 'the GET to be closed');
    },
  );

  it('bounds the wait for the GET response with endpointTimeoutMs: kind timeout', async () => {
    const server = await stallingGet('stall');
    const transport = new LegacySSETransport({ url: server.url, serverName: 'old', endpointTimeoutMs: 300 });
    const error = await transport.start().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(MCPCallError);
    expect(error).toMatchObject({
      kind: 'timeout',
      server: 'old',
      method: 'GET SSE stream',
      timeoutMs: 300,
      message: 'MCP server "old": GET SSE stream failed: no response to the SSE GET within 300 ms',
    });
    await waitUntil(() => server.openGets() === 0, 5000, 'the GET to be closed');
    await transport.close();
  });

  it('bounds the wait for the endpoint event with the same endpointTimeoutMs', async () => {
    const server = await stallingGet('silent');
    const transport = new LegacySSETransport({ url: server.url, serverName: 'old', endpointTimeoutMs: 300 });
    const error = await transport.start().catch((e: unknown) => e);
    expect(error).toMatchObject({
      kind: 'timeout',
      method: 'GET SSE stream',
      timeoutMs: 300,
      message: 'MCP server "old": GET SSE stream failed: no endpoint event on the SSE stream within 300 ms',
    });
    await waitUntil(() => server.openGets() === 0, 5000, 'the GET to be closed');
    await transport.close();
  });
});

describe('isLegacyFallbackError', () => {
  it.each([400, 404, 405])(
    'is true when a Streamable HTTP initialize is answered with %i',
    async (status) => {
      const f = await fixture();
      f.onMethod('initialize', (_req, res) => void res.writeHead(status).end('Cannot POST /mcp'));
      const error = await new Client({ name: 't', version: '0' })
        .connect(new StreamableHTTPTransport({ url: f.url }))
        .catch((e: unknown) => e);
      expect(error).toMatchObject({ kind: 'http', status, method: 'initialize' });
      expect(isLegacyFallbackError(error)).toBe(true);
      expect(isLegacyFallbackError(new Error('wrapped', { cause: error }))).toBe(true);
    },
  );

  it.each([401, 403, 500])('is false for %i', (status) => {
    expect(isLegacyFallbackError(new MCPCallError('http', 'x', { status }))).toBe(false);
  });

  it('is false for network errors, timeouts and non-MCP errors', () => {
    expect(isLegacyFallbackError(new MCPCallError('transport', 'refused'))).toBe(false);
    expect(isLegacyFallbackError(new MCPCallError('timeout', 'slow', { timeoutMs: 1 }))).toBe(false);
    expect(isLegacyFallbackError(new Error('x'))).toBe(false);
    expect(isLegacyFallbackError(undefined)).toBe(false);
  });

  it('lets a client fall back: a server that refuses POST initialize with 405 works over HTTP+SSE', async () => {
    const f = await fixture();
    const server = legacyServer(f, '/messages');
    f.onMethod('initialize', (req, res, m) => {
      if (req.url.startsWith('/mcp')) return void res.writeHead(405).end();
      res.writeHead(202).end('Accepted');
      server
        .stream()
        ?.write(
          `event: message\ndata: ${JSON.stringify({ jsonrpc: '2.0', id: m.id, result: initializeResult(m).result })}\n\n`,
        );
    });
    const refused = await new Client({ name: 't', version: '0' })
      .connect(new StreamableHTTPTransport({ url: f.url }))
      .catch((e: unknown) => e);
    expect(isLegacyFallbackError(refused)).toBe(true);
    const client = new Client({ name: 't', version: '0' });
    clients.push(client);
    await client.connect(new LegacySSETransport({ url: f.url }));
    expect((await client.callTool({ name: 'x', arguments: {} })).content).toEqual([
      { type: 'text', text: 'legacy ok' },
    ]);
  });
});

describe('LegacySSETransport maxMessageBytes', () => {
  it('ends the connection at an SSE event over the bound: closeInfo and the pending call say kind protocol', async () => {
    const f = await fixture();
    const { stream } = legacyServer(f, '/messages');
    f.onMethod('tools/call', (_req, res) => {
      res.writeHead(202).end('Accepted');
      stream()?.write(`event: message\ndata: ${'x'.repeat(4096)}\n`); // never ends: no blank line
    });
    const transport = new LegacySSETransport({ url: f.url, serverName: 'legacy', maxMessageBytes: 1024 });
    const client = new Client({ name: 't', version: '0' });
    clients.push(client);
    await client.connect(transport);
    await expect(client.callTool({ name: 'x', arguments: {} })).rejects.toThrow();
    expect(transport.closeInfo).toMatchObject({
      kind: 'protocol',
      message: 'an SSE event is over maxMessageBytes (1024 bytes)',
    });
  });
});
