/**
 * session/negotiate.ts through `Session.open` over our `StdioTransport`, with every message the client sent
 * recorded: the probe and the `initialize` fallback share one process; a -32022 answer is retried once with
 * the revision it names; pins speak only their revision.
 */
import path from 'node:path';
import type { JSONRPCMessage } from '@modelcontextprotocol/client';
import { afterEach, describe, expect, it } from 'vitest';
import type { MCPStdioServer } from '../../../src/mcp/config/server-spec.js';
import { MCPCallError } from '../../../src/mcp/protocol/errors.js';
import type { SessionEra } from '../../../src/mcp/session/negotiation/negotiate.js';
import { Session, type SessionHooks } from '../../../src/mcp/session/session.js';
import { StdioTransport } from '../../../src/mcp/transports/stdio/stdio-transport.js';
import { everythingStdio, ROOT, scripted } from '../../helpers.js';

const STDIO_SERVER = path.join(ROOT, 'test/fixtures/era2026/stdio-server.mjs');
const modernOnly: MCPStdioServer = { command: process.execPath, args: [STDIO_SERVER, '--modern-only'] };

const hooks: SessionHooks = { onUnexpectedClose: () => {}, onToolListChanged: () => {}, onError: () => {} };
const sessions: Session[] = [];
afterEach(async () => {
  await Promise.all(sessions.splice(0).map((session) => session.close()));
});

/** Opens a session to `server`, recording each transport made and each message sent with the pid it went to. */
async function open(server: MCPStdioServer, era: SessionEra, timeoutMs = 20_000) {
  const transports: StdioTransport[] = [];
  const sent: { method: string | undefined; id: unknown; pid: number | undefined; params: unknown }[] = [];
  const create = () => {
    const transport = new StdioTransport({ ...server, serverName: 'test' });
    const send = transport.send.bind(transport);
    transport.send = (message: JSONRPCMessage, ...rest) => {
      const m = message as { method?: string; id?: unknown; params?: unknown };
      sent.push({ method: m.method, id: m.id, pid: transport.pid, params: m.params });
      return send(message, ...rest);
    };
    transports.push(transport);
    return transport;
  };
  const opening = Session.open({
    server: 'test',
    clientInfo: { name: 'test', version: '1.0.0' },
    createTransport: create,
    hooks,
    request: { timeoutMs },
    era,
  });
  const session = await opening;
  sessions.push(session);
  return { session, transports, sent };
}

