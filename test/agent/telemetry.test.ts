import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { context, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import {
  BatchSpanProcessor,
  InMemorySpanExporter,
  type ReadableSpan,
  SimpleSpanProcessor,
  TracerProvider,
} from '@opentelemetry/sdk-trace';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { Agent } from '../../src/agent/index.js';
import { setTraceApiLoader } from '../../src/core/otel-api.js';
import { MCPCallError, MCPClient } from '../../src/mcp/index.js';
import { anthropic } from '../../src/providers/index.js';
import { startFakeAnthropic } from '../fixtures/fake-anthropic.js';
import type { FakeModelServer } from '../fixtures/fake-model-server.js';
import { startEverything } from '../fixtures/http-everything.js';
import { ROOT, readLog, tempDir } from '../helpers.js';

const EVERYTHING = {
  command: process.execPath,
  args: [path.join(ROOT, 'node_modules/@modelcontextprotocol/server-everything/dist/index.js')],
};
const FIXTURE_2026 = path.join(ROOT, 'test', 'fixtures', 'era2026', 'stdio-server.mjs');
const FIXTURE_2025 = path.join(ROOT, 'test', 'fixtures', 'url-elicitation-server.mjs');

/** OTLP/HTTP JSON bodies the receiver got. */
interface OtlpBody {
  resourceSpans: { scopeSpans: { scope: { name: string }; spans: OtlpSpan[] }[] }[];
}
interface OtlpSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  kind: number;
  attributes: { key: string; value: Record<string, unknown> }[];
  status: { code?: number };
}

/** A minimal OTLP/HTTP receiver: `POST /v1/traces` with a JSON body, answered 200 `{}`. */
function startReceiver(): Promise<{ server: Server; url: string; bodies: OtlpBody[]; types: string[] }> {
  const bodies: OtlpBody[] = [];
  const types: string[] = [];
  const server = createServer(async (req: IncomingMessage, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    if (req.method !== 'POST' || req.url !== '/v1/traces') {
      res.writeHead(404).end();
      return;
    }
    types.push(String(req.headers['content-type']));
    bodies.push(JSON.parse(Buffer.concat(chunks).toString('utf8')) as OtlpBody);
    res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
  });
  return new Promise((resolve) => {
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      resolve({ server, url: `http://127.0.0.1:${port}/v1/traces`, bodies, types });
    });
  });
}

const memory = new InMemorySpanExporter();
const manager = new AsyncLocalStorageContextManager();
let receiver: Awaited<ReturnType<typeof startReceiver>>;
let provider: TracerProvider;
let fake: FakeModelServer;
let everything: MCPClient;

beforeAll(async () => {
  manager.enable();
  context.setGlobalContextManager(manager);
  receiver = await startReceiver();
  provider = new TracerProvider({
    spanProcessors: [
      new SimpleSpanProcessor({ exporter: memory }),
      new BatchSpanProcessor({ exporter: new OTLPTraceExporter({ url: receiver.url }) }),
    ],
  });
  trace.setGlobalTracerProvider(provider);
  fake = await startFakeAnthropic();
  everything = MCPClient.fromStdio(EVERYTHING, { name: 'everything' });
  await everything.connect();
});

afterAll(async () => {
  await everything.disconnect();
  await fake.close();
  await provider.shutdown();
  trace.disable();
  context.disable();
  await new Promise((resolve) => receiver.server.close(resolve));
});

const temps: (() => void)[] = [];
const clients: MCPClient[] = [];
beforeEach(() => memory.reset());
afterEach(async () => {
  setTraceApiLoader(undefined);
  await Promise.all(clients.splice(0).map((client) => client.disconnect()));
  for (const remove of temps.splice(0)) remove();
});

const model = () => anthropic({ model: 'claude-test', apiKey: 'k', baseURL: fake.baseURL, maxRetries: 0 });

/** One agent turn that calls server-everything's `echo`, then answers. */
async function echoRun(agentName?: string): Promise<string> {
  fake.script(
    { text: 'Echoing.', toolCalls: [{ id: 'toolu_echo', name: 'echo', input: { message: 'traced' } }] },
    { text: 'It said traced.' },
  );
  const agent = new Agent({ model: model(), ...(agentName && { telemetry: { agentName } }) });
  await agent.addMcpServer(everything);
  const { text } = await agent.execute('Echo something');
  await agent.close();
  return text;
}

