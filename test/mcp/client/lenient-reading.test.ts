/**
 * Lenient reading: what real servers send that the specification does not quite allow is read the way the
 * server meant it, against scripted fixtures that send exactly that. A `null` cursor ends a list; `''` ends it
 * in the 2025 era (in 2026-07-28 it is a cursor: test/mcp/era2026/caching.test.ts, "follows an empty-string
 * cursor to the end"); a tool whose definition cannot be used is left out with a warning, the others kept;
 * an HTTP header a proxy repeated (`Mcp-Session-Id: a, a`) is read once.
 */
import { randomUUID } from 'node:crypto';
import { rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { MCPClient } from '../../../src/mcp/client/client.js';
import type { MCPClientLogEntry } from '../../../src/mcp/client/events.js';
import { HttpFixture, initializeResult, respondJson, textResult } from '../../fixtures/http-server.js';
import { ROOT, readLog, scripted } from '../../helpers.js';

const open: MCPClient[] = [];
const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((client) => client.disconnect()));
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

const RAW_2026 = path.join(ROOT, 'test/fixtures/era2026/raw-server.mjs');

const tool = (name: string, inputSchema: unknown = { type: 'object' }) => ({ name, inputSchema });

/** A client of the scripted stdio server with `env`, the file it logs to, and the client's log events. */
function scriptedClient(env: Record<string, string>) {
  const log = path.join(tmpdir(), `agentwire-lenient-${randomUUID()}.jsonl`);
  cleanups.push(() => rmSync(log, { force: true }));
  const client = MCPClient.fromStdio(scripted({ ...env, FIXTURE_LOG: log }), { name: 'lenient' });
  open.push(client);
  const logs: MCPClientLogEntry[] = [];
  client.on('log', (entry) => logs.push(entry));
  return { client, log, logs };
}

/** The cursors of the `tools/list` requests the scripted server received, in order. */
function listCursors(log: string): unknown[] {
  return readLog(log)
    .filter((message) => message.method === 'tools/list')
    .map((message) => message.params?.cursor ?? null);
}

describe('list cursors as servers send them (2025 era)', () => {
  const FOUR = JSON.stringify(['a', 'b', 'c', 'd'].map((name) => tool(name)));

  it('ends a list at nextCursor: null', async () => {
    const { client, log } = scriptedClient({
      FIXTURE_TOOLS: FOUR,
      FIXTURE_PAGE_SIZE: '2',
      FIXTURE_END_CURSOR: 'null',
    });
    await client.connect();
    expect(client.getTools().map((t) => t.name)).toEqual(['a', 'b', 'c', 'd']);
    expect(listCursors(log)).toEqual([null, '2']);
  });

  it('ends a list at an empty-string nextCursor', async () => {
    const { client, log } = scriptedClient({
      FIXTURE_TOOLS: FOUR,
      FIXTURE_PAGE_SIZE: '2',
      FIXTURE_END_CURSOR: '""',
    });
    await client.connect();
    expect(client.getProtocolVersion()).toBe('2025-11-25');
    expect(client.getTools().map((t) => t.name)).toEqual(['a', 'b', 'c', 'd']);
    expect(listCursors(log)).toEqual([null, '2']);
  });
});

/**
 * In 2026-07-28 the SDK's result decoder would check a `tools/list` result against its own schema and refuse
 * the whole list for a `null` cursor or one unusable tool: lists take agentwire's direct path instead, so
 * that their results reach agentwire's lenient checks.
 */
