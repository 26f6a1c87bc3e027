/**
 * StreamableHTTPTransport carrying 2026-07-28 requests (MCP spec 2026-07-28, "Transports > Streamable
 * HTTP"), driven directly against the real 2026-era fixture server (test/fixtures/era2026/, built with
 * `@modelcontextprotocol/server`), which records every request: the request metadata headers, exactly;
 * `Mcp-Param-*` built by protocol/mcp-headers.ts and checked by the SDK server's own validator; 4xx JSON-RPC
 * errors as typed `jsonrpc` errors; no session id, GET or DELETE; a broken stream fails at once.
 */
import type { JSONRPCMessage, JSONRPCRequest } from '@modelcontextprotocol/client';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { MCPCallError } from '../../../../src/mcp/protocol/errors.js';
import { mcpParamHeaders, scanMcpHeaderDeclarations } from '../../../../src/mcp/protocol/mcp-headers.js';
import { StreamableHTTPTransport } from '../../../../src/mcp/transports/http/streamable-http.js';
import { type Era2026HttpServer, startEra2026Http } from '../../../fixtures/era2026/http-server.js';
import { SERVER_INFO, TOOL_NAMES } from '../../../fixtures/era2026/server.mjs';
import { type LoopbackServer, listenOnLoopback } from '../../../fixtures/loopback.js';

const CLIENT_INFO = { name: 'modern-test', version: '1.0.0' };

function envelope(version = '2026-07-28') {
  return {
    'io.modelcontextprotocol/protocolVersion': version,
    'io.modelcontextprotocol/clientInfo': CLIENT_INFO,
    'io.modelcontextprotocol/clientCapabilities': {},
  };
}

let nextId = 0;
function request(method: string, params: Record<string, unknown> = {}, version?: string): JSONRPCRequest {
  return { jsonrpc: '2.0', id: ++nextId, method, params: { ...params, _meta: envelope(version) } };
}

let fixture: Era2026HttpServer;
let transport: StreamableHTTPTransport;
let received: JSONRPCMessage[];

beforeAll(async () => {
  fixture = await startEra2026Http({ modernOnly: true });
  transport = new StreamableHTTPTransport({ url: fixture.url, serverName: 'era2026' });
  received = [];
  transport.onmessage = (message) => received.push(message);
  await transport.start();
});

afterAll(async () => {
  await transport.close();
  await fixture.close();
});

/** Sends `message` and returns the response delivered for it (a result or an error response). */
// biome-ignore lint/suspicious/noExplicitAny: a JSON-RPC response read by the tests' own assertions
async function call(message: JSONRPCRequest, headers?: Record<string, string>): Promise<any> {
  await transport.send(message, headers === undefined ? undefined : { headers });
  const answer = received.find((m) => 'id' in m && m.id === message.id && !('method' in m));
  if (answer === undefined) throw new Error(`no response to ${message.id}`);
  return answer;
}

/** The `mcp-*` headers of the request the fixture received with JSON-RPC id `id`. */
function mcpHeadersOf(id: number): Record<string, string> {
  const recorded = fixture.requests.find((r) => r.body !== '' && JSON.parse(r.body).id === id);
  if (recorded === undefined) throw new Error(`request ${id} was not recorded`);
  return Object.fromEntries(
    Object.entries(recorded.headers)
      .filter(([name]) => name.startsWith('mcp-'))
      .map(([name, value]) => [name, String(value)]),
  );
}

async function rejection(promise: Promise<unknown>): Promise<MCPCallError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof MCPCallError) return error;
    throw error;
  }
  throw new Error('expected a rejection');
}

async function regionQueryDeclarations() {
  const list = await call(request('tools/list'));
  const tools = list.result.tools as { name: string; inputSchema: unknown }[];
  const tool = tools.find((t) => t.name === 'region_query');
  const scan = scanMcpHeaderDeclarations(tool?.inputSchema);
  if (!scan.valid) throw new Error(scan.reason);
  return scan.declarations;
}

