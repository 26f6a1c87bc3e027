import { randomUUID } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { MCPClient, type MCPClientOptions } from '../../../src/mcp/client/client.js';
import type { MCPClientEvents } from '../../../src/mcp/client/events.js';
import { MCPCallError } from '../../../src/mcp/protocol/errors.js';
import { killAllWith } from '../../fixtures/processes.js';
import { readLog, scripted, tempDir, waitUntil } from '../../helpers.js';

const open: MCPClient[] = [];
const cleanups: (() => void)[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((client) => client.disconnect()));
  for (const cleanup of cleanups.splice(0)) cleanup();
});

type Recorded = { [E in keyof MCPClientEvents]: [E, MCPClientEvents[E]] }[keyof MCPClientEvents];

function record(client: MCPClient): Recorded[] {
  const events: Recorded[] = [];
  for (const name of [
    'connected',
    'disconnected',
    'reconnecting',
    'reconnected',
    'toolsChanged',
    'log',
    'error',
  ] as const) {
    client.on(name, (payload: unknown) => events.push([name, payload] as Recorded));
  }
  return events;
}

type Env = Record<string, string> | ((dir: string) => Record<string, string>);

function setup(env: Env = {}, options: MCPClientOptions = {}) {
  const { dir, remove } = tempDir();
  cleanups.push(remove);
  const log = path.join(dir, 'log.jsonl');
  const marker = `marker=${randomUUID()}`;
  const server = scripted({ FIXTURE_LOG: log, ...(typeof env === 'function' ? env(dir) : env) });
  server.args = [...(server.args ?? []), marker];
  const client = MCPClient.fromStdio(server, options);
  open.push(client);
  const kill = () => killAllWith(marker);
  return { client, log, dir, kill, events: record(client) };
}

const fastReconnect = { enabled: true, initialDelayMs: 20, maxDelayMs: 50, maxRetries: 3 };

