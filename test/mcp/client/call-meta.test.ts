/**
 * A caller's `_meta` on a `tools/call` (`MCPToolCallOptions._meta`; MCP spec 2025-11-25, "Basic > General
 * fields > _meta"): sent with the request in both eras and on both 2026-07-28 paths, under the keys
 * agentwire puts there itself (progress token, the 2026-07-28 envelope), which a caller's key never
 * replaces; and an MCP tool's `ToolContext.idempotencyKey` sent as `dev.agentwire/idempotency-key`.
 */
import path from 'node:path';
import type { JSONRPCMessage } from '@modelcontextprotocol/client';
import { afterEach, describe, expect, it } from 'vitest';
import { IDEMPOTENCY_KEY_META_KEY } from '../../../src/mcp/adapter/idempotency-key.js';
import { MCPClient } from '../../../src/mcp/client/client.js';
import { Session, type SessionHooks } from '../../../src/mcp/session/session.js';
import { StdioTransport } from '../../../src/mcp/transports/stdio/stdio-transport.js';
import type { AgentwireTransport } from '../../../src/mcp/transports/transport.js';
import { ROOT, readLog, scripted, tempDir } from '../../helpers.js';

const FIXTURE_2026 = path.join(ROOT, 'test', 'fixtures', 'era2026', 'stdio-server.mjs');

/** What a caller asks for: one key of its own, and keys agentwire owns, which must not get through. */
const CALLER_META = {
  'com.example/trace-id': 'abc-123',
  progressToken: 'caller-token',
  'io.modelcontextprotocol/protocolVersion': '1999-01-01',
  'io.modelcontextprotocol/logLevel': 'debug',
  'dev.mcp/anything': 1,
};

const clients: MCPClient[] = [];
const sessions: Session[] = [];
const temps: (() => void)[] = [];
afterEach(async () => {
  await Promise.all(clients.splice(0).map((client) => client.disconnect()));
  await Promise.all(sessions.splice(0).map((session) => session.close()));
  for (const remove of temps.splice(0)) remove();
});

/** A client to the 2025-era scripted fixture, and the file its received messages go to. */
async function connect2025(): Promise<{ client: MCPClient; log: string }> {
  const temp = tempDir();
  temps.push(temp.remove);
  const log = path.join(temp.dir, 'received.log');
  const client = MCPClient.fromStdio(scripted({ FIXTURE_LOG: log }));
  clients.push(client);
  await client.connect();
  return { client, log };
}

/** The `tools/call` requests the fixture received. */
const callsIn = (log: string) => readLog(log).filter((message) => message.method === 'tools/call');

const hooks: SessionHooks = { onUnexpectedClose: () => {}, onToolListChanged: () => {}, onError: () => {} };

/** A 2026-07-28 session to the stdio fixture on `calls`, recording every message it sends. */
async function open2026(calls: 'direct' | 'funnel') {
  const sent: Record<string, unknown>[] = [];
  const create = (): AgentwireTransport => {
    const transport: AgentwireTransport = new StdioTransport({
      command: process.execPath,
      args: [FIXTURE_2026, '--modern-only'],
      serverName: 'test',
    });
    const send = transport.send.bind(transport);
    transport.send = (message: JSONRPCMessage, options) => {
      sent.push(message as unknown as Record<string, unknown>);
      return send(message, options);
    };
    return transport;
  };
  const session = await Session.open({
    server: 'test',
    clientInfo: { name: 'meta-test', version: '1.0.0' },
    createTransport: create,
    hooks,
    request: { timeoutMs: 20_000 },
    given: {},
    era: { probe: 'stdio', modernCalls: calls },
  });
  sessions.push(session);
  expect(session.protocolVersion).toBe('2026-07-28');
  return { session, sent };
}

describe('a per-call _meta on tools/call', () => {
  it('2025-11-25: goes out with the progress token, less the keys agentwire owns', async () => {
    const { client, log } = await connect2025();
    const result = await client.callTool(
      'echo',
      { text: 'hi' },
      { _meta: CALLER_META, onprogress: () => {} },
    );
    expect(result.content).toEqual([{ type: 'text', text: 'echo: hi' }]);
    await client.callTool('echo', { text: 'plain' });
    const [withMeta, plain] = callsIn(log);
    expect(withMeta?.params).toEqual({
      name: 'echo',
      arguments: { text: 'hi' },
      _meta: { 'com.example/trace-id': 'abc-123', progressToken: withMeta?.id },
    });
    expect(typeof withMeta?.id).toBe('string');
    expect(plain?.params).toEqual({ name: 'echo', arguments: { text: 'plain' } });
  });

  it('2025-11-25: a per-call _meta replaces the client default, and one with only owned keys sends none', async () => {
    const temp = tempDir();
    temps.push(temp.remove);
    const log = path.join(temp.dir, 'received.log');
    const client = MCPClient.fromStdio(scripted({ FIXTURE_LOG: log }), {
      callOptions: { _meta: { 'com.example/default': true } },
    });
    clients.push(client);
    await client.connect();
    await client.callTool('echo', { text: 'a' });
    await client.callTool('echo', { text: 'b' }, { _meta: { 'com.example/own': 2 } });
    await client.callTool('echo', { text: 'c' }, { _meta: { progressToken: 7 } });
    expect(callsIn(log).map((message) => message.params?._meta)).toEqual([
      { 'com.example/default': true },
      { 'com.example/own': 2 },
      undefined,
    ]);
  });

  for (const calls of ['direct', 'funnel'] as const) {
    it(`2026-07-28 (${calls} path): joins the envelope and the progress token, replacing neither`, async () => {
      const { session, sent } = await open2026(calls);
      await session.callTool('echo', { text: 'plain' }, {});
      const result = await session.callTool(
        'echo',
        { text: 'hi' },
        { _meta: CALLER_META, onprogress: () => {} },
      );
      expect(result.content).toEqual([{ type: 'text', text: 'echo: hi' }]);
      const [plain, withMeta] = sent.filter((message) => message.method === 'tools/call');
      const envelope = (plain?.params as { _meta: Record<string, unknown> } | undefined)?._meta ?? {};
      expect(envelope['io.modelcontextprotocol/protocolVersion']).toBe('2026-07-28');
      expect(Object.keys(envelope).sort()).toEqual([
        'io.modelcontextprotocol/clientCapabilities',
        'io.modelcontextprotocol/clientInfo',
        'io.modelcontextprotocol/protocolVersion',
      ]);
      expect(withMeta?.params).toEqual({
        name: 'echo',
        arguments: { text: 'hi' },
        _meta: { ...envelope, 'com.example/trace-id': 'abc-123', progressToken: withMeta?.id },
      });
    });
  }
});

describe('an MCP tool of a durable run', () => {
  it(`sends ToolContext.idempotencyKey as _meta ${IDEMPOTENCY_KEY_META_KEY}`, async () => {
    expect(IDEMPOTENCY_KEY_META_KEY).toBe('dev.agentwire/idempotency-key');
    const { client, log } = await connect2025();
    const echo = client.getTools().find((tool) => tool.name === 'echo');
    expect(await echo?.execute({ text: 'once' }, { idempotencyKey: 'run-1/turn-0/call-0' })).toBe(
      'echo: once',
    );
    expect(await echo?.execute({ text: 'keyless' })).toBe('echo: keyless');
    expect(callsIn(log).map((message) => message.params?._meta)).toEqual([
      { 'dev.agentwire/idempotency-key': 'run-1/turn-0/call-0' },
      undefined,
    ]);
  });
});
