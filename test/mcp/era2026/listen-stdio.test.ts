/**
 * 2026-07-28 change notifications over stdio (session/listen.ts, client/subscriptions.ts), against the real
 * fixture with changeable tools, prompts and resources (test/fixtures/era2026/stdio-server.mjs `--changes`,
 * which records every line it reads with `--record`): one `subscriptions/listen`, the same events as in
 * 2025, subscriptions as re-opened listens whose predecessors are cancelled (stdio's way to end one), the set
 * listened for again after the server process is restarted, a server answering the listen with an error,
 * and `disconnect()` leaving no process. The dual-era fixture pinned to 2025-11-25 gives the same events
 * through `resources/subscribe` and unsolicited notifications, with no listen.
 */

import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { MCPClient, type MCPClientOptions } from '../../../src/mcp/client/client.js';
import { MCPCallError } from '../../../src/mcp/protocol/errors.js';
import { children, ROOT, tempDir, waitUntil } from '../../helpers.js';
import {
  cancelled,
  ENVELOPE,
  LIST_CHANGES,
  listens,
  next,
  pause,
  type Sent,
  watch,
} from './listen-helpers.js';

const STDIO_SERVER = path.join(ROOT, 'test/fixtures/era2026/stdio-server.mjs');
const temp = tempDir('agentwire-listen-');
afterAll(() => temp.remove());

const open: MCPClient[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((client) => client.disconnect()));
});

/** A client of a fresh `--changes` fixture process; `sent()` reads what the server received. */
function start(modernOnly: boolean, options: MCPClientOptions = {}, extra: string[] = []) {
  const record = path.join(temp.dir, `${randomUUID()}.jsonl`);
  const marker = `marker=${randomUUID()}`;
  const args = [STDIO_SERVER, '--changes', '--record', record, ...extra, marker];
  if (modernOnly) args.splice(1, 0, '--modern-only');
  const mcp = MCPClient.fromStdio(
    { command: process.execPath, args },
    { name: 'stdio', listChangedDebounceMs: 10, ...options },
  );
  open.push(mcp);
  const sent = (): Sent[] => {
    let text = '';
    try {
      text = readFileSync(record, 'utf8');
    } catch {
      return [];
    }
    return text
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line) as Sent);
  };
  return { mcp, sent, marker, seen: watch(mcp) };
}