describe('2026-07-28 request metadata headers (spec "Request Metadata")', () => {
  it('server/discover: MCP-Protocol-Version from the envelope and Mcp-Method, no Mcp-Name', async () => {
    const message = request('server/discover');
    const answer = await call(message);
    expect(answer).toEqual({
      jsonrpc: '2.0',
      id: message.id,
      result: {
        supportedVersions: ['2026-07-28'],
        capabilities: { tools: { listChanged: true } },
        resultType: 'complete',
        ttlMs: 0,
        cacheScope: 'private',
        _meta: { 'io.modelcontextprotocol/serverInfo': SERVER_INFO },
      },
    });
    expect(mcpHeadersOf(Number(message.id))).toEqual({
      'mcp-protocol-version': '2026-07-28',
      'mcp-method': 'server/discover',
    });
  });

  it('tools/list: Mcp-Method tools/list; the listed region_query declares Region and Limit', async () => {
    const declarations = await regionQueryDeclarations();
    expect(declarations).toEqual([
      { path: ['region'], name: 'Region', type: 'string' },
      { path: ['limit'], name: 'Limit', type: 'integer' },
    ]);
    const list = fixture.requests.findLast((r) => r.body.includes('"tools/list"'));
    expect(list?.headers['mcp-protocol-version']).toBe('2026-07-28');
    expect(list?.headers['mcp-method']).toBe('tools/list');
    expect(list?.headers['mcp-name']).toBeUndefined();
  });

  it('tools/call: Mcp-Name, and the Mcp-Param-* headers passed as per-message headers', async () => {
    const declarations = await regionQueryDeclarations();
    const args = { region: 'us-west1', query: 'SELECT 1', limit: 5 };
    const message = request('tools/call', { name: 'region_query', arguments: args });
    const answer = await call(message, mcpParamHeaders(declarations, args));
    expect(answer).toEqual({
      jsonrpc: '2.0',
      id: message.id,
      result: {
        content: [{ type: 'text', text: 'us-west1/5: SELECT 1' }],
        resultType: 'complete',
        _meta: { 'io.modelcontextprotocol/serverInfo': SERVER_INFO },
      },
    });
    expect(mcpHeadersOf(Number(message.id))).toEqual({
      'mcp-protocol-version': '2026-07-28',
      'mcp-method': 'tools/call',
      'mcp-name': 'region_query',
      'mcp-param-region': 'us-west1',
      'mcp-param-limit': '5',
    });
  });

  it('a non-ASCII value and name go Base64-encoded, and the SDK server decodes them to the body values', async () => {
    const declarations = await regionQueryDeclarations();
    const args = { region: 'Zürich ', query: 'q' };
    const message = request('tools/call', { name: 'region_query', arguments: args });
    const answer = await call(message, mcpParamHeaders(declarations, args));
    expect(answer.result).toMatchObject({
      content: [{ type: 'text', text: 'Zürich /all: q' }],
    });
    expect(mcpHeadersOf(Number(message.id))).toEqual({
      'mcp-protocol-version': '2026-07-28',
      'mcp-method': 'tools/call',
      'mcp-name': 'region_query',
      'mcp-param-region': '=?base64?WsO8cmljaCA=?=',
    });

    const unknown = request('tools/call', { name: 'wörld', arguments: {} });
    const refused = await call(unknown);
    // Mcp-Name matched the body once decoded: the server got as far as looking the tool up.
    expect(refused).toEqual({
      jsonrpc: '2.0',
      id: unknown.id,
      error: { code: -32602, message: 'Tool wörld not found' },
    });
    expect(mcpHeadersOf(Number(unknown.id))['mcp-name']).toBe('=?base64?d8O2cmxk?=');
  });

  it('a stray per-message Mcp-Method or Mcp-Name is replaced by the body-derived one', async () => {
    const message = request('tools/list');
    await call(message, { 'Mcp-Method': 'tools/call', 'Mcp-Name': 'x', 'X-Extra': 'kept' });
    const recorded = fixture.requests.find((r) => r.body !== '' && JSON.parse(r.body).id === message.id);
    expect(recorded?.headers['mcp-method']).toBe('tools/list');
    expect(recorded?.headers['mcp-name']).toBeUndefined();
    expect(recorded?.headers['x-extra']).toBe('kept');
  });
});

describe('4xx JSON-RPC errors fail the request as that error (kind jsonrpc)', () => {
  it('-32020 HeaderMismatch when the Mcp-Param-* headers are missing (400)', async () => {
    const message = request('tools/call', { name: 'region_query', arguments: { region: 'eu', query: 'q' } });
    const error = await rejection(transport.send(message));
    expect(error.kind).toBe('jsonrpc');
    expect(error.code).toBe(-32020);
    expect(error.status).toBe(400);
    expect(error.method).toBe('tools/call');
    expect(error.server).toBe('era2026');
    expect(error.data).toEqual({
      mismatch: {
        header: 'Mcp-Param-Region',
        body: 'the body carries region="eu" but the Mcp-Param-Region header is absent',
      },
    });
    expect(error.reason).toBe(
      'server returned JSON-RPC error -32020: Bad Request: the request headers and body disagree: the body carries region="eu" but the Mcp-Param-Region header is absent',
    );
  });

  it('-32022 UnsupportedProtocolVersion naming the supported versions (400)', async () => {
    const message = request('server/discover', {}, '2027-01-01');
    const error = await rejection(transport.send(message));
    expect(error.kind).toBe('jsonrpc');
    expect(error.code).toBe(-32022);
    expect(error.status).toBe(400);
    expect(error.data).toEqual({ supported: ['2026-07-28'], requested: '2027-01-01' });
    expect(JSON.parse(error.body ?? '')).toMatchObject({
      jsonrpc: '2.0',
      id: message.id,
      error: { code: -32022 },
    });
    expect(mcpHeadersOf(Number(message.id))).toEqual({
      'mcp-protocol-version': '2027-01-01',
      'mcp-method': 'server/discover',
    });
  });

  it('-32601 Method not found on 404', async () => {
    const error = await rejection(transport.send(request('nope/nope')));
    expect(error.kind).toBe('jsonrpc');
    expect(error.code).toBe(-32601);
    expect(error.status).toBe(404);
    expect(error.method).toBe('nope/nope');
  });

  it('lists the fixture tools (the transport stays usable after errors)', async () => {
    const list = await call(request('tools/list'));
    const tools = list.result.tools as { name: string }[];
    expect(tools.map((t) => t.name)).toEqual(TOOL_NAMES);
  });
});

