import path from 'node:path';
import { context, createTraceState, type SpanContext, TraceFlags, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { MCPClient } from '../../../src/mcp/client/client.js';
import { setTraceApiLoader } from '../../../src/mcp/session/trace-context.js';
import { ROOT, readLog, tempDir } from '../../helpers.js';

const FIXTURE_2025 = path.join(ROOT, 'test', 'fixtures', 'url-elicitation-server.mjs');
const FIXTURE_2026 = path.join(ROOT, 'test', 'fixtures', 'era2026', 'stdio-server.mjs');

const SPAN: SpanContext = {
  traceId: '0af7651916cd43dd8448eb211c80319c',
  spanId: '00f067aa0ba902b7',
  traceFlags: TraceFlags.SAMPLED,
};
const TRACEPARENT = '00-0af7651916cd43dd8448eb211c80319c-00f067aa0ba902b7-01';

const manager = new AsyncLocalStorageContextManager();
beforeAll(() => {
  manager.enable();
  context.setGlobalContextManager(manager);
});
afterAll(() => {
  context.disable();
});

const open: MCPClient[] = [];
const temps: (() => void)[] = [];
afterEach(async () => {
  setTraceApiLoader(undefined);
  await Promise.all(open.splice(0).map((client) => client.disconnect()));
  for (const remove of temps.splice(0)) remove();
});

async function connect(args: string[]): Promise<{ client: MCPClient; log: string }> {
  const temp = tempDir();
  temps.push(temp.remove);
  const log = path.join(temp.dir, 'received.log');
  const client = MCPClient.fromStdio({ command: process.execPath, args, env: { FIXTURE_LOG: log } });
  open.push(client);
  await client.connect();
  return { client, log };
}

/** Runs `work` with `span` as the active span. */
function inSpan<T>(span: SpanContext, work: () => Promise<T>): Promise<T> {
  return context.with(trace.setSpanContext(context.active(), span), work);
}

/** The `_meta` of each `tools/call` the fixture received. */
function callMeta(log: string): unknown[] {
  return readLog(log)
    .filter((message) => message.method === 'tools/call')
    .map((message) => message.params?._meta);
}

describe('W3C trace context in _meta', () => {
  it('2025-11-25: a tools/call inside a span carries its traceparent, one outside none', async () => {
    const { client, log } = await connect([FIXTURE_2025]);
    await inSpan(SPAN, () => client.callTool('echo', { text: 'traced' }));
    await client.callTool('echo', { text: 'untraced' });
    expect(callMeta(log)).toEqual([{ traceparent: TRACEPARENT }, undefined]);
    const calls = readLog(log).filter((message) => message.method === 'tools/call');
    expect(calls[0]).toEqual({
      jsonrpc: '2.0',
      id: 'aw-1',
      method: 'tools/call',
      params: { name: 'echo', arguments: { text: 'traced' }, _meta: { traceparent: TRACEPARENT } },
    });
  });

  it('2025-11-25: tracestate goes beside traceparent, and other requests carry them too', async () => {
    const { client, log } = await connect([FIXTURE_2025]);
    const span = { ...SPAN, traceFlags: TraceFlags.NONE, traceState: createTraceState('vendor=abc,other=1') };
    // `ping`: a request every server answers, whatever it declares (a list needs the capability).
    await inSpan(span, () => client.ping());
    const request = readLog(log).find((message) => message.method === 'ping');
    expect(request?.params).toEqual({
      _meta: {
        traceparent: '00-0af7651916cd43dd8448eb211c80319c-00f067aa0ba902b7-00',
        tracestate: 'vendor=abc,other=1',
      },
    });
  });

  it('2026-07-28: traceparent joins the envelope in _meta', async () => {
    const { client, log } = await connect([FIXTURE_2026, '--modern-only']);
    await inSpan(SPAN, () => client.callTool('echo', { text: 'traced' }));
    await client.callTool('echo', { text: 'untraced' });
    const [traced, untraced] = callMeta(log) as Record<string, unknown>[];
    expect(traced?.traceparent).toBe(TRACEPARENT);
    expect(Object.keys(traced ?? {}).sort()).toEqual([
      'io.modelcontextprotocol/clientCapabilities',
      'io.modelcontextprotocol/clientInfo',
      'io.modelcontextprotocol/protocolVersion',
      'traceparent',
    ]);
    expect(Object.keys(untraced ?? {}).sort()).toEqual([
      'io.modelcontextprotocol/clientCapabilities',
      'io.modelcontextprotocol/clientInfo',
      'io.modelcontextprotocol/protocolVersion',
    ]);
  });

  it("a caller's _meta traceparent gives way to the active span's, and goes out as given outside one", async () => {
    const { client, log } = await connect([FIXTURE_2025]);
    const _meta = { traceparent: 'caller-parent', 'com.example/id': 1 };
    await inSpan(SPAN, () => client.callTool('echo', { text: 'traced' }, { _meta }));
    await client.callTool('echo', { text: 'untraced' }, { _meta });
    expect(callMeta(log)).toEqual([
      { traceparent: TRACEPARENT, 'com.example/id': 1 },
      { traceparent: 'caller-parent', 'com.example/id': 1 },
    ]);
  });

  it('an invalid span context adds nothing', async () => {
    const { client, log } = await connect([FIXTURE_2025]);
    const invalid = { traceId: '0'.repeat(32), spanId: '0'.repeat(16), traceFlags: TraceFlags.NONE };
    await inSpan(invalid, () => client.callTool('echo', { text: 'x' }));
    expect(callMeta(log)).toEqual([undefined]);
  });

  it('without @opentelemetry/api installed, requests inside a span go out unchanged, without error', async () => {
    let loads = 0;
    setTraceApiLoader(() => {
      loads += 1;
      return undefined;
    });
    const { client, log } = await connect([FIXTURE_2025]);
    await inSpan(SPAN, () => client.callTool('echo', { text: 'a' }));
    await inSpan(SPAN, () => client.callTool('echo', { text: 'b' }));
    expect(callMeta(log)).toEqual([undefined, undefined]);
    expect(loads).toBe(1);
  });
});