describe.each([
  ['2026-only', true],
  ['dual-era', false],
])('the %s stdio fixture with changes', (_label, modernOnly) => {
  it('opens one subscriptions/listen, and reports tool, prompt and resource list changes', async () => {
    const { mcp, sent, seen } = start(modernOnly);
    await mcp.connect();
    const before = mcp.getTools();
    expect(sent().map((m) => m.method)).toEqual(['server/discover', 'subscriptions/listen', 'tools/list']);
    expect(sent()[1]).toEqual({
      jsonrpc: '2.0',
      id: 'listen:0',
      method: 'subscriptions/listen',
      params: { _meta: ENVELOPE, notifications: LIST_CHANGES },
    });

    const toolsChanged = next(mcp, 'toolsChanged');
    await mcp.callTool('change', { what: 'tool', name: 'extra' });
    await toolsChanged;
    const after = new Map(mcp.getTools().map((tool) => [tool.name, tool]));
    expect(after.size).toBe(before.length + 1);
    for (const tool of before) expect(after.get(tool.name)).toBe(tool);
    const promptsChanged = next(mcp, 'promptsChanged');
    await mcp.callTool('change', { what: 'prompt', name: 'second' });
    await promptsChanged;
    const resourcesChanged = next(mcp, 'resourcesChanged');
    await mcp.callTool('change', { what: 'resources', name: 'c' });
    await resourcesChanged;
    expect((await mcp.listPrompts()).map((p) => p.name)).toEqual(['greet', 'second']);
    expect((await mcp.listResources()).map((r) => r.uri)).toEqual([
      'fixture://a',
      'fixture://b',
      'fixture://c',
    ]);
    expect(seen).toEqual([
      ['toolsChanged', { added: ['extra'], removed: [], changed: [] }],
      ['promptsChanged', {}],
      ['resourcesChanged', {}],
    ]);
    expect(listens(sent())).toEqual([['listen:0', LIST_CHANGES]]);
  });

  it('subscribes and unsubscribes by re-opening the listen and cancelling the old one', async () => {
    const { mcp, sent, seen } = start(modernOnly);
    await mcp.connect();
    await mcp.subscribeResource('fixture://a');
    const subscribed = { ...LIST_CHANGES, resourceSubscriptions: ['fixture://a'] };
    expect(listens(sent())).toEqual([
      ['listen:0', LIST_CHANGES],
      ['listen:1', subscribed],
    ]);
    // The server reads the cancellation after the write that subscribeResource waited for.
    await waitUntil(() => cancelled(sent()).length === 1, 5000, 'the cancellation');
    expect(sent().find((m) => m.method === 'notifications/cancelled')).toEqual({
      jsonrpc: '2.0',
      method: 'notifications/cancelled',
      params: { requestId: 'listen:0', _meta: ENVELOPE },
    });

    const updated = next(mcp, 'resourceUpdated');
    await mcp.callTool('change', { what: 'resource', uri: 'fixture://b' });
    await mcp.callTool('change', { what: 'resource', uri: 'fixture://a' });
    await updated;
    expect((await mcp.readResource('fixture://a')).contents).toEqual([
      { uri: 'fixture://a', mimeType: 'text/plain', text: 'fixture://a v2' },
    ]);

    await mcp.unsubscribeResource('fixture://a');
    expect(listens(sent()).at(-1)).toEqual(['listen:2', LIST_CHANGES]);
    await waitUntil(() => cancelled(sent()).length === 2, 5000, 'the second cancellation');
    expect(cancelled(sent())).toEqual(['listen:0', 'listen:1']);
    const promptsChanged = next(mcp, 'promptsChanged');
    await mcp.callTool('change', { what: 'resource', uri: 'fixture://a' });
    await mcp.callTool('change', { what: 'prompt', name: 'later' });
    await promptsChanged;
    expect(seen).toEqual([
      ['resourceUpdated', { uri: 'fixture://a' }],
      ['promptsChanged', {}],
    ]);
  });

  it('listens for the subscribed URIs again after the server process is restarted', async () => {
    const { mcp, sent, marker, seen } = start(modernOnly, {
      reconnect: { enabled: true, initialDelayMs: 10 },
    });
    await mcp.connect();
    await mcp.subscribeResource('fixture://b');
    const [first] = children(marker);
    const reconnected = new Promise((resolve) => mcp.once('reconnected', resolve));
    process.kill(first as number, 'SIGKILL');
    await reconnected;
    const subscribed = { ...LIST_CHANGES, resourceSubscriptions: ['fixture://b'] };
    // The new process's listen (the record file is shared by both processes) carries the set.
    expect(listens(sent())).toEqual([
      ['listen:0', LIST_CHANGES],
      ['listen:1', subscribed],
      ['listen:0', subscribed],
    ]);
    const updated = next(mcp, 'resourceUpdated');
    await mcp.callTool('change', { what: 'resource', uri: 'fixture://b' });
    await updated;
    expect(seen).toEqual([['resourceUpdated', { uri: 'fixture://b' }]]);
  });

  it('keeps the connection when the server answers subscriptions/listen with an error, and says so', async () => {
    const { mcp, sent, seen } = start(modernOnly, {}, ['--max-subscriptions', '0']);
    await mcp.connect();
    expect(mcp.getState()).toBe('connected');
    expect((await mcp.callTool('add', { a: 2, b: 2 })).structuredContent).toEqual({ sum: 4 });
    const error = await mcp.subscribeResource('fixture://a').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(MCPCallError);
    expect(error).toMatchObject({
      kind: 'jsonrpc',
      code: -32603,
      method: 'subscriptions/listen',
      server: 'stdio',
    });
    await pause(600);
    expect(listens(sent())).toHaveLength(2);
    expect(seen).toEqual([
      [
        'log',
        {
          level: 'warn',
          message:
            'MCP server "stdio": the server answered subscriptions/listen with JSON-RPC error -32603; change notifications are off for this connection',
        },
      ],
    ]);
  });

  it('leaves no process behind on disconnect()', async () => {
    const { mcp, sent, marker } = start(modernOnly);
    await mcp.connect();
    await mcp.subscribeResource('fixture://a');
    await mcp.disconnect();
    await waitUntil(() => children(marker).length === 0, 5000, 'the server to exit');
    // The process is ended with the stream: nothing is cancelled on the way out.
    expect(cancelled(sent())).toEqual(['listen:0']);
  });
});

describe('the dual-era stdio fixture pinned to 2025-11-25', () => {
  it('reports the same events through resources/subscribe and unsolicited notifications, with no listen', async () => {
    const { mcp, sent, seen } = start(false, { protocolVersion: '2025-11-25' });
    await mcp.connect();
    await mcp.subscribeResource('fixture://a');
    const toolsChanged = next(mcp, 'toolsChanged');
    await mcp.callTool('change', { what: 'tool', name: 'extra' });
    await toolsChanged;
    const updated = next(mcp, 'resourceUpdated');
    await mcp.callTool('change', { what: 'resource', uri: 'fixture://b' });
    await mcp.callTool('change', { what: 'resource', uri: 'fixture://a' });
    await updated;
    await mcp.unsubscribeResource('fixture://a');
    const promptsChanged = next(mcp, 'promptsChanged');
    await mcp.callTool('change', { what: 'resource', uri: 'fixture://a' });
    await mcp.callTool('change', { what: 'prompt', name: 'second' });
    await promptsChanged;
    expect(seen).toEqual([
      ['toolsChanged', { added: ['extra'], removed: [], changed: [] }],
      ['resourceUpdated', { uri: 'fixture://a' }],
      ['promptsChanged', {}],
    ]);
    expect(listens(sent())).toEqual([]);
    expect(sent().filter((m) => m.method?.startsWith('resources/'))).toEqual([
      { method: 'resources/subscribe', params: { uri: 'fixture://a' }, jsonrpc: '2.0', id: 2 },
      { method: 'resources/unsubscribe', params: { uri: 'fixture://a' }, jsonrpc: '2.0', id: 4 },
    ]);
  });
});
