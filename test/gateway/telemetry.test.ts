/**
 * OpenTelemetry through the gateway (MCP semantic conventions, "Spans > Server" and "Context propagation"):
 * an in-process `MCPGateway` in front of server-everything (stdio) and the 2026-07-28-only fixture (HTTP),
 * with an in-memory exporter. Every request the gateway serves gets a SERVER span, child of the context in
 * the request's `_meta`, parent of the gateway's CLIENT span to the upstream, whose `traceparent` is what
 * the upstream receives. Called by agentwire's client (its CLIENT span the root) and by the bare SDK client
 * sending a `traceparent` of its own, over HTTP and stdio, in both eras.
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import { Client, type JSONRPCMessage, type Transport } from '@modelcontextprotocol/client';
import { context, propagation, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import {
  InMemorySpanExporter,
  type ReadableSpan,
  SimpleSpanProcessor,
  TracerProvider,
} from '@opentelemetry/sdk-trace';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { setTraceApiLoader } from '../../src/core/otel-api.js';
import { MCPGateway, readGatewaySettings } from '../../src/gateway/index.js';
import { loadServerConfig, MCPClient } from '../../src/mcp/index.js';
import { type Era2026HttpServer, startEra2026Http } from '../fixtures/era2026/http-server.js';
import { EVERYTHING, tempDir } from '../helpers.js';
import { sdkHttpClient, TOKEN } from './fleet.js';

const SERVER = 1;
const CLIENT = 2;
/** The caller's context, as a client outside the gateway sends it in `_meta`. */
const CALLER_TRACE = '0af7651916cd43dd8448eb211c80319c';
const CALLER_SPAN = 'b7ad6b7169203331';
const CALLER_META = { traceparent: `00-${CALLER_TRACE}-${CALLER_SPAN}-01`, tracestate: 'congo=t61rcWkgMzE' };

const memory = new InMemorySpanExporter();
const manager = new AsyncLocalStorageContextManager();
let provider: TracerProvider;
let modern: Era2026HttpServer;
let gateway: MCPGateway;
let url: string;
let removeDir: () => void;

beforeAll(async () => {
  manager.enable();
  context.setGlobalContextManager(manager);
  provider = new TracerProvider({ spanProcessors: [new SimpleSpanProcessor({ exporter: memory })] });
  trace.setGlobalTracerProvider(provider);
  propagation.setGlobalPropagator(new W3CTraceContextPropagator());
  modern = await startEra2026Http({ modernOnly: true, changes: true });
  const { dir, remove } = tempDir('agentwire-gateway-otel-');
  removeDir = remove;
  const file = path.join(dir, 'servers.json');
  writeFileSync(
    file,
    JSON.stringify({
      gateway: { bearerTokenEnv: 'GATEWAY_TOKEN' },
      mcpServers: {
        everything: { command: process.execPath, args: [EVERYTHING], allowTools: ['echo'] },
        modern: { url: modern.url, allowTools: ['echo', 'fail'] },
      },
    }),
  );
  gateway = MCPGateway.fromConfig(await loadServerConfig(file), readGatewaySettings(file));
  const started = await gateway.start();
  expect(started.map((one) => [one.name, one.ok])).toEqual([
    ['everything', true],
    ['modern', true],
  ]);
  url = (await gateway.listen({ bearerToken: TOKEN })).url;
}, 60_000);

afterAll(async () => {
  await gateway?.close();
  await modern?.close();
  removeDir?.();
  await provider?.shutdown();
  trace.disable();
  propagation.disable();
  context.disable();
});

beforeEach(() => memory.reset());
afterEach(() => setTraceApiLoader(undefined));

const finished = () => memory.getFinishedSpans();
const spanId = (span: ReadableSpan | undefined) => span?.spanContext().spanId;
const traceId = (span: ReadableSpan | undefined) => span?.spanContext().traceId;

/** The finished spans of one trace as a tree of `name (KIND)`, children by start time. */
function tree(root: ReadableSpan): unknown {
  const inTrace = finished().filter((span) => traceId(span) === traceId(root));
  const label = (span: ReadableSpan) => `${span.name} (${span.kind === SERVER ? 'SERVER' : 'CLIENT'})`;
  const node = (span: ReadableSpan): unknown => {
    const children = inTrace
      .filter((child) => child.parentSpanContext?.spanId === spanId(span))
      .sort((a, b) => a.startTime[0] - b.startTime[0] || a.startTime[1] - b.startTime[1]);
    return children.length === 0 ? label(span) : { [label(span)]: children.map(node) };
  };
  return node(root);
}

