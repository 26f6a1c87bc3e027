/**
 * Tenants: one client serving many tenants' runs, each request carrying its own credentials. The `headers`
 * option as a function and a bare token supplier (`authProvider`) are asked with the request's context
 * before every HTTP request, the connect's and discovery's included, and once more after a `401`; a call's
 * own `headers` and `_meta` go on its request alone. The server is the scriptable HTTP fixture, which
 * records every request's headers, and for the 2024-11-05 HTTP+SSE transport the official 2025 SDK's
 * `SSEServerTransport` behind a token check.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { SSEServerTransport } from '@modelcontextprotocol/sdk/server/sse.js';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { MCPRequestContext } from '../../../src/index.js';
import { MCPCallError, MCPClient } from '../../../src/index.js';
import {
  delay,
  HttpFixture,
  initializeResult,
  type JsonRpcLike,
  type RecordedRequest,
  respondJson,
  textResult,
} from '../../fixtures/http-server.js';
import { listenOnLoopback } from '../../fixtures/loopback.js';

const ECHO = { name: 'echo', inputSchema: { type: 'object', properties: { who: { type: 'string' } } } };

let fixture: HttpFixture;
const open: MCPClient[] = [];
const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((client) => client.disconnect()));
  await fixture?.close();
  for (const close of closers.splice(0)) await close();
});

/** A fixture listing `echo`, whose calls answer with their arguments and `_meta`; tenant a's calls are slow. */
async function echoServer(): Promise<HttpFixture> {
  fixture = await HttpFixture.start();
  fixture.onMethod('tools/list', (_req, res, message) =>
    respondJson(res, { jsonrpc: '2.0', id: message.id, result: { tools: [ECHO] } }),
  );
  fixture.onMethod('tools/call', async (_req, res, message) => {
    const params = message.params ?? {};
    const args = (params.arguments ?? {}) as Record<string, unknown>;
    // Tenant a's call is answered after tenant b's has been sent and answered: the runs interleave.
    if (args.who === 'a') await fixture.waitForRequest((r) => whoOf(r) === 'b');
    if (args.who === 'a') await delay(20);
    const seen = { arguments: args, _meta: params._meta ?? null };
    respondJson(res, { jsonrpc: '2.0', id: message.id, result: textResult(JSON.stringify(seen)) });
  });
  return fixture;
}

function whoOf(request: RecordedRequest): unknown {
  const params = (request.json as JsonRpcLike | undefined)?.params;
  return (params?.arguments as Record<string, unknown> | undefined)?.who;
}

/** Each POST as `[JSON-RPC method, who (tools/call), Authorization]`, in arrival order. */
function posts(server: HttpFixture): [string | undefined, unknown, string | undefined][] {
  return server
    .requestsFor('POST')
    .map((r) => [(r.json as JsonRpcLike).method, whoOf(r), r.headers.authorization]);
}

const tokenOf = (context: MCPRequestContext) => `Bearer ${context.run?.tenant ?? 'service'}-token`;

