/**
 * The 2026-07-28 fixture servers (test/fixtures/era2026/) checked with the bare official SDK client, not
 * agentwire: with `versionNegotiation: { mode: 'auto' }` it negotiates 2026-07-28 with each of them (over
 * the SDK's own stdio and Streamable HTTP transports), lists and calls their tools; a 2025-era `initialize`
 * is refused by the modern-only ones with -32022 naming the supported versions (MCP spec 2026-07-28,
 * "Versioning and Compatibility"), and served by the dual-era ones.
 */
import path from 'node:path';
import {
  Client,
  type ClientOptions,
  SdkHttpError,
  StreamableHTTPClientTransport,
  type Transport,
  UnsupportedProtocolVersionError,
} from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Era2026HttpServer, startEra2026Http } from '../../fixtures/era2026/http-server.js';
import { SERVER_INFO, TOOL_NAMES } from '../../fixtures/era2026/server.mjs';
import { ROOT } from '../../helpers.js';

const STDIO_SERVER = path.join(ROOT, 'test/fixtures/era2026/stdio-server.mjs');
const CLIENT_INFO = { name: 'fixtures-test', version: '1.0.0' };
const SERVER_META = { 'io.modelcontextprotocol/serverInfo': SERVER_INFO };

type Kind = 'stdio' | 'http';
type Era = 'modern-only' | 'dual';

const http: Partial<Record<Era, Era2026HttpServer>> = {};

beforeAll(async () => {
  http['modern-only'] = await startEra2026Http({ modernOnly: true });
  http.dual = await startEra2026Http({ modernOnly: false });
});

afterAll(async () => {
  await http['modern-only']?.close();
  await http.dual?.close();
});

function transportTo(kind: Kind, era: Era): Transport {
  if (kind === 'http') return new StreamableHTTPClientTransport(new URL(http[era]!.url));
  const args = era === 'modern-only' ? [STDIO_SERVER, '--modern-only'] : [STDIO_SERVER];
  return new StdioClientTransport({ command: process.execPath, args, stderr: 'ignore' });
}

/** A bare SDK client that declares form elicitation and confirms whatever it is asked. */
function newClient(options: ClientOptions = {}): Client {
  const client = new Client(CLIENT_INFO, { capabilities: { elicitation: { form: {} } }, ...options });
  client.setRequestHandler('elicitation/create', async () => ({
    action: 'accept',
    content: { confirm: true },
  }));
  return client;
}

const FIXTURES: [Kind, Era][] = [
  ['stdio', 'modern-only'],
  ['stdio', 'dual'],
  ['http', 'modern-only'],
  ['http', 'dual'],
];

describe.each(FIXTURES)('%s, %s: the SDK client in auto mode', (kind, era) => {
  it('negotiates 2026-07-28, lists and calls the tools', async () => {
    const client = newClient({ versionNegotiation: { mode: 'auto' } });
    await client.connect(transportTo(kind, era));
    try {
      expect(client.getProtocolEra()).toBe('modern');
      expect(client.getNegotiatedProtocolVersion()).toBe('2026-07-28');
      expect(client.getServerVersion()).toEqual(SERVER_INFO);
      expect(client.getDiscoverResult()).toEqual({
        _meta: SERVER_META,
        resultType: 'complete',
        supportedVersions: ['2026-07-28'],
        capabilities: { tools: { listChanged: true } },
        ttlMs: 0,
        cacheScope: 'private',
      });

      const { tools } = await client.listTools();
      expect(tools.map((tool) => tool.name)).toEqual(TOOL_NAMES);
      expect(tools.find((tool) => tool.name === 'region_query')?.inputSchema).toEqual({
        type: 'object',
        properties: {
          region: { type: 'string', 'x-mcp-header': 'Region' },
          query: { type: 'string' },
          limit: { type: 'integer', 'x-mcp-header': 'Limit' },
        },
        required: ['region', 'query'],
      });

      expect(await client.callTool({ name: 'add', arguments: { a: 2, b: 3 } })).toEqual({
        _meta: SERVER_META,
        content: [{ type: 'text', text: '5' }],
        structuredContent: { sum: 5 },
      });
      expect(await client.callTool({ name: 'echo', arguments: { text: 'hi' } })).toEqual({
        _meta: SERVER_META,
        content: [{ type: 'text', text: 'echo: hi' }],
      });
      expect(await client.callTool({ name: 'fail', arguments: { message: 'it broke' } })).toEqual({
        _meta: SERVER_META,
        content: [{ type: 'text', text: 'it broke' }],
        isError: true,
      });
      expect(await client.callTool({ name: 'slow', arguments: { ms: 10 } })).toEqual({
        _meta: SERVER_META,
        content: [{ type: 'text', text: 'slept 10 ms' }],
      });
      expect(
        await client.callTool({
          name: 'region_query',
          arguments: { region: 'eu-west-1', query: 'q', limit: 5 },
        }),
      ).toEqual({ _meta: SERVER_META, content: [{ type: 'text', text: 'eu-west-1/5: q' }] });
      // An input_required round: the SDK fulfils the elicitation through the handler and retries.
      expect(await client.callTool({ name: 'confirm', arguments: { action: 'deploy' } })).toEqual({
        _meta: SERVER_META,
        content: [{ type: 'text', text: 'confirmed deploy' }],
      });
      // Spaced out: the SDK's own stdio transport loses progress that arrives in one read with the response,
      // and on a loaded machine 20 ms between them was not always enough (a busy client reads both at once).
      const progress: unknown[] = [];
      const done = await client.callTool(
        { name: 'progress', arguments: { steps: 2, delayMs: 250 } },
        { onprogress: (p) => progress.push(p) },
      );
      expect(done).toEqual({ _meta: SERVER_META, content: [{ type: 'text', text: 'done after 2 steps' }] });
      expect(progress).toEqual([
        { progress: 1, total: 2, message: 'step 1' },
        { progress: 2, total: 2, message: 'step 2' },
      ]);
    } finally {
      await client.close();
    }
  });
});