describe('reconnection', () => {
  it('respawns a killed stdio server; the readOnlyHint call in flight completes on the new one', async () => {
    const sleep = { name: 'sleep', inputSchema: { type: 'object' }, annotations: { readOnlyHint: true } };
    const env = { FIXTURE_TOOLS: JSON.stringify([sleep]) };
    const { client, kill, events } = setup(env, { reconnect: fastReconnect });
    await client.connect();
    const echoBefore = client.getTools()[0]!;
    const pending = client.callTool('sleep', { ms: 300 });
    await new Promise((resolve) => setTimeout(resolve, 50));
    kill();
    const result = await pending;
    expect(result.content).toEqual([{ type: 'text', text: 'slept 300' }]);
    expect(client.getState()).toBe('connected');
    expect(client.getTools()[0]).toBe(echoBefore);
    expect(events.map(([name]) => name)).toEqual([
      'connected',
      'disconnected',
      'reconnecting',
      'reconnected',
    ]);
    const disconnected = events[1]![1] as MCPClientEvents['disconnected'];
    expect(disconnected.deliberate).toBe(false);
    expect(disconnected.willReconnect).toBe(true);
    expect((disconnected.error as MCPCallError).kind).toBe('connection_closed');
    expect((disconnected.error as MCPCallError).signal).toBe('SIGKILL');
    expect((events[2]![1] as MCPClientEvents['reconnecting']).attempt).toBe(1);
  });

  it('fails a call in flight on a killed stdio server as may_have_run when its tool has no safety hints', async () => {
    const { client, kill } = setup({}, { reconnect: fastReconnect });
    await client.connect();
    const pending = client.callTool('sleep', { ms: 300 }).catch((e: unknown) => e);
    await new Promise((resolve) => setTimeout(resolve, 50));
    kill();
    const error = (await pending) as MCPCallError;
    expect([error.kind, error.method, error.toolName, error.signal]).toEqual([
      'may_have_run',
      'tools/call',
      'sleep',
      'SIGKILL',
    ]);
    await expect.poll(() => client.getState()).toBe('connected');
  });

  it('does not resend a call whose options say retryOnReconnect: false', async () => {
    const { client, kill, log } = setup({}, { reconnect: fastReconnect });
    await client.connect();
    const pending = client.callTool('sleep', { ms: 300 }, { retryOnReconnect: false }).catch((e) => e);
    await new Promise((resolve) => setTimeout(resolve, 50));
    kill();
    const error = (await pending) as MCPCallError;
    expect(error.kind).toBe('connection_closed');
    await waitUntil(() => client.getState() === 'connected', 3000, 'reconnected');
    expect(readLog(log).filter((m) => m.method === 'tools/call')).toHaveLength(1);
  });

  it('is a Node EventEmitter', async () => {
    const client = MCPClient.fromStdio(scripted());
    const { EventEmitter } = await import('node:events');
    expect(client).toBeInstanceOf(EventEmitter);
    // With no listener, an error event is dropped instead of thrown (it would crash the host).
    expect(client.emit('error', new Error('nobody listens'))).toBe(false);
  });

  it('makes a call issued during the reconnect wait for it', async () => {
    const { client, kill } = setup(
      {},
      { reconnect: { ...fastReconnect, initialDelayMs: 200, maxDelayMs: 200 } },
    );
    await client.connect();
    kill();
    await waitUntil(() => client.getState() === 'reconnecting', 2000, 'reconnecting');
    const result = await client.callTool('echo', { text: 'after restart' });
    expect(result.content).toEqual([{ type: 'text', text: 'echo: after restart' }]);
  });

  it('gives up after maxRetries: state failed, waiting calls fail with the last cause', async () => {
    const { client, kill, dir, events } = setup(
      (tmp) => ({ FIXTURE_EXIT_IF_FILE: path.join(tmp, 'refuse') }),
      { reconnect: { ...fastReconnect, maxRetries: 2 } },
    );
    const refuse = path.join(dir, 'refuse');
    await client.connect();
    writeFileSync(refuse, '');
    kill();
    await waitUntil(() => client.getState() === 'reconnecting', 2000, 'reconnecting');
    const error = (await client.callTool('echo', { text: 'x' }).catch((e) => e)) as MCPCallError;
    expect(client.getState()).toBe('failed');
    expect(error).toBeInstanceOf(MCPCallError);
    expect(error.kind).toBe('connection_closed');
    expect(error.exitCode).toBe(3);
    expect(error.stderrTail).toEqual(['refusing to start']);
    expect(events.filter(([name]) => name === 'reconnecting')).toHaveLength(2);
    expect(events.at(-1)![0]).toBe('error');
  });

  it('reports an unexpected loss without reconnection as failed, not deliberate', async () => {
    const { client, kill, events } = setup();
    await client.connect();
    kill();
    await waitUntil(() => client.getState() === 'failed', 2000, 'failed');
    expect(events.map(([name]) => name)).toEqual(['connected', 'disconnected']);
    expect(events[1]![1]).toMatchObject({ deliberate: false, willReconnect: false });
    const error = (await client.callTool('echo', { text: 'x' }).catch((e) => e)) as MCPCallError;
    expect(error.kind).toBe('not_connected');
  });

  it('disconnect() cancels a pending reconnect and fails waiting calls', async () => {
    const { client, kill, events } = setup(
      {},
      { reconnect: { ...fastReconnect, initialDelayMs: 10_000, maxDelayMs: 10_000 } },
    );
    await client.connect();
    kill();
    await waitUntil(() => client.getState() === 'reconnecting', 2000, 'reconnecting');
    const waiting = client.callTool('echo', { text: 'x' }).catch((e) => e);
    await client.disconnect();
    const error = (await waiting) as MCPCallError;
    expect(error.kind).toBe('not_connected');
    expect(client.getState()).toBe('disconnected');
    expect(client.getTools()).toEqual([]);
    expect(events.map(([name]) => name)).toEqual([
      'connected',
      'disconnected',
      'reconnecting',
      'disconnected',
    ]);
    expect(events.at(-1)![1]).toEqual({ deliberate: true, willReconnect: false });
  });
});