/** The spans of the trace whose root is named `root`, as a tree of names. */
function tree(spans: readonly ReadableSpan[], rootName: string): unknown {
  const root = spans.find((span) => span.name === rootName);
  if (!root) return undefined;
  const inTrace = spans.filter((span) => span.spanContext().traceId === root.spanContext().traceId);
  const node = (span: ReadableSpan): unknown => {
    const children = inTrace
      .filter((child) => child.parentSpanContext?.spanId === span.spanContext().spanId)
      .sort((a, b) => a.startTime[0] - b.startTime[0] || a.startTime[1] - b.startTime[1]);
    return children.length === 0 ? span.name : { [span.name]: children.map(node) };
  };
  return node(root);
}

/** The `traceparent` in a logged request's `_meta`. */
const traceparentSent = (message: { params?: Record<string, unknown> } | undefined) =>
  (message?.params?._meta as { traceparent?: string } | undefined)?.traceparent;

/** The finished spans of agentwire's tracer (the Anthropic SDK traces its API calls as well). */
const ours = () => memory.getFinishedSpans().filter((span) => span.instrumentationScope.name === 'agentwire');
const named = (name: string) => memory.getFinishedSpans().filter((span) => span.name === name);

describe('OpenTelemetry spans of an agent run (GenAI and MCP semantic conventions)', () => {
  it('nests invoke_agent → chat / execute_tool → tools/call, with the conventions’ attributes', async () => {
    expect(await echoRun('helper')).toBe('It said traced.');
    const all = memory.getFinishedSpans();
    const spans = all.filter((span) => span.instrumentationScope.name === 'agentwire');
    expect(tree(spans, 'invoke_agent helper')).toEqual({
      'invoke_agent helper': [
        'chat claude-test',
        { 'execute_tool echo': ['tools/call echo'] },
        'chat claude-test',
      ],
    });
    const [agent] = named('invoke_agent helper');
    expect(agent?.kind).toBe(0); // INTERNAL
    expect(agent?.parentSpanContext).toBeUndefined();
    expect(agent?.attributes).toEqual({
      'gen_ai.operation.name': 'invoke_agent',
      'gen_ai.provider.name': 'anthropic',
      'gen_ai.request.model': 'claude-test',
      'gen_ai.agent.name': 'helper',
      'gen_ai.usage.input_tokens': 50,
      'gen_ai.usage.output_tokens': 24,
    });
    const chats = named('chat claude-test');
    expect(chats.map((span) => span.kind)).toEqual([2, 2]); // CLIENT
    // The Anthropic SDK traces its own API calls; each is a child of the chat span it belongs to.
    const sdkCalls = all.filter((span) => span.instrumentationScope.name === 'com.anthropic.sdk.typescript');
    expect(sdkCalls.map((span) => span.parentSpanContext?.spanId).sort()).toEqual(
      chats.map((span) => span.spanContext().spanId).sort(),
    );
    expect(chats[0]?.attributes).toEqual({
      'gen_ai.operation.name': 'chat',
      'gen_ai.provider.name': 'anthropic',
      'gen_ai.request.model': 'claude-test',
      'gen_ai.request.stream': true,
      'gen_ai.response.model': 'fake-claude',
      'gen_ai.response.id': expect.stringMatching(/^msg_fake_\d+$/),
      'gen_ai.response.finish_reasons': ['tool_call'],
      'gen_ai.usage.input_tokens': 25,
      'gen_ai.usage.output_tokens': 12,
    });
    expect(chats[1]?.attributes['gen_ai.response.finish_reasons']).toEqual(['stop']);
    const [tool] = named('execute_tool echo');
    expect(tool?.kind).toBe(0);
    expect(tool?.attributes).toEqual({
      'gen_ai.operation.name': 'execute_tool',
      'gen_ai.tool.name': 'echo',
      'gen_ai.tool.call.id': 'toolu_echo',
      'gen_ai.tool.type': 'function',
    });
    const [call] = named('tools/call echo');
    expect(call?.kind).toBe(2);
    expect(call?.status.code).toBe(0); // UNSET: it succeeded
    expect(call?.attributes).toEqual({
      'mcp.method.name': 'tools/call',
      'gen_ai.operation.name': 'execute_tool',
      'gen_ai.tool.name': 'echo',
      'mcp.protocol.version': everything.getProtocolVersion(),
      'network.transport': 'pipe',
      'jsonrpc.request.id': expect.stringMatching(/^aw-\d+$/),
    });
  });

  it('a failed tool call is error.type tool_error; a failed MCP request carries the failure too', async () => {
    fake.script({ toolCalls: [{ id: 'toolu_bad', name: 'nope', input: {} }] }, { text: 'Done.' });
    const agent = new Agent({ model: model() });
    await agent.addMcpServer(everything);
    await agent.execute('Call nope');
    await agent.close();
    const [tool] = named('execute_tool nope');
    expect(tool?.attributes['error.type']).toBe('tool_error');
    expect(tool?.status.code).toBe(2); // ERROR
    // An error result (server-everything answers an unknown tool with `isError`) is `tool_error` …
    expect((await everything.callTool('no_such_tool', {})).isError).toBe(true);
    const [call] = named('tools/call no_such_tool');
    expect(call?.status.code).toBe(2);
    expect(call?.attributes['error.type']).toBe('tool_error');
    // … and a JSON-RPC error answer its code, in error.type and rpc.response.status_code.
    const failure = await everything.getPrompt('no_such_prompt').catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(MCPCallError);
    const [prompt] = named('prompts/get no_such_prompt');
    expect(prompt?.attributes).toEqual({
      'mcp.method.name': 'prompts/get',
      'gen_ai.prompt.name': 'no_such_prompt',
      'mcp.protocol.version': everything.getProtocolVersion(),
      'network.transport': 'pipe',
      'jsonrpc.request.id': expect.stringMatching(/^\d+$/),
      'error.type': '-32602',
      'rpc.response.status_code': '-32602',
    });
    expect(prompt?.status).toEqual({ code: 2, message: (failure as MCPCallError).message });
  });

  it('exports the same tree over OTLP/HTTP (JSON) to a receiver', async () => {
    receiver.bodies.length = 0;
    await echoRun('exported');
    await provider.forceFlush();
    const spans = receiver.bodies.flatMap((body) =>
      body.resourceSpans.flatMap((r) =>
        r.scopeSpans.flatMap((s) => s.spans.map((span) => ({ scope: s.scope.name, span }))),
      ),
    );
    expect(receiver.types.every((type) => type === 'application/json')).toBe(true);
    const root = spans.find(({ span }) => span.name === 'invoke_agent exported');
    expect(root).toBeDefined();
    expect(root?.scope).toBe('agentwire');
    const trace = spans.filter(({ span }) => span.traceId === root?.span.traceId).map(({ span }) => span);
    expect(
      trace
        .filter((span) => !span.name.startsWith('anthropic.'))
        .map((span) => span.name)
        .sort(),
    ).toEqual([
      'chat claude-test',
      'chat claude-test',
      'execute_tool echo',
      'invoke_agent exported',
      'tools/call echo',
    ]);
    const byName = new Map(trace.map((span) => [span.name, span]));
    const mcp = byName.get('tools/call echo');
    expect(mcp?.parentSpanId).toBe(byName.get('execute_tool echo')?.spanId);
    expect(mcp?.kind).toBe(3); // OTLP SPAN_KIND_CLIENT
    const attributes = Object.fromEntries(mcp?.attributes.map((a) => [a.key, a.value]) ?? []);
    expect(attributes['mcp.method.name']).toEqual({ stringValue: 'tools/call' });
    expect(attributes['gen_ai.tool.name']).toEqual({ stringValue: 'echo' });
    expect(attributes['network.transport']).toEqual({ stringValue: 'pipe' });
    const agentAttributes = Object.fromEntries(
      byName.get('invoke_agent exported')?.attributes.map((a) => [a.key, a.value]) ?? [],
    );
    expect(agentAttributes['gen_ai.usage.input_tokens']).toEqual({ intValue: 50 });
    expect(agentAttributes['gen_ai.agent.name']).toEqual({ stringValue: 'exported' });
  });
});

