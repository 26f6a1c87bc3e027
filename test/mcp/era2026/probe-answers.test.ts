/**
 * How the `server/discover` probe's answer is read (session/negotiate.ts; MCP spec 2026-07-28, "Basic >
 * Versioning > Backward Compatibility": "a recognized modern JSON-RPC error identifies a modern server ...
 * Anything else identifies a legacy server"), through `MCPClient`:
 * - over Streamable HTTP, against the real server-everything (2025) behind a proxy that answers the probe
 *   in each way a server or proxy does (any status, 5xx included; an HTML, empty or JSON-RPC error body; a
 *   response stream closed or cut before the answer): `initialize` follows at once and the client speaks
 *   2025-11-25; a recognized modern error (-32020, -32021) fails the connect instead; a 401 is OAuth's;
 * - over stdio, against the scripted server answering the probe with each error code, a non-discover result
 *   or silence: `initialize` on the same process, a silent server costing the probe's bound
 *   (`probeTimeoutMs`), not the connect timeout;
 * - the verdict is kept per origin or command line: the next connect sends no probe.
 */

import { writeFileSync } from 'node:fs';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { MCPClient, type MCPClientOptions } from '../../../src/mcp/client/client.js';
import type { MCPWireMessage } from '../../../src/mcp/client/wire-tap.js';
import { MCPCallError } from '../../../src/mcp/protocol/errors.js';
import { type EverythingServer, startEverything } from '../../fixtures/http-everything.js';
import {
  jsonRpcErrorBody,
  type ProxiedRequest,
  type ProxyScript,
  type ScriptedProxy,
  startScriptedProxy,
} from '../../fixtures/scripted-proxy.js';
import { readLog, scripted, tempDir } from '../../helpers.js';

const open: MCPClient[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((client) => client.disconnect()));
});

function track(client: MCPClient): MCPClient {
  open.push(client);
  return client;
}

const html = '<!doctype html><html><body><h1>Something went wrong</h1></body></html>';

/** Each way of answering the probe that identifies a legacy server, and what the proxy sends. */
const LEGACY_HTTP_ANSWERS: [string, (probe: ProxiedRequest) => ProxyScript][] = [
  [
    'HTTP 500 with a JSON-RPC -32603 body',
    () => ({ answer: { status: 500, contentType: 'application/json', body: jsonRpcErrorBody(-32603, 'x') } }),
  ],
  ['HTTP 502 with an HTML page', () => ({ answer: { status: 502, contentType: 'text/html', body: html } })],
  ['HTTP 503 with no body', () => ({ answer: { status: 503, body: '' } })],
  ['HTTP 200 with an HTML page', () => ({ answer: { status: 200, contentType: 'text/html', body: html } })],
  [
    'HTTP 200 with an empty JSON body',
    () => ({ answer: { status: 200, contentType: 'application/json', body: '' } }),
  ],
  ['HTTP 400 with an empty body', () => ({ answer: { status: 400, body: '' } })],
  [
    'HTTP 404 with -32601',
    () => ({ answer: { status: 404, contentType: 'application/json', body: jsonRpcErrorBody(-32601, 'x') } }),
  ],
  [
    'HTTP 400 with -32600',
    () => ({ answer: { status: 400, contentType: 'application/json', body: jsonRpcErrorBody(-32600, 'x') } }),
  ],
  [
    'HTTP 200 with -32601 for the probe',
    (probe) => ({
      answer: {
        status: 200,
        contentType: 'application/json',
        body: jsonRpcErrorBody(-32601, 'Method not found', probe.id ?? null),
      },
    }),
  ],
  [
    'HTTP 200 with a result that is no DiscoverResult',
    (probe) => ({
      answer: {
        status: 200,
        contentType: 'application/json',
        body: JSON.stringify({ jsonrpc: '2.0', id: probe.id, result: { hello: 'world' } }),
      },
    }),
  ],
  [
    'an event stream closed before the answer',
    () => ({ answer: { status: 200, contentType: 'text/event-stream', body: ': nothing here\n\n' } }),
  ],
  ["server-everything's own 400 cut mid-body", () => ({ cut: {} })],
  [
    'HTTP 400 with a -32022 naming only 2025 revisions',
    () => ({
      answer: {
        status: 400,
        contentType: 'application/json',
        body: JSON.stringify({
          jsonrpc: '2.0',
          id: null,
          error: { code: -32022, message: 'unsupported', data: { supported: ['2025-11-25'] } },
        }),
      },
    }),
  ],
];