describe('tenants', () => {
  it("carries each tenant's token on its own requests, the connect and discovery included, with interleaved runs", async () => {
    const server = await echoServer();
    const asked: string[] = [];
    const client = MCPClient.fromUrl(server.url, {
      name: 'tenants',
      transport: 'streamable-http',
      protocolVersion: '2025-11-25',
      headers: (context) => {
        asked.push(`${context.method}:${context.run?.tenant ?? '-'}:${context.toolName ?? '-'}`);
        return { authorization: tokenOf(context) };
      },
    });
    open.push(client);
    await client.connect({ context: { tenant: 'a' } });
    const a = client.callTool('echo', { who: 'a' }, { context: { tenant: 'a' } });
    await server.waitForRequest((r) => whoOf(r) === 'a');
    const [b, refreshed] = await Promise.all([
      client.callTool('echo', { who: 'b' }, { context: { tenant: 'b' } }),
      client.refreshTools({ context: { tenant: 'b' } }),
    ]);
    expect((await a).content).toEqual([{ type: 'text', text: '{"arguments":{"who":"a"},"_meta":null}' }]);
    expect(b.content).toEqual([{ type: 'text', text: '{"arguments":{"who":"b"},"_meta":null}' }]);
    expect(refreshed.map((tool) => tool.name)).toEqual(['echo']);
    const seen = posts(server);
    expect(seen.slice(0, 3)).toEqual([
      ['initialize', undefined, 'Bearer a-token'],
      ['notifications/initialized', undefined, 'Bearer a-token'],
      ['tools/list', undefined, 'Bearer a-token'],
    ]);
    // The rest arrive in an order the two runs decide; each carries its own tenant's token.
    expect(seen.slice(3).sort()).toEqual(
      [
        ['tools/call', 'a', 'Bearer a-token'],
        ['tools/call', 'b', 'Bearer b-token'],
        ['tools/list', undefined, 'Bearer b-token'],
      ].sort(),
    );
    // The GET stream opened after the handshake, concurrently with discovery, is the connect's too.
    expect(server.requestsFor('GET').map((r) => r.headers.authorization)).toEqual(['Bearer a-token']);
    const posted = asked.filter((entry) => !entry.startsWith('GET:'));
    expect(asked.filter((entry) => entry.startsWith('GET:'))).toEqual(['GET:a:-']);
    expect(posted.slice(0, 3)).toEqual(['initialize:a:-', 'notifications/initialized:a:-', 'tools/list:a:-']);
    expect(posted.slice(3).sort()).toEqual(['tools/call:a:echo', 'tools/call:b:echo', 'tools/list:b:-']);
  });

  it('asks a bare token supplier per request with its context, and again once after a 401', async () => {
    const server = await echoServer();
    const asked: [string, string | undefined, number][] = [];
    const issued = new Map<string, number>();
    const client = MCPClient.fromUrl(server.url, {
      name: 'supplied',
      transport: 'streamable-http',
      protocolVersion: '2025-11-25',
      authProvider: {
        tokens: (context: MCPRequestContext) => {
          const tenant = context.run?.tenant ?? 'service';
          asked.push([context.method, context.run?.tenant, context.attempt]);
          const n = (issued.get(tenant) ?? 0) + (context.attempt === 2 ? 1 : 0);
          issued.set(tenant, n);
          return { access_token: `${tenant}-${n}` };
        },
      },
    });
    open.push(client);
    await client.connect();
    // Tenant c's first token is refused once: the supplier is asked again (attempt 2) and the call goes through.
    server.onMethod('tools/call', (req, res, message) => {
      if (req.headers.authorization === 'Bearer c-0') return respondJson(res, { error: 'expired' }, {}, 401);
      respondJson(res, { jsonrpc: '2.0', id: message.id, result: textResult('ok') });
    });
    const result = await client.callTool('echo', { who: 'c' }, { context: { tenant: 'c' } });
    expect(result.content).toEqual([{ type: 'text', text: 'ok' }]);
    expect(asked.filter(([method]) => method === 'GET')).toEqual([['GET', undefined, 1]]);
    expect(asked.filter(([method]) => method !== 'GET')).toEqual([
      ['initialize', undefined, 1],
      ['notifications/initialized', undefined, 1],
      ['tools/list', undefined, 1],
      ['tools/call', 'c', 1],
      ['tools/call', 'c', 2],
    ]);
    expect(posts(server)).toEqual([
      ['initialize', undefined, 'Bearer service-0'],
      ['notifications/initialized', undefined, 'Bearer service-0'],
      ['tools/list', undefined, 'Bearer service-0'],
      ['tools/call', 'c', 'Bearer c-0'],
      ['tools/call', 'c', 'Bearer c-1'],
    ]);
  });

  it('gives a headers function the tool name of a plain call, with no hooks and no call context', async () => {
    const server = await echoServer();
    const asked: [string, string | undefined][] = [];
    const client = MCPClient.fromUrl(server.url, {
      name: 'named',
      transport: 'streamable-http',
      protocolVersion: '2025-11-25',
      headers: (context: MCPRequestContext) => {
        asked.push([context.method, context.toolName]);
        return { 'x-tool': context.toolName ?? '-' };
      },
    });
    open.push(client);
    await client.connect();
    asked.length = 0;
    await client.callTool('echo', { who: 'plain' });
    expect(asked).toEqual([['tools/call', 'echo']]);
    const call = server.requestsFor('POST').find((r) => (r.json as JsonRpcLike).method === 'tools/call');
    expect(call?.headers['x-tool']).toBe('echo');
  });

  it("carries a request's context to the headers of logging, subscriptions and tasks requests too", async () => {
    fixture = await HttpFixture.start();
    fixture.onMethod('initialize', (_req, res, message) => {
      const answer = initializeResult(message);
      (answer.result as { capabilities: unknown }).capabilities = {
        tools: {},
        logging: {},
        resources: { subscribe: true },
        tasks: { list: {}, cancel: {}, requests: { tools: { call: {} } } },
      };
      respondJson(res, answer, { 'mcp-session-id': 'tenants' });
    });
    fixture.onMethod('tasks/list', (_req, res, message) =>
      respondJson(res, { jsonrpc: '2.0', id: message.id, result: { tasks: [] } }),
    );
    const client = MCPClient.fromUrl(fixture.url, {
      name: 'features',
      transport: 'streamable-http',
      protocolVersion: '2025-11-25',
      headers: (context: MCPRequestContext) => ({ authorization: tokenOf(context) }),
    });
    open.push(client);
    await client.connect();
    const context = { tenant: 'acme' };
    await client.setLoggingLevel('info', { context });
    await client.subscribeResource('file:///a', { context });
    await client.unsubscribeResource('file:///a', { context });
    expect(await client.listTasks({ context })).toEqual([]);
    const sent = fixture
      .requestsFor('POST')
      .map((r) => [(r.json as JsonRpcLike).method, r.headers.authorization])
      .filter(([method]) => method !== 'initialize' && method !== 'notifications/initialized');
    expect(sent.filter(([method]) => method !== 'tools/list')).toEqual([
      ['logging/setLevel', 'Bearer acme-token'],
      ['resources/subscribe', 'Bearer acme-token'],
      ['resources/unsubscribe', 'Bearer acme-token'],
      ['tasks/list', 'Bearer acme-token'],
    ]);
  });

  it("forgets a connect's tenant when the client is connected again without one: its reconnects carry none", async () => {
    const server = await echoServer();
    let forget = false;
    server.onMethod('ping', (_req, res, message) => {
      if (forget) {
        forget = false;
        return respondJson(
          res,
          { jsonrpc: '2.0', id: message.id, error: { code: -32001, message: 'gone' } },
          {},
          404,
        );
      }
      respondJson(res, { jsonrpc: '2.0', id: message.id, result: {} });
    });
    const client = MCPClient.fromUrl(server.url, {
      name: 'reconnected',
      transport: 'streamable-http',
      protocolVersion: '2025-11-25',
      reconnect: { enabled: true, initialDelayMs: 10, maxDelayMs: 20, maxRetries: 3 },
      headers: (context: MCPRequestContext) => ({ authorization: tokenOf(context) }),
    });
    open.push(client);
    await client.connect({ context: { tenant: 'a' } });
    await client.disconnect();
    await client.connect();
    // The session is forgotten: the client opens another one, for the last connect's context (none).
    forget = true;
    await client.ping();
    const initializes = server
      .requestsFor('POST')
      .filter((r) => (r.json as JsonRpcLike).method === 'initialize')
      .map((r) => r.headers.authorization);
    expect(initializes).toEqual(['Bearer a-token', 'Bearer service-token', 'Bearer service-token']);
  });

  it('fails the call with kind http, status 401, after a second 401, the token redacted', async () => {
    const server = await echoServer();
    const client = MCPClient.fromUrl(server.url, {
      name: 'refused',
      transport: 'streamable-http',
      protocolVersion: '2025-11-25',
      authProvider: { tokens: () => ({ access_token: 'static-secret-token' }) },
    });
    open.push(client);
    await client.connect();
    server.onMethod('tools/call', (req, res) =>
      respondJson(res, { error: `bad token ${req.headers.authorization}` }, {}, 401),
    );
    const error = await client.callTool('echo', { who: 'd' }).catch((failure: unknown) => failure);
    expect(error).toBeInstanceOf(MCPCallError);
    const failure = error as MCPCallError;
    expect([failure.kind, failure.status, failure.method]).toEqual(['http', 401, 'tools/call']);
    expect(failure.body).toBe('{"error":"bad token [redacted]"}');
    expect(JSON.stringify(failure)).not.toContain('static-secret-token');
    expect(server.requestsFor('POST', 'tools/call')).toHaveLength(2);
  });

  it("sends a call's own headers and _meta on its request alone, over the client's headers", async () => {
    const server = await echoServer();
    const client = MCPClient.fromUrl(server.url, {
      name: 'per-call',
      transport: 'streamable-http',
      protocolVersion: '2025-11-25',
      headers: { 'x-team': 'client-wide' },
      callOptions: { _meta: { 'com.example/default': 1 } },
    });
    open.push(client);
    await client.connect();
    const result = await client.callTool(
      'echo',
      { who: 'e' },
      { headers: { 'x-team': 'per-call', 'x-request': 'r1' }, _meta: { 'com.example/trace': 't1' } },
    );
    await client.callTool('echo', { who: 'f' });
    expect(result.content).toEqual([
      { type: 'text', text: '{"arguments":{"who":"e"},"_meta":{"com.example/trace":"t1"}}' },
    ]);
    const calls = server.requestsFor('POST', 'tools/call');
    expect(calls.map((r) => [whoOf(r), r.headers['x-team'], r.headers['x-request']])).toEqual([
      ['e', 'per-call', 'r1'],
      ['f', 'client-wide', undefined],
    ]);
    expect(calls.map((r) => (r.json as JsonRpcLike).params?._meta)).toEqual([
      { 'com.example/trace': 't1' },
      { 'com.example/default': 1 },
    ]);
  });

  it('asks a headers function again once after a 401 over the 2024-11-05 HTTP+SSE transport, the GET and a POST', async () => {
    const server = await legacySseServer(['Bearer service-0', 'Bearer c-0']);
    const asked: [string, string | undefined, number][] = [];
    const issued = new Map<string, number>();
    const client = MCPClient.fromUrl(server.url, {
      name: 'legacy',
      transport: 'sse',
      headers: (context: MCPRequestContext) => {
        const tenant = context.run?.tenant ?? 'service';
        asked.push([context.method, context.run?.tenant, context.attempt]);
        const n = (issued.get(tenant) ?? 0) + (context.attempt === 2 ? 1 : 0);
        issued.set(tenant, n);
        return { authorization: `Bearer ${tenant}-${n}` };
      },
    });
    open.push(client);
    await client.connect();
    const result = await client.callTool('echo', { who: 'c' }, { context: { tenant: 'c' } });
    expect(result.content).toEqual([{ type: 'text', text: 'echo c' }]);
    expect(asked).toEqual([
      ['GET', undefined, 1],
      ['GET', undefined, 2],
      ['initialize', undefined, 1],
      ['notifications/initialized', undefined, 1],
      ['tools/list', undefined, 1],
      ['tools/call', 'c', 1],
      ['tools/call', 'c', 2],
    ]);
    expect(server.seen).toEqual([
      ['GET', 'Bearer service-0', 401],
      ['GET', 'Bearer service-1', 200],
      ['POST initialize', 'Bearer service-1', 202],
      ['POST notifications/initialized', 'Bearer service-1', 202],
      ['POST tools/list', 'Bearer service-1', 202],
      ['POST tools/call', 'Bearer c-0', 401],
      ['POST tools/call', 'Bearer c-1', 202],
    ]);
  });
});