describe('tools/list_changed', () => {
  const tool = (name: string, description = name) => ({ name, description, inputSchema: { type: 'object' } });

  it('re-lists, keeps unchanged tools identical, and reports added, removed and changed', async () => {
    const { client, events } = setup({
      FIXTURE_TOOLS: JSON.stringify([tool('echo'), tool('set-tools'), tool('old'), tool('sleep')]),
    });
    await client.connect();
    const [echo, setTools, , sleep] = client.getTools();
    const changed = new Promise<MCPClientEvents['toolsChanged']>((resolve) =>
      client.once('toolsChanged', resolve),
    );
    await client.callTool('set-tools', {
      tools: [tool('echo'), tool('set-tools'), tool('sleep', 'sleeps longer'), tool('new')],
    });
    const diff = await changed;
    expect(diff.tools.map((t) => t.name)).toEqual(['echo', 'set-tools', 'sleep', 'new']);
    expect(diff.tools[0]).toBe(echo);
    expect(diff.tools[1]).toBe(setTools);
    expect(diff.tools[2]).not.toBe(sleep);
    expect(diff.tools[2]!.description).toBe('sleeps longer');
    expect(diff.added.map((t) => t.name)).toEqual(['new']);
    expect(diff.removed.map((t) => t.name)).toEqual(['old']);
    expect(diff.changed.map((t) => t.name)).toEqual(['sleep']);
    expect(client.getTools()).toEqual(diff.tools);
    expect(events.filter(([name]) => name === 'log')).toEqual([]);
  });

  it('keeps the first of two tools with one name, and says so', async () => {
    const { client, events } = setup({
      FIXTURE_TOOLS: JSON.stringify([tool('a', 'first'), tool('a', 'second')]),
    });
    await client.connect();
    expect(client.getTools().map((t) => t.description)).toEqual(['first']);
    expect(events.find(([name]) => name === 'log')).toEqual([
      'log',
      {
        level: 'warn',
        message: 'MCP server "scripted-server" lists more than one tool named "a"; keeping the first of each',
      },
    ]);
  });

  it('folds a burst of notifications into one re-list', async () => {
    const { client, log } = setup({ FIXTURE_TOOLS: JSON.stringify([tool('set-tools')]) });
    await client.connect();
    const changed = new Promise((resolve) => client.once('toolsChanged', resolve));
    await client.callTool('set-tools', { tools: [tool('set-tools'), tool('x')], notify: 5 });
    await changed;
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(readLog(log).filter((m) => m.method === 'tools/list')).toHaveLength(2);
  });

  it('follows a server that sends list_changed without advertising it, and says so', async () => {
    const { client, events } = setup({
      FIXTURE_TOOLS: JSON.stringify([tool('set-tools')]),
      FIXTURE_ADVERTISE_LIST_CHANGED: '0',
    });
    await client.connect();
    const changed = new Promise((resolve) => client.once('toolsChanged', resolve));
    await client.callTool('set-tools', { tools: [tool('set-tools'), tool('y')] });
    await changed;
    expect(client.getTools().map((t) => t.name)).toEqual(['set-tools', 'y']);
    expect(events.find(([name]) => name === 'log')).toEqual([
      'log',
      {
        level: 'warn',
        message:
          'MCP server "scripted-server" sent notifications/tools/list_changed without advertising tools.listChanged; following it anyway',
      },
    ]);
  });

  it('does not refresh when refreshToolsOnListChanged is false, but refreshTools() does', async () => {
    const { client, log } = setup(
      { FIXTURE_TOOLS: JSON.stringify([tool('set-tools')]) },
      { refreshToolsOnListChanged: false },
    );
    await client.connect();
    await client.callTool('set-tools', { tools: [tool('set-tools'), tool('z')] });
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(readLog(log).filter((m) => m.method === 'tools/list')).toHaveLength(1);
    expect((await client.refreshTools()).map((t) => t.name)).toEqual(['set-tools', 'z']);
  });
});
