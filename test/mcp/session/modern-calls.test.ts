/**
 * The 2026-07-28 `tools/call` paths side by side: the direct path (session/modern-calls.ts) and the SDK's
 * request funnel (session/sdk-call.ts) run the same cases against the real 2026 fixtures (stdio and
 * Streamable HTTP, 2026-only and dual-era), and must give identical results, identical `MCPCallError`
 * fields and the same requests on the wire (envelope, headers, cancellation).
 */
import path from 'node:path';
import type { JSONRPCMessage } from '@modelcontextprotocol/client';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { MCPCallError } from '../../../src/mcp/protocol/errors.js';
import type { Progress } from '../../../src/mcp/protocol/types.js';
import type { SessionEra } from '../../../src/mcp/session/negotiation/negotiate.js';
import { Session, type SessionClientFeatures, type SessionHooks } from '../../../src/mcp/session/session.js';
import { StreamableHTTPTransport } from '../../../src/mcp/transports/http/streamable-http.js';
import { StdioTransport } from '../../../src/mcp/transports/stdio/stdio-transport.js';
import type { AgentwireTransport } from '../../../src/mcp/transports/transport.js';
import { type Era2026HttpServer, startEra2026Http } from '../../fixtures/era2026/http-server.js';
import { ROOT } from '../../helpers.js';

const STDIO_SERVER = path.join(ROOT, 'test/fixtures/era2026/stdio-server.mjs');
const SERVER_INFO_KEY = 'io.modelcontextprotocol/serverInfo';
const CLIENT = { name: 'parity', version: '1.0.0' };

const http: Record<'modern' | 'dual', Era2026HttpServer | undefined> = { modern: undefined, dual: undefined };
beforeAll(async () => {
  http.modern = await startEra2026Http({ modernOnly: true, mrtr: true });
  http.dual = await startEra2026Http({ modernOnly: false, mrtr: true });
});
afterAll(async () => {
  await Promise.all([http.modern?.close(), http.dual?.close()]);
});

const sessions: Session[] = [];
afterEach(async () => {
  await Promise.all(sessions.splice(0).map((session) => session.close()));
});

const hooks: SessionHooks = { onUnexpectedClose: () => {}, onToolListChanged: () => {}, onError: () => {} };

interface Sent {
  message: Record<string, unknown>;
  headers: Record<string, string> | undefined;
}

type Fixture = 'stdio 2026-only' | 'stdio dual' | 'http 2026-only' | 'http dual';
const FIXTURES: Fixture[] = ['stdio 2026-only', 'stdio dual', 'http 2026-only', 'http dual'];
const PATHS = ['direct', 'funnel'] as const;

function httpServer(fixture: Fixture): Era2026HttpServer {
  const server = fixture === 'http 2026-only' ? http.modern : http.dual;
  if (!server) throw new Error('fixture not started');
  return server;
}

/** A session to `fixture` on `calls`, recording every message sent with its extra headers. */
async function open(fixture: Fixture, calls: 'direct' | 'funnel', features: SessionClientFeatures = {}) {
  const sent: Sent[] = [];
  const create = (): AgentwireTransport => {
    const transport: AgentwireTransport = fixture.startsWith('stdio')
      ? new StdioTransport({
          command: process.execPath,
          args:
            fixture === 'stdio dual' ? [STDIO_SERVER, '--mrtr'] : [STDIO_SERVER, '--modern-only', '--mrtr'],
          serverName: 'test',
        })
      : new StreamableHTTPTransport({ url: httpServer(fixture).url, serverName: 'test' });
    const send = transport.send.bind(transport);
    transport.send = (message: JSONRPCMessage, options) => {
      sent.push({
        message: message as unknown as Record<string, unknown>,
        headers: options?.headers as never,
      });
      return send(message, options);
    };
    return transport;
  };
  const era: SessionEra = {
    probe: fixture.startsWith('stdio') ? 'stdio' : 'http',
    modernCalls: calls,
  };
  const session = await Session.open({
    server: 'test',
    clientInfo: CLIENT,
    createTransport: create,
    hooks,
    request: { timeoutMs: 20_000 },
    given: features,
    era,
  });
  sessions.push(session);
  expect(session.protocolVersion).toBe('2026-07-28');
  return { session, sent };
}