/** The one finished span named `name` of `kind`. */
function only(name: string, kind: number): ReadableSpan {
  const spans = finished().filter((span) => span.name === name && span.kind === kind);
  expect(spans).toHaveLength(1);
  return spans[0] as ReadableSpan;
}

/** The `_meta` of the last `tools/call` the HTTP upstream received. */
function upstreamMeta(): Record<string, unknown> | undefined {
  const calls = modern.requests
    .map((request) => JSON.parse(request.body || '{}') as { method?: string; params?: { _meta?: object } })
    .filter((message) => message.method === 'tools/call');
  return calls.at(-1)?.params?._meta as Record<string, unknown> | undefined;
}

/** A line-delimited JSON-RPC transport over the two streams of an in-process stdio host. */
function streamTransport(toServer: PassThrough, fromServer: PassThrough): Transport {
  let buffered = '';
  const transport: Transport = {
    start: async () => {
      fromServer.setEncoding('utf8');
      fromServer.on('data', (chunk: string) => {
        buffered += chunk;
        for (let end = buffered.indexOf('\n'); end >= 0; end = buffered.indexOf('\n')) {
          const line = buffered.slice(0, end);
          buffered = buffered.slice(end + 1);
          if (line.trim()) transport.onmessage?.(JSON.parse(line) as JSONRPCMessage);
        }
      });
    },
    send: async (message) => {
      toServer.write(`${JSON.stringify(message)}\n`);
    },
    close: async () => {
      toServer.end();
      transport.onclose?.();
    },
  };
  return transport;
}

/** The attributes of the gateway's server span of a `tools/call` of `tool`. */
const toolServerAttributes = (tool: string, version: string, transport: 'tcp' | 'pipe', id: string) => ({
  'mcp.method.name': 'tools/call',
  'gen_ai.operation.name': 'execute_tool',
  'gen_ai.tool.name': tool,
  'mcp.protocol.version': version,
  'jsonrpc.request.id': id,
  'network.transport': transport,
  ...(transport === 'tcp' && { 'network.protocol.name': 'http' }),
});

describe("agentwire's client through the gateway over Streamable HTTP (2026-07-28)", () => {
  let client: MCPClient;
  beforeAll(async () => {
    client = MCPClient.fromUrl(url, { name: 'gateway', headers: { authorization: `Bearer ${TOKEN}` } });
    await client.connect();
  });
  afterAll(async () => {
    await client?.disconnect();
  });

  it('client span → gateway server span → gateway client span → the HTTP upstream, one trace', async () => {
    const result = await client.callTool('modern__echo', { text: 'traced' });
    expect(result.content).toEqual([{ type: 'text', text: 'echo: traced' }]);
    const caller = only('tools/call modern__echo', CLIENT);
    const served = only('tools/call modern__echo', SERVER);
    const upstream = only('tools/call echo', CLIENT);
    expect(tree(caller)).toEqual({
      'tools/call modern__echo (CLIENT)': [
        { 'tools/call modern__echo (SERVER)': ['tools/call echo (CLIENT)'] },
      ],
    });
    expect(caller.parentSpanContext).toBeUndefined();
    expect(new Set([caller, served, upstream].map(traceId)).size).toBe(1);
    const id = caller.attributes['jsonrpc.request.id'] as string;
    // agentwire's own tools/call path numbers its requests `aw-<n>`.
    expect(id).toMatch(/^aw-\d+$/);
    expect(served.attributes).toEqual(toolServerAttributes('modern__echo', '2026-07-28', 'tcp', id));
    expect(served.status).toEqual({ code: 0 });
    expect(served.links).toEqual([]);
    expect(upstream.attributes).toEqual({
      'mcp.method.name': 'tools/call',
      'gen_ai.operation.name': 'execute_tool',
      'gen_ai.tool.name': 'echo',
      'mcp.protocol.version': '2026-07-28',
      'jsonrpc.request.id': expect.stringMatching(/^aw-\d+$/),
      'network.transport': 'tcp',
      'server.address': '127.0.0.1',
      'server.port': Number(new URL(modern.url).port),
    });
    // The upstream got the gateway's client span as its parent, not the caller's span.
    expect(upstreamMeta()?.traceparent).toBe(`00-${traceId(caller)}-${spanId(upstream)}-01`);
  });

  it('a stdio upstream: the same chain, its client span over the pipe', async () => {
    await client.callTool('everything__echo', { message: 'traced' });
    const caller = only('tools/call everything__echo', CLIENT);
    expect(tree(caller)).toEqual({
      'tools/call everything__echo (CLIENT)': [
        { 'tools/call everything__echo (SERVER)': ['tools/call echo (CLIENT)'] },
      ],
    });
    const upstream = only('tools/call echo', CLIENT);
    expect(upstream.attributes).toEqual({
      'mcp.method.name': 'tools/call',
      'gen_ai.operation.name': 'execute_tool',
      'gen_ai.tool.name': 'echo',
      'mcp.protocol.version': '2025-11-25',
      'jsonrpc.request.id': expect.stringMatching(/^aw-\d+$/),
      'network.transport': 'pipe',
    });
  });

  it('an isError result marks the server span tool_error; an unknown tool its JSON-RPC code', async () => {
    await client.callTool('modern__fail', { message: 'broken' });
    const failed = only('tools/call modern__fail', SERVER);
    expect(failed.attributes['error.type']).toBe('tool_error');
    expect(failed.attributes['rpc.response.status_code']).toBeUndefined();
    expect(failed.status).toEqual({ code: 2 });
    expect(only('tools/call fail', CLIENT).attributes['error.type']).toBe('tool_error');

    await expect(client.callTool('nope', {})).rejects.toThrow();
    const unknown = only('tools/call nope', SERVER);
    expect(unknown.attributes).toEqual({
      ...toolServerAttributes(
        'nope',
        '2026-07-28',
        'tcp',
        unknown.attributes['jsonrpc.request.id'] as string,
      ),
      'error.type': '-32602',
      'rpc.response.status_code': '-32602',
    });
    expect(unknown.status).toEqual({ code: 2, message: 'Tool nope not found' });
    // Nothing went upstream.
    expect(finished().filter((span) => span.name === 'tools/call nope')).toHaveLength(2);
  });
});