describe('the probe over Streamable HTTP, server-everything (2025) behind a proxy', () => {
  let everything: EverythingServer;
  let proxy: ScriptedProxy;
  beforeAll(async () => {
    everything = await startEverything('streamableHttp');
    proxy = await startScriptedProxy(everything.url);
  });
  afterAll(async () => {
    await proxy.close();
    await everything.stop();
  });

  /** Answers `server/discover` with `answer`, and passes everything else. */
  function answerProbe(answer: (probe: ProxiedRequest) => ProxyScript): void {
    proxy.seen.length = 0;
    proxy.script = (message) => (message.method === 'server/discover' ? answer(message) : undefined);
  }

  const client = (options: MCPClientOptions = {}) =>
    track(MCPClient.fromUrl(proxy.url, { name: 'behind-proxy', ...options }));

  it.each(LEGACY_HTTP_ANSWERS)('%s: a legacy server, initialize follows at once', async (_label, answer) => {
    answerProbe(answer);
    const mcp = client();
    await mcp.connect();
    expect(mcp.getProtocolVersion()).toBe('2025-11-25');
    expect(mcp.getTools().map((tool) => tool.name)).toContain('echo');
    expect(proxy.seen.slice(0, 3).map((m) => [m.method, m.done])).toEqual([
      ['server/discover', expect.stringMatching(/^(answered|cut)$/)],
      ['initialize', 'passed'],
      ['notifications/initialized', 'passed'],
    ]);
  });

  it('keeps the verdict for the origin: the next connect sends initialize at once', async () => {
    answerProbe(LEGACY_HTTP_ANSWERS[0]![1]);
    const mcp = client();
    await mcp.connect();
    await mcp.disconnect();
    await mcp.connect();
    expect(mcp.getProtocolVersion()).toBe('2025-11-25');
    expect(proxy.seen.filter((m) => m.method === 'server/discover')).toHaveLength(1);
    expect(proxy.seen.filter((m) => m.method === 'initialize')).toHaveLength(2);
  });

  it.each([
    [-32020, 'HeaderMismatch'],
    [-32021, 'MissingRequiredClientCapability'],
  ])('fails the connect on a recognized modern error (%i, %s): no initialize', async (code) => {
    answerProbe(() => ({
      answer: { status: 400, contentType: 'application/json', body: jsonRpcErrorBody(code, 'modern') },
    }));
    const mcp = client();
    const error = await mcp.connect().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(MCPCallError);
    expect(error).toMatchObject({ kind: 'jsonrpc', code, method: 'server/discover' });
    expect(proxy.seen.map((m) => m.method)).toEqual(['server/discover']);
  });

  it("fails the connect on a 401 without credentials (OAuth's), sending no initialize", async () => {
    answerProbe(() => ({ answer: { status: 401, body: '' } }));
    const error = await client()
      .connect()
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ kind: 'http', status: 401, method: 'server/discover' });
    expect(proxy.seen.map((m) => m.method)).toEqual(['server/discover']);
  });

  it("shows the probe's outcome to onWireMessage: the request, then what came instead of a response", async () => {
    answerProbe(LEGACY_HTTP_ANSWERS[0]![1]);
    const seen: MCPWireMessage[] = [];
    const mcp = client({ onWireMessage: (message) => seen.push(message) });
    await mcp.connect();
    const lines = seen.slice(0, 3).map(({ direction, message, failure }) => {
      const { id, method } = message as { id?: unknown; method?: string };
      return [direction, method ?? 'response', id, failure];
    });
    const probe = expect.stringMatching(/^probe-\d+$/);
    expect(lines).toEqual([
      ['send', 'server/discover', probe, undefined],
      ['fail', 'server/discover', probe, 'HTTP 500, error -32603'],
      ['send', 'initialize', 0, undefined],
    ]);
  });
});