describe('a 2025-era initialize', () => {
  const REFUSAL = { supported: ['2026-07-28'], requested: '2025-11-25' };

  it('is refused by the modern-only stdio server with -32022 naming the supported versions', async () => {
    const client = newClient();
    const refused = await client.connect(transportTo('stdio', 'modern-only')).then(
      () => undefined,
      (error: unknown) => error,
    );
    await client.close();
    expect(refused).toBeInstanceOf(UnsupportedProtocolVersionError);
    const error = refused as UnsupportedProtocolVersionError;
    expect([error.code, error.message, error.data]).toEqual([
      -32022,
      'Unsupported protocol version: 2025-11-25',
      REFUSAL,
    ]);
  });

  it('is refused by the modern-only HTTP server with 400 and -32022 naming the supported versions', async () => {
    const client = newClient();
    const refused = await client.connect(transportTo('http', 'modern-only')).then(
      () => undefined,
      (error: unknown) => error,
    );
    await client.close();
    expect(refused).toBeInstanceOf(SdkHttpError);
    const data = (refused as SdkHttpError).data as { status: number; text: string };
    expect(data.status).toBe(400);
    expect(JSON.parse(data.text)).toEqual({
      jsonrpc: '2.0',
      id: 0,
      error: { code: -32022, message: 'Unsupported protocol version: 2025-11-25', data: REFUSAL },
    });
  });

  it.each(['stdio', 'http'] as const)('is served by the dual-era %s server', async (kind) => {
    const client = newClient();
    await client.connect(transportTo(kind, 'dual'));
    try {
      expect(client.getProtocolEra()).toBe('legacy');
      expect(client.getNegotiatedProtocolVersion()).toBe('2025-11-25');
      expect(client.getServerVersion()).toEqual(SERVER_INFO);
      const { tools } = await client.listTools();
      expect(tools.map((tool) => tool.name)).toEqual(TOOL_NAMES);
      expect(await client.callTool({ name: 'add', arguments: { a: 2, b: 3 } })).toEqual({
        content: [{ type: 'text', text: '5' }],
        structuredContent: { sum: 5 },
      });
    } finally {
      await client.close();
    }
  });
});

describe('the 2026-07-28 HTTP exchange the SDK client made', () => {
  it('mirrors method, name and x-mcp-header parameters into headers; no session, no GET, no DELETE', async () => {
    const server = http['modern-only']!;
    const from = server.requests.length;
    const client = newClient({ versionNegotiation: { mode: 'auto' } });
    await client.connect(transportTo('http', 'modern-only'));
    await client.listTools();
    await client.callTool({ name: 'region_query', arguments: { region: 'eu-west-1', query: 'q', limit: 5 } });
    await client.close();
    const requests = server.requests.slice(from);
    const mcpHeaders = requests.map(({ method, headers }) => [
      method,
      Object.fromEntries(Object.entries(headers).filter(([name]) => name.startsWith('mcp-'))),
    ]);
    expect(mcpHeaders).toEqual([
      ['POST', { 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'server/discover' }],
      ['POST', { 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'tools/list' }],
      [
        'POST',
        {
          'mcp-protocol-version': '2026-07-28',
          'mcp-method': 'tools/call',
          'mcp-name': 'region_query',
          'mcp-param-region': 'eu-west-1',
          'mcp-param-limit': '5',
        },
      ],
    ]);
  });
});