const calls = (sent: Sent[]) => sent.filter((s) => s.message.method === 'tools/call');

/** The fields of an `MCPCallError`, for comparing the two paths. */
async function failure(promise: Promise<unknown>) {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(MCPCallError);
  const e = error as MCPCallError;
  return {
    message: e.message,
    kind: e.kind,
    reason: e.reason,
    server: e.server,
    method: e.method,
    toolName: e.toolName,
    code: e.code,
    data: e.data,
    timeoutMs: e.timeoutMs,
    status: e.status,
    reissue: e.reissue,
    inputRounds: e.inputRounds,
    inputMethod: e.inputMethod,
  };
}

const answerAll: SessionClientFeatures = {
  onElicitation: async () => ({ action: 'accept', content: { name: 'Ada' } }),
  onSampling: async () => ({ role: 'assistant', content: { type: 'text', text: 'fine' }, model: 'm' }),
  roots: [{ uri: 'file:///r', name: 'r' }],
};

const serverInfo = { [SERVER_INFO_KEY]: { name: 'era2026-fixture', version: '1.0.0' } };

describe.each(FIXTURES)('2026-07-28 tools/call over %s', (fixture) => {
  const isHttp = fixture.startsWith('http');

  describe.each(PATHS)('%s path', (via) => {
    it('add, echo and fail give their exact results, with the envelope the SDK sends', async () => {
      const { session, sent } = await open(fixture, via);
      expect(await session.callTool('add', { a: 2, b: 3 }, {})).toEqual({
        content: [{ type: 'text', text: '5' }],
        structuredContent: { sum: 5 },
        _meta: serverInfo,
      });
      expect(await session.callTool('echo', { text: 'hé' }, {})).toEqual({
        content: [{ type: 'text', text: 'echo: hé' }],
        _meta: serverInfo,
      });
      expect(await session.callTool('fail', { message: 'nope' }, {})).toEqual({
        content: [{ type: 'text', text: 'nope' }],
        isError: true,
        _meta: serverInfo,
      });
      const [first] = calls(sent);
      expect(first?.message.params).toEqual({
        name: 'add',
        arguments: { a: 2, b: 3 },
        _meta: {
          'io.modelcontextprotocol/protocolVersion': '2026-07-28',
          'io.modelcontextprotocol/clientInfo': CLIENT,
          'io.modelcontextprotocol/clientCapabilities': {},
        },
      });
      // The envelope as the SDK builds it, key order included.
      const discover = sent.find((s) => s.message.method === 'server/discover');
      const meta = (first?.message.params as { _meta?: object } | undefined)?._meta;
      expect(JSON.stringify(meta)).toBe(
        JSON.stringify((discover?.message.params as { _meta: object } | undefined)?._meta ?? meta),
      );
    });

    it('an unknown tool is the same JSON-RPC error', async () => {
      const { session } = await open(fixture, via);
      expect(await failure(session.callTool('nope', {}, {}))).toEqual({
        message:
          'MCP server "test": tools/call "nope" failed: server returned JSON-RPC error -32602: Tool nope not found',
        kind: 'jsonrpc',
        reason: 'server returned JSON-RPC error -32602: Tool nope not found',
        server: 'test',
        method: 'tools/call',
        toolName: 'nope',
        code: -32602,
        data: undefined,
        timeoutMs: undefined,
        status: undefined,
        reissue: undefined,
        inputRounds: undefined,
        inputMethod: undefined,
      });
    });

    it('progress arrives whole without delay, then the result', async () => {
      const { session } = await open(fixture, via);
      const seen: Progress[] = [];
      const result = await session.callTool('progress', { steps: 3 }, { onprogress: (p) => seen.push(p) });
      expect(result.content).toEqual([{ type: 'text', text: 'done after 3 steps' }]);
      expect(seen).toEqual([
        { progress: 1, total: 3, message: 'step 1' },
        { progress: 2, total: 3, message: 'step 2' },
        { progress: 3, total: 3, message: 'step 3' },
      ]);
    });

    it('a timeout fails the call and cancels it the transport’s way', async () => {
      const { session, sent } = await open(fixture, via);
      expect(await failure(session.callTool('slow', { ms: 30_000 }, { timeoutMs: 150 }))).toMatchObject({
        kind: 'timeout',
        reason: 'timed out after 150 ms',
        server: 'test',
        method: 'tools/call',
        toolName: 'slow',
        timeoutMs: 150,
      });
      await expectCancelled(fixture, sent);
    });

    it('maxTotalTimeoutMs bounds the call exactly', async () => {
      const { session } = await open(fixture, via);
      expect(
        await failure(session.callTool('slow', { ms: 30_000 }, { maxTotalTimeoutMs: 150 })),
      ).toMatchObject({
        kind: 'timeout',
        reason: 'timed out: exceeded maxTotalTimeout of 150 ms',
        timeoutMs: 150,
      });
    });

    it('an abort fails the call at once and cancels it', async () => {
      const { session, sent } = await open(fixture, via);
      const controller = new AbortController();
      const pending = session.callTool('slow', { ms: 30_000 }, { signal: controller.signal });
      setTimeout(() => controller.abort('stop'), 100);
      expect(await failure(pending)).toMatchObject({
        kind: 'aborted',
        reason: 'aborted (stop)',
        method: 'tools/call',
        toolName: 'slow',
      });
      await expectCancelled(fixture, sent);
    });

    it('confirm is answered through onElicitation, re-sent with inputResponses on a new id', async () => {
      const asked: unknown[] = [];
      const { session, sent } = await open(fixture, via, {
        onElicitation: async (params) => {
          asked.push(params.message);
          return { action: 'accept', content: { confirm: true } };
        },
      });
      const result = await session.callTool('confirm', { action: 'deploy' }, {});
      expect(result.content).toEqual([{ type: 'text', text: 'confirmed deploy' }]);
      expect(asked).toEqual(['Confirm deploy?']);
      const legs = calls(sent);
      expect(legs).toHaveLength(2);
      expect(legs[0]?.message.id).not.toEqual(legs[1]?.message.id);
      expect(legs[1]?.message.params).toEqual({
        name: 'confirm',
        arguments: { action: 'deploy' },
        inputResponses: { confirm: { action: 'accept', content: { confirm: true } } },
        _meta: {
          'io.modelcontextprotocol/protocolVersion': '2026-07-28',
          'io.modelcontextprotocol/clientInfo': CLIENT,
          'io.modelcontextprotocol/clientCapabilities': { elicitation: { form: {} } },
        },
      });
    });

    it('confirm without onElicitation: the server refuses with -32021 (the capability is not declared)', async () => {
      const { session } = await open(fixture, via);
      expect(await failure(session.callTool('confirm', { action: 'deploy' }, {}))).toMatchObject({
        kind: 'jsonrpc',
        code: -32021,
        data: { requiredCapabilities: { elicitation: { form: {} } } },
      });
    });

    it('several input requests and rounds: the same result and the same retries', async () => {
      const { session, sent } = await open(fixture, via, answerAll);
      const result = await session.callTool('survey', {}, {});
      expect(result.content).toEqual([{ type: 'text', text: 'Ada / fine / file:///r' }]);
      const legs = calls(sent);
      expect(legs.map((leg) => Object.keys(leg.message.params as object).sort())).toEqual([
        ['_meta', 'arguments', 'name'],
        ['_meta', 'arguments', 'inputResponses', 'name', 'requestState'],
        ['_meta', 'arguments', 'inputResponses', 'name', 'requestState'],
      ]);
      expect(new Set(legs.map((leg) => leg.message.id)).size).toBe(3);
    });

    it('the round bound gives the same error', async () => {
      const { session, sent } = await open(fixture, via, { ...answerAll, maxInputRounds: 2 });
      expect(await failure(session.callTool('nag', {}, {}))).toEqual({
        message: 'MCP server "test": tools/call "nag" failed: still required input after 2 rounds',
        kind: 'input_required',
        reason: 'still required input after 2 rounds',
        server: 'test',
        method: 'tools/call',
        toolName: 'nag',
        code: undefined,
        data: undefined,
        timeoutMs: undefined,
        status: undefined,
        reissue: undefined,
        inputRounds: 2,
        inputMethod: undefined,
      });
      expect(
        calls(sent).map((leg) => (leg.message.params as { requestState?: string }).requestState),
      ).toEqual([undefined, '1', '2']);
    });

    it('maxTotalTimeoutMs bounds the rounds and the handlers together', async () => {
      const { session } = await open(fixture, via, {
        onElicitation: () =>
          new Promise((resolve) =>
            setTimeout(() => resolve({ action: 'accept', content: { ok: 'y' } }), 400),
          ),
      });
      expect(await failure(session.callTool('state_echo', {}, { maxTotalTimeoutMs: 150 }))).toMatchObject({
        kind: 'timeout',
        reason: 'timed out: exceeded maxTotalTimeout of 150 ms',
        timeoutMs: 150,
      });
    });

    it('region_query: Mcp-Param-* headers over HTTP, none over stdio (metadata stays in the body)', async () => {
      const { session, sent } = await open(fixture, via);
      await session.listTools({});
      const server = isHttp ? httpServer(fixture) : undefined;
      if (server) server.requests.length = 0;
      const result = await session.callTool(
        'region_query',
        { region: 'Hello, 世界', query: 'q', limit: 5 },
        {},
      );
      expect(result.content).toEqual([{ type: 'text', text: 'Hello, 世界/5: q' }]);
      if (!server) {
        expect(calls(sent).map((s) => s.headers)).toEqual([undefined]);
        return;
      }
      const headers = Object.fromEntries(
        Object.entries(server.requests[0]?.headers ?? {}).filter(([name]) => name.startsWith('mcp-')),
      );
      expect(headers).toEqual({
        'mcp-protocol-version': '2026-07-28',
        'mcp-method': 'tools/call',
        'mcp-name': 'region_query',
        'mcp-param-region': '=?base64?SGVsbG8sIOS4lueVjA==?=',
        'mcp-param-limit': '5',
      });
    });
  });
});

/** stdio: `notifications/cancelled` naming the call, with the envelope; HTTP: the POST aborted, nothing sent. */
async function expectCancelled(fixture: Fixture, sent: Sent[]): Promise<void> {
  const call = calls(sent).at(-1);
  if (fixture.startsWith('stdio')) {
    const cancelled = sent.find((s) => s.message.method === 'notifications/cancelled');
    expect(cancelled?.message.params).toMatchObject({
      requestId: call?.message.id,
      _meta: {
        'io.modelcontextprotocol/protocolVersion': '2026-07-28',
        'io.modelcontextprotocol/clientInfo': CLIENT,
        'io.modelcontextprotocol/clientCapabilities': {},
      },
    });
    return;
  }
  expect(sent.some((s) => s.message.method === 'notifications/cancelled')).toBe(false);
  const server = httpServer(fixture);
  const post = () =>
    server.requests
      .filter((r) => r.body !== '' && (JSON.parse(r.body) as { id?: unknown }).id === call?.message.id)
      .at(-1);
  await expect.poll(() => post()?.aborted, { timeout: 5_000 }).toBe(true);
}