describe('no session in 2026 mode', () => {
  it('sends only POSTs, never Mcp-Session-Id, and no DELETE or GET on close()', async () => {
    const own = await startEra2026Http({ modernOnly: true });
    const t = new StreamableHTTPTransport({ url: own.url });
    t.onmessage = () => {};
    try {
      await t.start();
      await t.send(request('server/discover'));
      await t.send(request('tools/list'));
      await t.send(request('tools/call', { name: 'echo', arguments: { text: 'hi' } }));
      await t.close();
      expect(own.requests.map((r) => r.method)).toEqual(['POST', 'POST', 'POST']);
      expect(own.requests.map((r) => r.headers['mcp-session-id'])).toEqual([undefined, undefined, undefined]);
      expect(own.requests.map((r) => r.headers['mcp-method'])).toEqual([
        'server/discover',
        'tools/list',
        'tools/call',
      ]);
      expect(t.sessionId).toBeUndefined();
    } finally {
      await t.close();
      await own.close();
    }
  });
});

describe('a broken response stream (no Last-Event-ID resumption)', () => {
  let server: LoopbackServer | undefined;
  const methods: string[] = [];

  afterEach(async () => {
    await server?.close();
    server = undefined;
    methods.length = 0;
  });

  /** A server whose SSE answer carries an event id and a progress notification, then `end`s the stream. */
  async function brokenStream(end: (socket: { destroy(): void }, done: () => void) => void) {
    server = await listenOnLoopback((req, res) => {
      methods.push(req.method ?? '');
      if (req.method !== 'POST') {
        res.writeHead(405).end();
        return;
      }
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      const progress = {
        jsonrpc: '2.0',
        method: 'notifications/progress',
        params: { progressToken: 1, progress: 1 },
      };
      res.write(`id: ev-1\nevent: message\ndata: ${JSON.stringify(progress)}\n\n`, () =>
        end(req.socket, () => res.end()),
      );
    });
    return server.origin;
  }

  it('a stream that ends before the response fails at once with reissue, no GET', async () => {
    const url = await brokenStream((_socket, done) => done());
    const t = new StreamableHTTPTransport({ url });
    const delivered: JSONRPCMessage[] = [];
    t.onmessage = (m) => delivered.push(m);
    try {
      const error = await rejection(t.send(request('tools/call', { name: 'slow', arguments: { ms: 1 } })));
      expect(error.kind).toBe('transport');
      expect(error.reissue).toBe(true);
      expect(error.reason).toBe('the server ended the response stream before the response');
      expect(error.method).toBe('tools/call');
      expect(delivered).toHaveLength(1);
      expect(methods).toEqual(['POST']);
    } finally {
      await t.close();
    }
  });

  it('a stream whose socket is reset before the response fails at once with reissue, no GET', async () => {
    const url = await brokenStream((socket) => socket.destroy());
    const t = new StreamableHTTPTransport({ url });
    t.onmessage = () => {};
    try {
      const error = await rejection(t.send(request('tools/call', { name: 'slow', arguments: { ms: 1 } })));
      expect(error.kind).toBe('transport');
      expect(error.reissue).toBe(true);
      expect(methods).toEqual(['POST']);
    } finally {
      await t.close();
    }
  });

  it('a 2025-era request on the same stream still resumes with GET and Last-Event-ID', async () => {
    const url = await brokenStream((_socket, done) => done());
    const t = new StreamableHTTPTransport({ url, reconnection: { maxRetries: 1, initialDelayMs: 1 } });
    t.onmessage = () => {};
    try {
      const message: JSONRPCRequest = {
        jsonrpc: '2.0',
        id: 1,
        method: 'tools/call',
        params: { name: 'slow' },
      };
      const error = await rejection(t.send(message));
      expect(error.reissue).toBeUndefined();
      expect(methods).toEqual(['POST', 'GET']);
    } finally {
      await t.close();
    }
  });
});