/** The bare SDK client over stdio to an in-process stdio host of the gateway. */
async function sdkStdioClient(mode: 'auto' | 'legacy') {
  const stdin = new PassThrough();
  const stdout = new PassThrough();
  const host = gateway.serveStdio({ stdin, stdout });
  const client = new Client({ name: 'gateway-test', version: '1.0.0' }, { versionNegotiation: { mode } });
  await client.connect(streamTransport(stdin, stdout));
  return {
    client,
    close: async () => {
      await client.close();
      await host.close();
    },
  };
}

describe.each([
  ['HTTP', 'auto', '2026-07-28'],
  ['HTTP', 'legacy', '2025-11-25'],
  ['stdio', 'auto', '2026-07-28'],
  ['stdio', 'legacy', '2025-11-25'],
] as const)(
  'the bare SDK client over %s, %s negotiation, sending its own traceparent',
  (via, mode, version) => {
    let client: Client;
    let close: () => Promise<void>;
    beforeAll(async () => {
      if (via === 'HTTP') {
        client = await sdkHttpClient(url, mode);
        close = () => client.close();
      } else {
        ({ client, close } = await sdkStdioClient(mode));
      }
    });
    afterAll(async () => {
      await close?.();
    });
    const transport = via === 'HTTP' ? 'tcp' : 'pipe';

    it(`speaks ${version}; its _meta context parents the server span, whose child the upstream gets`, async () => {
      expect(client.getNegotiatedProtocolVersion()).toBe(version);
      const result = await client.callTool({
        name: 'modern__echo',
        arguments: { text: 'hi' },
        _meta: CALLER_META,
      });
      expect(result.content).toEqual([{ type: 'text', text: 'echo: hi' }]);
      const served = only('tools/call modern__echo', SERVER);
      const upstream = only('tools/call echo', CLIENT);
      expect(served.parentSpanContext).toEqual({
        traceId: CALLER_TRACE,
        spanId: CALLER_SPAN,
        traceFlags: 1,
        isRemote: true,
        traceState: expect.anything(),
      });
      expect(served.parentSpanContext?.traceState?.serialize()).toBe(CALLER_META.tracestate);
      expect(traceId(served)).toBe(CALLER_TRACE);
      expect(upstream.parentSpanContext?.spanId).toBe(spanId(served));
      expect(traceId(upstream)).toBe(CALLER_TRACE);
      expect(served.attributes).toEqual(
        toolServerAttributes(
          'modern__echo',
          version,
          transport,
          served.attributes['jsonrpc.request.id'] as string,
        ),
      );
      expect(served.attributes['jsonrpc.request.id']).toMatch(/^\d+$/);
      // The caller's traceparent is replaced by the gateway's client span's; its tracestate carried on.
      expect(upstreamMeta()).toMatchObject({
        traceparent: `00-${CALLER_TRACE}-${spanId(upstream)}-01`,
        tracestate: CALLER_META.tracestate,
      });
    });

    it('lists, reads, prompts and completions get their server spans, named after the conventions', async () => {
      await client.listTools({ _meta: CALLER_META });
      await client.listPrompts();
      await client.getPrompt({ name: 'modern__greet' });
      await client.listResources();
      await client.listResourceTemplates();
      await client.readResource({ uri: 'fixture://a' });
      // The fixture declares no completions: the gateway's client does not send the request (kind
      // `unsupported`), and the client gets the gateway's -32603 naming the upstream, and the span.
      await expect(
        client.complete({
          ref: { type: 'ref/prompt', name: 'modern__greet' },
          argument: { name: 'who', value: '' },
        }),
      ).rejects.toMatchObject({ code: -32603, data: { server: 'modern', kind: 'unsupported' } });
      const servers = finished().filter((span) => span.kind === SERVER);
      const shown = servers.map((span) => {
        const { 'jsonrpc.request.id': id, ...rest } = span.attributes;
        expect(id).toMatch(/^\d+$/);
        return [span.name, rest];
      });
      const common = {
        'mcp.protocol.version': version,
        'network.transport': transport,
        ...(transport === 'tcp' && { 'network.protocol.name': 'http' }),
      };
      expect(shown).toEqual([
        ['tools/list', { 'mcp.method.name': 'tools/list', ...common }],
        ['prompts/list', { 'mcp.method.name': 'prompts/list', ...common }],
        [
          'prompts/get modern__greet',
          { 'mcp.method.name': 'prompts/get', 'gen_ai.prompt.name': 'modern__greet', ...common },
        ],
        ['resources/list', { 'mcp.method.name': 'resources/list', ...common }],
        ['resources/templates/list', { 'mcp.method.name': 'resources/templates/list', ...common }],
        [
          'resources/read',
          { 'mcp.method.name': 'resources/read', 'mcp.resource.uri': 'fixture://a', ...common },
        ],
        [
          'completion/complete',
          {
            'mcp.method.name': 'completion/complete',
            ...common,
            'error.type': '-32603',
            'rpc.response.status_code': '-32603',
          },
        ],
      ]);
      expect(traceId(servers[0])).toBe(CALLER_TRACE);
      // Without a context in _meta, each is a root of its own.
      expect(servers.slice(1).map((span) => span.parentSpanContext)).toEqual(Array(6).fill(undefined));
      // The upstream requests the prompt and the read made are children of their server spans.
      for (const [served, upstreamName] of [
        [servers[2], 'prompts/get greet'],
        [servers[5], 'resources/read'],
      ] as const) {
        const upstream = finished().filter(
          (span) => span.kind === CLIENT && span.name === upstreamName && traceId(span) === traceId(served),
        );
        expect(upstream.map((span) => span.parentSpanContext?.spanId)).toEqual([spanId(served)]);
      }
    });
  },
);