describe('the probe over stdio, the scripted server', () => {
  const logs = tempDir('probe-answers-');
  afterAll(() => logs.remove());
  let runs = 0;

  /** A scripted server meeting the probe `how`, logging what it receives; the log's path is unique. */
  function server(how: string | undefined) {
    const log = `${logs.dir}/${++runs}.jsonl`;
    const env: Record<string, string> = { FIXTURE_LOG: log };
    if (how !== undefined) env.FIXTURE_UNKNOWN_METHOD = how;
    return { spec: scripted(env), methods: () => readLog(log).map((m) => m.method) };
  }

  it.each([
    ['-32601 (the default)', undefined],
    ['-32600', '-32600'],
    ['-32602', '-32602'],
    ['-32603', '-32603'],
    ['-32000', '-32000'],
    ['a -32022 naming only 2025 revisions', '-32022'],
    ['a result that is no DiscoverResult', 'result'],
  ])('%s: a legacy server, initialize on the same process', async (_label, how) => {
    const { spec, methods } = server(how);
    const mcp = track(MCPClient.fromStdio(spec));
    await mcp.connect();
    expect(mcp.getProtocolVersion()).toBe('2025-11-25');
    expect(methods().slice(0, 3)).toEqual(['server/discover', 'initialize', 'notifications/initialized']);
  });

  it('fails the connect on -32021 (a recognized modern error): no initialize', async () => {
    const { spec, methods } = server('-32021');
    const error = await track(MCPClient.fromStdio(spec))
      .connect()
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ kind: 'jsonrpc', code: -32021, method: 'server/discover' });
    expect(methods()).toEqual(['server/discover']);
  });

  it('waits probeTimeoutMs, not connectTimeoutMs, for a server that ignores the probe', async () => {
    const { spec, methods } = server('silent');
    const mcp = track(MCPClient.fromStdio(spec, { probeTimeoutMs: 300, connectTimeoutMs: 30_000 }));
    const started = performance.now();
    await mcp.connect();
    const took = performance.now() - started;
    expect(mcp.getProtocolVersion()).toBe('2025-11-25');
    expect(took).toBeGreaterThanOrEqual(290);
    expect(took).toBeLessThan(5_000);
    expect(methods().slice(0, 2)).toEqual(['server/discover', 'initialize']);
  });

  it('keeps connectTimeoutMs one deadline: a server that ignores the probe connects within it', async () => {
    const { spec, methods } = server('silent');
    const seen: MCPWireMessage[] = [];
    const options = { connectTimeoutMs: 2_000, onWireMessage: (m: MCPWireMessage) => seen.push(m) };
    const mcp = track(MCPClient.fromStdio(spec, options));
    const started = performance.now();
    await mcp.connect();
    expect(performance.now() - started).toBeLessThan(2_000);
    // The probe waited at most half of the connect timeout (not probeTimeoutMs' 5000, nor the whole 2000).
    const failure = seen.find((m) => m.direction === 'fail')?.failure ?? '';
    const bound = Number(/^no answer within (\d+) ms$/.exec(failure)?.[1]);
    expect(bound).toBeGreaterThan(0);
    expect(bound).toBeLessThanOrEqual(1_000);
    expect(methods().slice(0, 2)).toEqual(['server/discover', 'initialize']);
  });

  it('fails a server that never answers within connectTimeoutMs, probe and initialize together', async () => {
    const dir = tempDir('probe-mute-');
    try {
      const script = `${dir.dir}/mute.mjs`;
      writeFileSync(script, 'process.stdin.resume();\n');
      const seen: MCPWireMessage[] = [];
      const mcp = track(
        MCPClient.fromStdio(
          { command: process.execPath, args: [script] },
          { connectTimeoutMs: 2_000, onWireMessage: (m) => seen.push(m) },
        ),
      );
      const started = performance.now();
      const error = await mcp.connect().catch((e: unknown) => e);
      const took = performance.now() - started;
      expect(error).toBeInstanceOf(MCPCallError);
      expect(error).toMatchObject({ kind: 'timeout', method: 'initialize', timeoutMs: 2_000 });
      const failure = seen.find((m) => m.direction === 'fail')?.failure ?? '';
      const bound = Number(/^no answer within (\d+) ms$/.exec(failure)?.[1]);
      expect(bound).toBeGreaterThan(0);
      expect(bound).toBeLessThanOrEqual(1_000);
      // One deadline (probe + initialize), not the connect timeout twice; loose: an upper bound only.
      expect(took).toBeLessThan(2_000 + 1_500);
    } finally {
      dir.remove();
    }
  });

  it('keeps the verdict for the command line: a reconnect sends no probe and does not wait again', async () => {
    const { spec, methods } = server('silent');
    const mcp = track(MCPClient.fromStdio(spec, { probeTimeoutMs: 1_000 }));
    await mcp.connect();
    await mcp.disconnect();
    const started = performance.now();
    await mcp.connect();
    expect(performance.now() - started).toBeLessThan(1_000);
    expect(mcp.getProtocolVersion()).toBe('2025-11-25');
    expect(methods().filter((m) => m === 'server/discover')).toHaveLength(1);
    expect(methods().filter((m) => m === 'initialize')).toHaveLength(2);
  });
});
