/**
 * The 2026-07-28 tasks extension `io.modelcontextprotocol/tasks` against a server built with the official
 * SDK's server package (test/fixtures/era2026/tasks-server.mjs, @modelcontextprotocol/server 2.4.0), over
 * stdio and Streamable HTTP (through the recording proxy, which can also cut a response in flight).
 */
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { MCPClient, type MCPClientOptions } from '../../../src/mcp/client/client.js';
import { MCPCallError } from '../../../src/mcp/protocol/errors.js';
import type { MCPTask } from '../../../src/mcp/protocol/tasks.js';
import type { Progress } from '../../../src/mcp/protocol/types.js';
import { type CuttingProxy, cutFirst, startCuttingProxy } from '../../fixtures/era2026/cutting-proxy.js';
import { type Era2026HttpServer, startEra2026Http } from '../../fixtures/era2026/http-server.js';
import { createTasksServer, TASKS_EXTENSION } from '../../fixtures/era2026/tasks-server.mjs';
import { ROOT, tempDir, waitUntil } from '../../helpers.js';

const SCRIPT = path.join(ROOT, 'test', 'fixtures', 'era2026', 'tasks-server.mjs');
const textOf = (result: { content: unknown[] }) => (result.content as { text?: string }[])[0]?.text;

let server: Era2026HttpServer;
let proxy: CuttingProxy;
beforeAll(async () => {
  server = await startEra2026Http({ modernOnly: true, createServer: createTasksServer });
  proxy = await startCuttingProxy(server.url);
});
afterAll(async () => {
  await proxy?.close();
  await server?.close();
});
const open: MCPClient[] = [];
afterEach(async () => {
  proxy.cut = () => false;
  await Promise.all(open.splice(0).map((client) => client.disconnect()));
});

const connect = async (client: MCPClient) => {
  open.push(client);
  await client.connect();
  expect(client.getProtocolVersion()).toBe('2026-07-28');
  return client;
};
const clients: [string, (options?: MCPClientOptions) => Promise<MCPClient>][] = [
  [
    'stdio',
    (options = {}) =>
      connect(MCPClient.fromStdio({ command: process.execPath, args: [SCRIPT] }, { ...options })),
  ],
  ['Streamable HTTP', (options = {}) => connect(MCPClient.fromUrl(proxy.url, options))],
];

/** The ids the server has cancelled so far (its `cancelled` tool). */
async function cancelledOn(client: MCPClient): Promise<string[]> {
  const text = textOf(await client.callTool('cancelled', {})) ?? '';
  return text === '' ? [] : text.split(',');
}