describe('calls over stdio without a caller context', () => {
  it.each(['auto', 'legacy'] as const)(
    '%s: every call gets its server span, the repeated ones too (never the untraced fast path)',
    async (mode) => {
      const { client, close } = await sdkStdioClient(mode);
      try {
        for (const text of ['one', 'two', 'three']) {
          const result = await client.callTool({ name: 'modern__echo', arguments: { text } });
          expect(result.content).toEqual([{ type: 'text', text: `echo: ${text}` }]);
        }
      } finally {
        await close();
      }
      const served = finished().filter(
        (span) => span.name === 'tools/call modern__echo' && span.kind === SERVER,
      );
      expect(served.map((span) => span.parentSpanContext)).toEqual([undefined, undefined, undefined]);
      const upstream = finished().filter((span) => span.name === 'tools/call echo' && span.kind === CLIENT);
      expect(upstream.map((span) => span.parentSpanContext?.spanId)).toEqual(served.map(spanId));
    },
  );
});

describe('resource subscriptions on a 2025 stdio connection', () => {
  it('subscribe and unsubscribe get server spans with the URI, their upstream requests children', async () => {
    const { client, close } = await sdkStdioClient('legacy');
    const uri = 'demo://resource/dynamic/text/1';
    try {
      await client.subscribeResource({ uri, _meta: CALLER_META });
      await client.unsubscribeResource({ uri });
    } finally {
      await close();
    }
    const subscribe = only('resources/subscribe', SERVER);
    expect(subscribe.parentSpanContext?.spanId).toBe(CALLER_SPAN);
    const { 'jsonrpc.request.id': id, ...attributes } = subscribe.attributes;
    expect(id).toMatch(/^\d+$/);
    expect(attributes).toEqual({
      'mcp.method.name': 'resources/subscribe',
      'mcp.resource.uri': uri,
      'mcp.protocol.version': '2025-11-25',
      'network.transport': 'pipe',
    });
    const upstream = only('resources/subscribe', CLIENT);
    expect(upstream.parentSpanContext?.spanId).toBe(spanId(subscribe));
    expect(only('resources/unsubscribe', SERVER).attributes['mcp.resource.uri']).toBe(uri);
  });
});

