/**
 * The happy path against the real server-everything: Streamable HTTP (`streamableHttp` mode) and, for issue 3
 * item 11, the 2024-11-05 HTTP+SSE transport (`sse` mode).
 */
import { Client } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LegacySSETransport } from '../../../../src/mcp/transports/http/legacy-sse.js';
import { StreamableHTTPTransport } from '../../../../src/mcp/transports/http/streamable-http.js';
import { type EverythingServer, startEverything } from '../../../fixtures/http-everything.js';

describe('server-everything over Streamable HTTP', () => {
  let server: EverythingServer;
  beforeAll(async () => {
    server = await startEverything('streamableHttp');
  });
  afterAll(async () => {
    await server?.stop();
  });

  it('initializes, lists tools, calls echo with progress-capable streaming, and ends the session with DELETE', async () => {
    const transport = new StreamableHTTPTransport({ url: server.url, serverName: 'everything' });
    const client = new Client({ name: 't', version: '0' });
    await client.connect(transport);
    expect(transport.sessionId).toMatch(/^[0-9a-f-]{36}$/);
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name)).toContain('echo');
    const result = await client.callTool({ name: 'echo', arguments: { message: 'hi' } });
    expect(result.content).toEqual([{ type: 'text', text: 'Echo: hi' }]);
    const session = transport.sessionId!;
    await client.close();
    expect(transport.sessionId).toBeUndefined();
    expect(transport.closeInfo).toEqual({
      kind: 'not_connected',
      message: 'transport closed by the client',
      server: 'everything',
    });
    // The session is gone on the server: it now answers that id with 400 "No valid session ID".
    const after = await fetch(server.url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'mcp-session-id': session,
      },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    });
    expect(after.status).toBe(400);
    await after.body?.cancel();
  });

  it('reports an unknown session, answered with 400, as session_expired and clears it', async () => {
    const transport = new StreamableHTTPTransport({ url: server.url, serverName: 'everything' });
    const client = new Client({ name: 't', version: '0' });
    await client.connect(transport);
    const session = transport.sessionId!;
    const kill = await fetch(server.url, { method: 'DELETE', headers: { 'mcp-session-id': session } });
    await kill.body?.cancel();
    const error = await client.listTools().catch((e: unknown) => e);
    expect(error).toMatchObject({
      name: 'MCPCallError',
      kind: 'session_expired',
      status: 400,
      method: 'tools/list',
    });
    expect(transport.sessionId).toBeUndefined();
    await client.close();
  });
});

describe('server-everything over HTTP+SSE (2024-11-05)', () => {
  let server: EverythingServer;
  beforeAll(async () => {
    server = await startEverything('sse');
  });
  afterAll(async () => {
    await server?.stop();
  });

  it('initializes on the endpoint event, lists tools and calls echo', async () => {
    const transport = new LegacySSETransport({ url: server.url, serverName: 'everything-sse' });
    const client = new Client({ name: 't', version: '0' });
    await client.connect(transport);
    const result = await client.callTool({ name: 'echo', arguments: { message: 'old' } });
    expect(result.content).toEqual([{ type: 'text', text: 'Echo: old' }]);
    await client.close();
    expect(transport.closeInfo?.kind).toBe('not_connected');
  });
});