/**
 * A 2024-11-05 HTTP+SSE server (the 2025 SDK's `McpServer` on its `SSEServerTransport`: GET `/sse`, POST
 * `/messages`) with one tool, `echo`, that answers `401` to a request carrying one of the `refused`
 * Authorization values; `seen` is each request as `[method (POST: and JSON-RPC method), Authorization,
 * status]`.
 */
async function legacySseServer(refused: string[]) {
  const seen: [string, string | undefined, number][] = [];
  const mcp = new McpServer({ name: 'legacy-sse', version: '1.0.0' });
  mcp.registerTool('echo', { inputSchema: { who: z.string() } }, async ({ who }) => ({
    content: [{ type: 'text' as const, text: `echo ${who}` }],
  }));
  let transport: SSEServerTransport | undefined;
  const serve = async (req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const body = chunks.length === 0 ? undefined : JSON.parse(Buffer.concat(chunks).toString('utf8'));
    const what = req.method === 'POST' ? `POST ${(body as JsonRpcLike).method}` : String(req.method);
    const authorization = req.headers.authorization;
    const status = authorization !== undefined && refused.includes(authorization) ? 401 : 200;
    seen.push([what, authorization, req.method === 'POST' && status === 200 ? 202 : status]);
    if (status === 401) return void res.writeHead(401).end();
    if (req.method === 'GET') {
      transport = new SSEServerTransport('/messages', res);
      return mcp.connect(transport);
    }
    await transport?.handlePostMessage(req, res, body);
  };
  const loopback = await listenOnLoopback((req, res) => void serve(req, res));
  closers.push(async () => {
    await mcp.close();
    await loopback.close();
  });
  return { url: `${loopback.origin}/sse`, seen };
}
