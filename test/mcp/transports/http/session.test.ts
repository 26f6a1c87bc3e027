/** Issue 3, items 4, 5 and 12: ending sessions, expired sessions, and what HTTP errors carry. */
import { Client } from '@modelcontextprotocol/client';
import { afterEach, describe, expect, it } from 'vitest';
import { MCPCallError } from '../../../../src/mcp/protocol/errors.js';
import { closeAll, connect, rejectionOf } from '../../../fixtures/http-client.js';
import { FIXTURE_SESSION_ID, initializeResult, openSse, respondJson } from '../../../fixtures/http-server.js';

afterEach(closeAll);

describe('closing (item 4)', () => {
  it('sends DELETE with the session id, clears the session, records closeInfo, then calls onclose, once', async () => {
    const { client, transport, fixture } = await connect();
    let closedWith: unknown;
    const onclose = transport.onclose;
    transport.onclose = () => {
      closedWith = transport.closeInfo;
      onclose?.();
    };
    await client.close();
    await transport.close();
    const deletes = fixture.requestsFor('DELETE');
    expect(deletes).toHaveLength(1);
    expect(deletes[0]?.headers['mcp-session-id']).toBe(FIXTURE_SESSION_ID);
    expect(closedWith).toEqual({
      kind: 'not_connected',
      message: 'transport closed by the client',
      server: 'fixture',
    });
    expect(transport.sessionId).toBeUndefined();
  });

  it.each([405, 404, 500])('tolerates DELETE answered with %i', async (status) => {
    const { client, fixture } = await connect((f) =>
      f.onDelete((_req, res) => void res.writeHead(status).end('no')),
    );
    await client.close();
    expect(fixture.requestsFor('DELETE')).toHaveLength(1);
  });

  it('tolerates a DELETE whose connection is reset', async () => {
    const { client, fixture } = await connect((f) => f.onDelete((_req, res) => void res.socket?.destroy()));
    await client.close();
    expect(fixture.requestsFor('DELETE')).toHaveLength(1);
  });

  it('gives up on a DELETE that is never answered after deleteTimeoutMs', async () => {
    const { client } = await connect((f) => f.onDelete(() => {}), { deleteTimeoutMs: 200 });
    const started = Date.now();
    await client.close();
    expect(Date.now() - started).toBeLessThan(3_000);
  });

  it('fails in-flight calls and releases their requests when closed', async () => {
    let released: Promise<void> | undefined;
    const { client, transport } = await connect((f) =>
      f.onMethod('tools/call', (_req, res) => {
        released = new Promise((resolve) => res.on('close', () => resolve()));
        openSse(res);
      }),
    );
    const call = rejectionOf(client.callTool({ name: 'x', arguments: {} }));
    while (released === undefined) await new Promise((r) => setTimeout(r, 5));
    await transport.close();
    expect(await call).toBeInstanceOf(Error);
    await expect(released).resolves.toBeUndefined();
  });

  it('refuses to send once closed', async () => {
    const { transport } = await connect();
    await transport.close();
    const error = await rejectionOf(transport.send({ jsonrpc: '2.0', id: 99, method: 'tools/list' }));
    expect(error).toMatchObject({
      kind: 'not_connected',
      message: 'MCP server "fixture": tools/list failed: the transport is closed',
    });
  });
});

describe('expired sessions (item 5)', () => {
  it('turns a 404 on a session-bearing request into session_expired and clears the session', async () => {
    const { client, transport } = await connect((f) =>
      f.onMethod(
        'tools/call',
        (_req, res) => void res.writeHead(404, { 'content-type': 'text/plain' }).end('Session not found'),
      ),
    );
    const error = await rejectionOf(client.callTool({ name: 'x', arguments: {} }));
    expect(error).toBeInstanceOf(MCPCallError);
    expect(error).toMatchObject({
      kind: 'session_expired',
      status: 404,
      body: 'Session not found',
      method: 'tools/call',
    });
    expect(transport.sessionId).toBeUndefined();
  });

  it('fails later requests with session_expired without sending them, until a new initialize succeeds', async () => {
    let first = true;
    const { client, transport, fixture } = await connect((f) => {
      f.onMethod('tools/call', (_req, res) => void res.writeHead(404).end());
      f.onMethod('initialize', (_req, res, m) =>
        respondJson(res, initializeResult(m), { 'mcp-session-id': first ? FIXTURE_SESSION_ID : 'session-2' }),
      );
    });
    await rejectionOf(client.callTool({ name: 'x', arguments: {} }));
    const callsBefore = fixture.requestsFor('POST', 'tools/list').length;
    expect(await rejectionOf(client.listTools())).toMatchObject({ kind: 'session_expired', status: 404 });
    expect(fixture.requestsFor('POST', 'tools/list')).toHaveLength(callsBefore);
    // What a reconnecting client does: initialize again on the same transport.
    first = false;
    const again = new Client({ name: 't', version: '0' });
    await again.connect(transport);
    expect(transport.sessionId).toBe('session-2');
    expect((await again.listTools()).tools).toEqual([]);
    expect(fixture.requestsFor('POST', 'tools/list').at(-1)?.headers['mcp-session-id']).toBe('session-2');
  });

  it('recognises a 400 whose body says the session is unknown', async () => {
    const body = {
      jsonrpc: '2.0',
      error: { code: -32000, message: 'Bad Request: No valid session ID provided' },
      id: null,
    };
    const { client, transport } = await connect((f) =>
      f.onMethod('tools/call', (_req, res) => respondJson(res, body, {}, 400)),
    );
    const error = await rejectionOf(client.callTool({ name: 'x', arguments: {} }));
    expect(error).toMatchObject({ kind: 'session_expired', status: 400, body: JSON.stringify(body) });
    expect(transport.sessionId).toBeUndefined();
  });

  it('keeps the session on a 400 that says something else', async () => {
    const { client, transport } = await connect((f) =>
      f.onMethod('tools/call', (_req, res) => void res.writeHead(400).end('bad arguments')),
    );
    const error = await rejectionOf(client.callTool({ name: 'x', arguments: {} }));
    expect(error).toMatchObject({ kind: 'http', status: 400, body: 'bad arguments' });
    expect(transport.sessionId).toBe(FIXTURE_SESSION_ID);
  });
});

describe('non-2xx answers (item 12)', () => {
  it('carries the status and the first 512 characters of the body, and never a header value', async () => {
    const long = `oops ${'x'.repeat(5_000)}`;
    const { client } = await connect(
      (f) =>
        f.onMethod(
          'tools/call',
          (_req, res) => void res.writeHead(500, { 'content-type': 'text/plain' }).end(long),
        ),
      { headers: { Authorization: 'Bearer secret-token-123', 'X-Api-Key': 'key-456' } },
    );
    const error = (await rejectionOf(client.callTool({ name: 'x', arguments: {} }))) as MCPCallError;
    expect(error.kind).toBe('http');
    expect(error.status).toBe(500);
    expect(error.body).toBe(long.slice(0, 512));
    expect(error.message).toBe(
      `MCP server "fixture": tools/call failed: the server answered HTTP 500: ${long.slice(0, 512)}`,
    );
    const everything = JSON.stringify({ ...error, message: error.message, stack: error.stack });
    expect(everything).not.toContain('secret-token-123');
    expect(everything).not.toContain('key-456');
  });

  it('sends the static headers on every request', async () => {
    const { client, fixture } = await connect(() => {}, { headers: { 'X-Api-Key': 'key-456' } });
    await client.listTools();
    expect(fixture.requests.map((r) => r.headers['x-api-key'])).toEqual(
      fixture.requests.map(() => 'key-456'),
    );
  });
});