describe('lenient lists in 2026-07-28', () => {
  const raw = (env: Record<string, string>) => {
    const log = path.join(tmpdir(), `agentwire-lenient-${randomUUID()}.jsonl`);
    cleanups.push(() => rmSync(log, { force: true }));
    const server = { command: process.execPath, args: [RAW_2026], env: { ...env, RAW_LOG: log } };
    const client = MCPClient.fromStdio(server, { name: 'raw', protocolVersion: '2026-07-28' });
    open.push(client);
    const logs: MCPClientLogEntry[] = [];
    client.on('log', (entry) => logs.push(entry));
    return { client, log, logs };
  };

  it('follows an empty-string cursor and ends the list at nextCursor: null', async () => {
    const { client, log } = raw({ RAW_PAGES: '1' });
    await client.connect();
    expect(client.getTools().map((t) => t.name)).toEqual([
      'ask_sampling',
      'bad_method',
      'odd_type',
      'no_type',
    ]);
    expect(listCursors(log)).toEqual([null, '']);
  });

  it('leaves out a tool whose inputSchema is null with a warning naming it and why, keeping the others', async () => {
    const { client, logs } = raw({ RAW_BAD_TOOL: '1' });
    await client.connect();
    expect(client.getProtocolVersion()).toBe('2026-07-28');
    expect(client.getTools().map((t) => t.name)).toEqual([
      'ask_sampling',
      'bad_method',
      'odd_type',
      'no_type',
    ]);
    expect(logs.filter((entry) => entry.level === 'warn')).toEqual([
      {
        level: 'warn',
        message: `MCP server "raw": tool "bad" is left out of the tool list: its definition is invalid ("inputSchema" is null, not an object)`,
      },
    ]);
  });
});

describe('tool definitions that cannot be used', () => {
  it('leaves each out with a warning naming it and why, and keeps the others', async () => {
    const tools = [
      tool('first'),
      tool('null_schema', null),
      tool('string_schema', 'object'),
      { description: 'a tool without a name', inputSchema: { type: 'object' } },
      'not a tool',
      tool('last'),
    ];
    const { client, logs } = scriptedClient({ FIXTURE_TOOLS: JSON.stringify(tools) });
    await client.connect();
    expect(client.getTools().map((t) => t.name)).toEqual(['first', 'last']);
    const left = 'is left out of the tool list: its definition is invalid';
    expect(logs.filter((entry) => entry.level === 'warn')).toEqual([
      {
        level: 'warn',
        message: `MCP server "lenient": tool "null_schema" ${left} ("inputSchema" is null, not an object)`,
      },
      {
        level: 'warn',
        message: `MCP server "lenient": tool "string_schema" ${left} ("inputSchema" is string, not an object)`,
      },
      { level: 'warn', message: `MCP server "lenient": tool "#3" ${left} (it has no string "name")` },
      { level: 'warn', message: `MCP server "lenient": tool "#4" ${left} (it is not an object)` },
    ]);
    // The good ones work.
    expect((await client.callTool('last')).content).toEqual([{ type: 'text', text: 'called last' }]);
  });

  it('warns again on a refresh that still lists it', async () => {
    const { client, logs } = scriptedClient({
      FIXTURE_TOOLS: JSON.stringify([tool('ok'), tool('bad', null)]),
    });
    await client.connect();
    await client.refreshTools();
    expect(client.getTools().map((t) => t.name)).toEqual(['ok']);
    expect(logs.filter((entry) => entry.level === 'warn').map((entry) => entry.message)).toEqual([
      'MCP server "lenient": tool "bad" is left out of the tool list: its definition is invalid ("inputSchema" is null, not an object)',
      'MCP server "lenient": tool "bad" is left out of the tool list: its definition is invalid ("inputSchema" is null, not an object)',
    ]);
  });
});

describe('HTTP headers a proxy repeated', () => {
  it('reads Mcp-Session-Id: a, a (and a repeated Content-Type) as one value', async () => {
    const fixture = await HttpFixture.start();
    cleanups.push(() => fixture.close());
    fixture.onMethod('initialize', (_req, res, message) => {
      res.setHeader('mcp-session-id', ['a', 'a']);
      res.setHeader('content-type', ['application/json', 'application/json']);
      res.writeHead(200).end(JSON.stringify(initializeResult(message)));
    });
    fixture.onMethod('tools/call', (_req, res, message) =>
      respondJson(res, { jsonrpc: '2.0', id: message.id, result: textResult('called') }),
    );
    const client = MCPClient.fromUrl(fixture.url, { name: 'proxied', protocolVersion: '2025-11-25' });
    open.push(client);
    await client.connect();
    expect(client.sessionId).toBe('a');
    await client.callTool('anything');
    const call = fixture.requestsFor('POST', 'tools/call')[0];
    expect(call?.headers['mcp-session-id']).toBe('a');
  });
});