describe.each(clients)('the tasks extension over %s', (_name, start) => {
  it('drives a task the server returns for tools/call: statuses as progress, the exact final result', async () => {
    const client = await start();
    const progress: Progress[] = [];
    const statuses: MCPTask[] = [];
    const result = await client.callTool(
      'research',
      { topic: 'tides', steps: 3, stepMs: 400 },
      { onprogress: (p) => progress.push(p), onTaskStatus: (t) => statuses.push(t) },
    );
    expect(result).toEqual({ content: [{ type: 'text', text: 'researched tides in 3 steps' }] });
    // The first status is the created task's; polls every 50 ms see each 400 ms step.
    expect(progress).toEqual([
      { progress: 1, message: 'task working: step 1 of 3' },
      { progress: 2, message: 'task working: step 2 of 3' },
      { progress: 3, message: 'task working: step 3 of 3' },
      { progress: 4, message: 'task completed: step 3 of 3' },
    ]);
    expect(statuses.map((s) => s.status)).toEqual(['working', 'working', 'working', 'completed']);
    expect(statuses[0]).toMatchObject({ ttlMs: 60_000, pollIntervalMs: 50 });
    expect(new Set(statuses.map((s) => s.taskId)).size).toBe(1);
  });

  it('answers input_required through onElicitation and tasks/update', async () => {
    const asked: unknown[] = [];
    const client = await start({
      onElicitation: async (params) => {
        asked.push(params);
        return { action: 'accept', content: { confirm: asked.length === 1 } };
      },
    });
    expect(textOf(await client.callTool('approve', { action: 'deploy' }))).toBe('approved deploy');
    expect(textOf(await client.callTool('approve', { action: 'delete' }))).toBe('rejected delete');
    expect(asked).toEqual([
      {
        mode: 'form',
        message: 'Approve deploy?',
        requestedSchema: {
          type: 'object',
          properties: { confirm: { type: 'boolean', title: 'Confirm' } },
          required: ['confirm'],
        },
      },
      expect.objectContaining({ message: 'Approve delete?' }),
    ]);
  });

  it('a failed task rejects with its JSON-RPC error and the task id', async () => {
    const client = await start();
    const error = await client.callTool('crash', { message: 'disk full' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(MCPCallError);
    expect(error).toMatchObject({ kind: 'jsonrpc', code: -32000, toolName: 'crash' });
    expect((error as MCPCallError).reason).toBe('server returned JSON-RPC error -32000: disk full');
    expect((error as MCPCallError).taskId).toMatch(/^task-\d+$/);
  });

  it('an abort cancels the task on the server (tasks/cancel)', async () => {
    const client = await start();
    const call = client.callToolAsTask('forever', {});
    await waitUntil(() => call.task !== undefined, 5_000, 'the task');
    const taskId = call.task?.taskId as string;
    call.cancel(new Error('stop'));
    await expect(call.result).rejects.toMatchObject({ kind: 'aborted', taskId, reason: 'aborted (stop)' });
    await waitUntil(() => call.task !== undefined, 5_000, 'the task');
    const deadline = Date.now() + 5_000;
    while (!(await cancelledOn(client)).includes(taskId) && Date.now() < deadline)
      await new Promise((resolve) => setTimeout(resolve, 20));
    expect(await cancelledOn(client)).toContain(taskId);
  });

  it('taskTimeoutMs ends a task that never finishes: kind timeout, and tasks/cancel', async () => {
    const client = await start();
    const error = await client.callTool('forever', {}, { taskTimeoutMs: 300 }).catch((e: unknown) => e);
    expect(error).toMatchObject({ kind: 'timeout', timeoutMs: 300, toolName: 'forever' });
    const taskId = (error as MCPCallError).taskId as string;
    expect((error as MCPCallError).reason).toBe(`task "${taskId}" did not end within 300 ms (taskTimeoutMs)`);
    const deadline = Date.now() + 5_000;
    while (!(await cancelledOn(client)).includes(taskId) && Date.now() < deadline)
      await new Promise((resolve) => setTimeout(resolve, 20));
    expect(await cancelledOn(client)).toContain(taskId);
  });

  it('an ordinary tool answers at once', async () => {
    const client = await start();
    const result = await client.callTool('quick', { text: 'hi' });
    expect(result.content).toEqual([{ type: 'text', text: 'quick: hi' }]);
  });
});

describe('the extension on the wire (Streamable HTTP)', () => {
  it('is declared in the tools/call and tasks/* capabilities, to a server that advertised it', async () => {
    const from = proxy.seen.length;
    const client = await clients[1]?.[1]();
    await client?.callTool('research', { topic: 'x', steps: 1, stepMs: 10 });
    const seen = proxy.seen.slice(from);
    const declared = (m: (typeof seen)[number]) => {
      const meta = m.params?._meta as Record<string, { extensions?: Record<string, unknown> }> | undefined;
      return meta?.['io.modelcontextprotocol/clientCapabilities']?.extensions?.[TASKS_EXTENSION];
    };
    const calls = seen.filter((m) => m.method === 'tools/call' || m.method?.startsWith('tasks/'));
    expect(calls.length).toBeGreaterThanOrEqual(2);
    for (const call of calls) expect(declared(call)).toEqual({});
    expect(seen.filter((m) => m.method === 'server/discover').every((m) => !declared(m))).toBe(true);
  });

  it('a poll whose response is lost in flight does not end the task: the next poll goes on', async () => {
    const client = await clients[1]?.[1]();
    proxy.cut = cutFirst('tasks/get');
    const result = await client?.callTool('research', { topic: 'tides', steps: 3, stepMs: 100 });
    expect(result).toEqual({ content: [{ type: 'text', text: 'researched tides in 3 steps' }] });
    expect(proxy.seen.filter((m) => m.method === 'tasks/get' && m.cut)).toHaveLength(1);
  });
});

describe('a reconnect (stdio, the server restarted)', () => {
  it('does not end the task: the client polls the same task on the new connection to its result', async () => {
    const dir = tempDir('agentwire-tasks-state-');
    try {
      const state = path.join(dir.dir, 'state.json');
      const client = await connect(
        MCPClient.fromStdio(
          { command: process.execPath, args: [SCRIPT, `--state=${state}`] },
          { reconnect: { enabled: true, initialDelayMs: 10 } },
        ),
      );
      let reconnected = 0;
      client.on('reconnected', () => reconnected++);
      const statuses: MCPTask[] = [];
      const call = client
        .callTool(
          'research',
          { topic: 'tides', steps: 4, stepMs: 500 },
          { onTaskStatus: (t) => statuses.push(t) },
        )
        .catch((error: unknown) => error);
      await waitUntil(() => statuses.length > 0, 5_000, 'the task');
      // The server process ends mid-task (a crash); the task lives on in its state.
      await client.callTool('exit', {}, { retryOnReconnect: false }).catch(() => {});
      expect(await call).toEqual({ content: [{ type: 'text', text: 'researched tides in 4 steps' }] });
      expect(reconnected).toBe(1);
      expect(new Set(statuses.map((s) => s.taskId)).size).toBe(1);
      expect(statuses.at(-1)?.status).toBe('completed');
    } finally {
      dir.remove();
    }
  });
});