describe('negotiation over stdio', () => {
  it('falls back to initialize on the same process for server-everything (2025), after its -32601', async () => {
    const { session, transports, sent } = await open(everythingStdio(), { probe: 'stdio' });
    expect(session.protocolVersion).toBe('2025-11-25');
    expect(session.era).toBe('legacy');
    expect(transports).toHaveLength(1);
    const pid = transports[0]?.pid;
    expect(pid).toBeGreaterThan(0);
    expect(sent.map((m) => [m.method, m.pid])).toEqual([
      ['server/discover', pid],
      ['initialize', pid],
      ['notifications/initialized', pid],
    ]);
  });

  it('sends exactly the 2025 sequence after the probe (scripted server, ids unchanged)', async () => {
    const { sent } = await open(scripted(), { probe: 'stdio' });
    expect(sent.map((m) => [m.method, m.id])).toEqual([
      ['server/discover', expect.stringMatching(/^probe-\d+$/)],
      ['initialize', 0],
      ['notifications/initialized', undefined],
    ]);
  });

  it('falls back to initialize on the same process when the probe goes unanswered (connect timeout)', async () => {
    const started = Date.now();
    const { session, transports, sent } = await open(
      scripted({ FIXTURE_UNKNOWN_METHOD: 'silent' }),
      { probe: 'stdio' },
      400,
    );
    // The connect timeout is one deadline: the unanswered probe waits half of it, initialize the rest.
    expect(Date.now() - started).toBeGreaterThanOrEqual(190);
    expect(session.protocolVersion).toBe('2025-11-25');
    expect(transports).toHaveLength(1);
    const pid = transports[0]?.pid;
    expect(sent.map((m) => [m.method, m.pid])).toEqual([
      ['server/discover', pid],
      ['initialize', pid],
      ['notifications/initialized', pid],
    ]);
    expect((await session.listTools({})).map((tool) => tool.name)).toEqual([
      'echo',
      'sleep',
      'exit',
      'set-tools',
      'fail',
    ]);
  });

  it('starts the server once more, and sends initialize to it, when the process exits on the probe', async () => {
    const { session, transports, sent } = await open(scripted({ FIXTURE_UNKNOWN_METHOD: 'exit' }), {
      probe: 'stdio',
    });
    expect(session.protocolVersion).toBe('2025-11-25');
    expect(transports).toHaveLength(2);
    const [first, second] = transports.map((t) => t.pid);
    expect(first).not.toBe(second);
    // The dead probe process's transport was closed by the negotiation before the second one started.
    expect(transports[0]?.closeInfo?.kind).toBe('not_connected');
    expect(sent.map((m) => [m.method, m.pid])).toEqual([
      ['server/discover', first],
      ['initialize', second],
      ['notifications/initialized', second],
    ]);
    expect((await session.listTools({})).map((tool) => tool.name)).toContain('echo');
  });

  it('sends no probe when pinned to a 2025 revision, and offers only that revision', async () => {
    const { session, sent } = await open(scripted(), { probe: 'stdio', protocolVersion: '2025-06-18' });
    expect(session.protocolVersion).toBe('2025-06-18');
    expect(sent.map((m) => m.method)).toEqual(['initialize', 'notifications/initialized']);
    expect(sent[0]?.params).toMatchObject({ protocolVersion: '2025-06-18' });
  });

  it('retries a -32022 answer once with the revision it names (2027-01-01 → 2026-07-28)', async () => {
    const { session, sent } = await open(modernOnly, {
      probe: 'stdio',
      modernVersions: ['2027-01-01', '2026-07-28'],
    });
    expect(session.protocolVersion).toBe('2026-07-28');
    const probes = sent.filter((m) => m.method === 'server/discover');
    expect(probes.map((m) => (m.params as { _meta: Record<string, unknown> })._meta)).toEqual([
      {
        'io.modelcontextprotocol/protocolVersion': '2027-01-01',
        'io.modelcontextprotocol/clientInfo': { name: 'test', version: '1.0.0' },
        'io.modelcontextprotocol/clientCapabilities': {},
      },
      {
        'io.modelcontextprotocol/protocolVersion': '2026-07-28',
        'io.modelcontextprotocol/clientInfo': { name: 'test', version: '1.0.0' },
        'io.modelcontextprotocol/clientCapabilities': {},
      },
    ]);
    // Then the listen for the tools.listChanged the fixture declares (session/listen.ts).
    expect(sent.map((m) => m.method)).toEqual(['server/discover', 'server/discover', 'subscriptions/listen']);
  });

  it('carries the log level in _meta in 2026-07-28, and pings with server/discover', async () => {
    const { session, sent } = await open(modernOnly, { probe: 'stdio' });
    await session.setLogLevel('debug', {});
    await session.listTools({});
    await session.ping({});
    expect(sent[1]?.method).toBe('subscriptions/listen');
    const [list, ping] = sent
      .slice(2)
      .map((m) => [m.method, (m.params as { _meta: Record<string, unknown> })._meta]);
    expect(list).toEqual([
      'tools/list',
      expect.objectContaining({ 'io.modelcontextprotocol/logLevel': 'debug' }),
    ]);
    expect(ping?.[0]).toBe('server/discover');
    expect(sent.map((m) => m.method)).not.toContain('logging/setLevel');
  });

  it('fails with a typed error naming both lists when no revision is shared', async () => {
    const error = await open(modernOnly, { probe: 'stdio', modernVersions: ['2027-01-01'] }).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(MCPCallError);
    expect(error).toMatchObject({
      kind: 'protocol',
      code: -32022,
      method: 'server/discover',
      data: {
        supported: ['2026-07-28'],
        offered: ['2027-01-01', '2025-11-25', '2025-06-18', '2025-03-26', '2024-11-05'],
      },
    });
  });

  it('fails a 2026-07-28 pin against a 2025 server with kind protocol, no initialize sent', async () => {
    const transports: StdioTransport[] = [];
    const error = await Session.open({
      server: 'test',
      clientInfo: { name: 'test', version: '1.0.0' },
      createTransport: () => {
        const transport = new StdioTransport({ ...scripted(), serverName: 'test' });
        transports.push(transport);
        return transport;
      },
      hooks,
      request: { timeoutMs: 20_000 },
      era: { probe: 'stdio', protocolVersion: '2026-07-28' },
    }).catch((e: unknown) => e);
    expect(error).toMatchObject({ kind: 'protocol', method: 'server/discover' });
    expect(transports.map((t) => t.closeInfo?.kind)).toEqual(['not_connected']);
  });
});