describe('MCP spans over Streamable HTTP', () => {
  it('carry server.address, server.port, network.transport tcp and mcp.session.id', async () => {
    const server = await startEverything('streamableHttp');
    const client = MCPClient.fromUrl(server.url, { name: 'everything-http' });
    try {
      await client.connect();
      await client.callTool('echo', { message: 'over http' });
      const [call] = named('tools/call echo');
      const url = new URL(server.url);
      expect(call?.attributes).toEqual({
        'mcp.method.name': 'tools/call',
        'gen_ai.operation.name': 'execute_tool',
        'gen_ai.tool.name': 'echo',
        'mcp.session.id': client.sessionId,
        'mcp.protocol.version': client.getProtocolVersion(),
        'network.transport': 'tcp',
        'server.address': '127.0.0.1',
        'server.port': Number(url.port),
        'jsonrpc.request.id': expect.stringMatching(/^aw-\d+$/),
      });
      expect(client.sessionId).toEqual(expect.any(String));
    } finally {
      await client.disconnect();
      await server.stop();
    }
  });
});

describe('the MCP span is the traceparent in _meta', () => {
  async function connect(args: string[]): Promise<{ client: MCPClient; log: string }> {
    const temp = tempDir();
    temps.push(temp.remove);
    const log = path.join(temp.dir, 'received.log');
    const client = MCPClient.fromStdio({ command: process.execPath, args, env: { FIXTURE_LOG: log } });
    clients.push(client);
    await client.connect();
    return { client, log };
  }

  const traceparentOf = (span: ReadableSpan | undefined) =>
    span && `00-${span.spanContext().traceId}-${span.spanContext().spanId}-01`;

  it.each([
    ['2026-07-28', [FIXTURE_2026, '--modern-only']],
    ['2025-11-25', [FIXTURE_2025]],
  ])('%s: tools/call carries the context of its own span, a child of the caller’s', async (_era, args) => {
    const { client, log } = await connect(args);
    const outer = trace.getTracer('test');
    await outer.startActiveSpan('caller', async (span) => {
      await client.callTool('echo', { text: 'traced' });
      span.end();
    });
    const [call] = named('tools/call echo');
    const [caller] = named('caller');
    expect(call?.parentSpanContext?.spanId).toBe(caller?.spanContext().spanId);
    expect(call?.attributes['mcp.protocol.version']).toBe(client.getProtocolVersion());
    const sent = readLog(log).filter((message) => message.method === 'tools/call');
    expect(sent.map((message) => traceparentSent(message))).toEqual([traceparentOf(call)]);
    expect(call?.attributes['jsonrpc.request.id']).toBe(sent[0]?.id);
  });

  it('a request outside any span still gets its own span, and its traceparent', async () => {
    const { client, log } = await connect([FIXTURE_2026, '--modern-only']);
    await client.callTool('echo', { text: 'alone' });
    const [call] = named('tools/call echo');
    expect(call?.parentSpanContext).toBeUndefined();
    const sent = readLog(log).filter((message) => message.method === 'tools/call');
    expect(traceparentSent(sent[0])).toBe(traceparentOf(call));
  });
});

describe('without a tracer provider or without @opentelemetry/api', () => {
  it('without @opentelemetry/api an agent run works and loads nothing more', async () => {
    let loads = 0;
    setTraceApiLoader(() => {
      loads += 1;
      return undefined;
    });
    expect(await echoRun()).toBe('It said traced.');
    expect(loads).toBe(1);
    expect(ours()).toEqual([]);
  });

  it('the agent’s spans can be turned off; the MCP client’s stay', async () => {
    fake.script(
      { toolCalls: [{ id: 'toolu_off', name: 'echo', input: { message: 'quiet' } }] },
      { text: 'Quiet.' },
    );
    const agent = new Agent({ model: model(), telemetry: { enabled: false } });
    await agent.addMcpServer(everything);
    await agent.execute('Echo');
    await agent.close();
    expect(ours().map((span) => span.name)).toEqual(['tools/call echo']);
  });
});