describe('the ambient context', () => {
  it('is linked from the server span when _meta names another parent (a transport span, say)', async () => {
    const { client, close } = await sdkStdioClient('auto');
    try {
      // In process, the stdio host reads the request in the context that wrote it: the ambient context.
      const ambient = await trace.getTracer('test').startActiveSpan('transport', async (span) => {
        await client.callTool({ name: 'modern__echo', arguments: { text: 'x' }, _meta: CALLER_META });
        span.end();
        return span.spanContext();
      });
      const served = only('tools/call modern__echo', SERVER);
      expect(served.parentSpanContext?.spanId).toBe(CALLER_SPAN);
      expect(served.links).toEqual([{ context: ambient }]);
      memory.reset();
      // Without a context in _meta, the ambient span is the parent, and nothing is linked.
      const parent = await trace.getTracer('test').startActiveSpan('transport', async (span) => {
        await client.callTool({ name: 'modern__echo', arguments: { text: 'y' } });
        span.end();
        return span.spanContext();
      });
      const child = only('tools/call modern__echo', SERVER);
      expect(child.parentSpanContext?.spanId).toBe(parent.spanId);
      expect(child.links).toEqual([]);
    } finally {
      await close();
    }
  });
});

describe('without a configured propagator, a provider, or the API', () => {
  let client: Client;
  beforeAll(async () => {
    client = await sdkHttpClient(url, 'auto');
  });
  afterAll(async () => {
    await client?.close();
  });

  it("reads the W3C traceparent the MCP spec fixes for _meta when the host's propagators are unset", async () => {
    propagation.disable();
    try {
      await client.callTool({ name: 'modern__echo', arguments: { text: 'w3c' }, _meta: CALLER_META });
    } finally {
      propagation.setGlobalPropagator(new W3CTraceContextPropagator());
    }
    const served = only('tools/call modern__echo', SERVER);
    expect(served.parentSpanContext?.spanId).toBe(CALLER_SPAN);
    expect(traceId(served)).toBe(CALLER_TRACE);
    expect(upstreamMeta()?.traceparent).toBe(
      `00-${CALLER_TRACE}-${spanId(only('tools/call echo', CLIENT))}-01`,
    );
  });

  it("records nothing with no tracer provider, and passes the caller's context upstream as it came", async () => {
    trace.disable();
    try {
      const result = await client.callTool({
        name: 'modern__echo',
        arguments: { text: 'dark' },
        _meta: CALLER_META,
      });
      expect(result.content).toEqual([{ type: 'text', text: 'echo: dark' }]);
    } finally {
      trace.setGlobalTracerProvider(provider);
    }
    expect(finished()).toEqual([]);
    // No span of the gateway's: the caller's `_meta` goes on (routing.ts), so the upstream joins its trace.
    expect(upstreamMeta()).toMatchObject(CALLER_META);
  });

  it('serves as before when @opentelemetry/api is not installed', async () => {
    setTraceApiLoader(() => undefined);
    const result = await client.callTool({ name: 'modern__echo', arguments: { text: 'bare' } });
    expect(result.content).toEqual([{ type: 'text', text: 'echo: bare' }]);
    await expect(client.callTool({ name: 'nope', arguments: {} })).rejects.toThrow('Tool nope not found');
    expect(finished()).toEqual([]);
  });
});
