/**
 * Tasks by id outside any call: `MCPClient.listTasks`, `getTask`, `cancelTask` (MCP spec 2025-11-25,
 * "Basic > Utilities > Tasks": Listing, Getting, Cancelling Tasks; the 2026-07-28 tasks extension: `tasks/get`
 * and `tasks/cancel`, no list). Against the real server-everything (declares `tasks.list` and
 * `tasks.cancel`) over stdio and Streamable HTTP, server-memory (declares no tasks), and the 2026 fixture.
 */
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { MCPClient } from '../../../src/mcp/client/client.js';
import { MCPCallError } from '../../../src/mcp/protocol/errors.js';
import { type CuttingProxy, startCuttingProxy } from '../../fixtures/era2026/cutting-proxy.js';
import { type Era2026HttpServer, startEra2026Http } from '../../fixtures/era2026/http-server.js';
import { createTasksServer } from '../../fixtures/era2026/tasks-server.mjs';
import { type EverythingServer, startEverything } from '../../fixtures/http-everything.js';
import { EVERYTHING, MEMORY, ROOT, readLog, tempDir, waitUntil } from '../../helpers.js';

const TOOL = 'simulate-research-query';

let http: EverythingServer;
let everythingProxy: CuttingProxy;
let era2026: Era2026HttpServer;
let era2026Proxy: CuttingProxy;
const dir = tempDir('agentwire-task-requests-');
beforeAll(async () => {
  http = await startEverything('streamableHttp');
  everythingProxy = await startCuttingProxy(http.url);
  era2026 = await startEra2026Http({ modernOnly: true, createServer: createTasksServer });
  era2026Proxy = await startCuttingProxy(era2026.url);
}, 30_000);
afterAll(async () => {
  await everythingProxy?.close();
  await http?.stop();
  await era2026Proxy?.close();
  await era2026?.close();
  dir.remove();
});
const open: MCPClient[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((client) => client.disconnect()));
});
const connect = async (client: MCPClient) => {
  open.push(client);
  await client.connect();
  return client;
};

let logs = 0;
type Sent = { method?: string; params?: Record<string, unknown> }[];
const rigs: [string, () => { client: () => Promise<MCPClient>; sent: () => Sent }][] = [
  [
    'stdio',
    () => {
      const log = path.join(dir.dir, `sent-${++logs}.jsonl`);
      const tee = path.join(ROOT, 'test', 'fixtures', 'tee-stdio.mjs');
      const server = { command: process.execPath, args: [tee, log, process.execPath, EVERYTHING] };
      return { client: () => connect(MCPClient.fromStdio(server)), sent: () => readLog(log) as Sent };
    },
  ],
  [
    'Streamable HTTP',
    () => {
      const from = everythingProxy.seen.length;
      return {
        client: () => connect(MCPClient.fromUrl(everythingProxy.url)),
        sent: () => everythingProxy.seen.slice(from) as Sent,
      };
    },
  ],
];

describe.each(rigs)('server-everything (2025-11-25) over %s', (_name, makeRig) => {
  it('lists, gets and cancels a task by id: exact tasks, and the call sees the cancellation', async () => {
    const rig = makeRig();
    const client = await rig.client();
    expect(await client.listTasks()).toEqual([]);
    const call = client.callToolAsTask(TOOL, { topic: 'tides' });
    await waitUntil(() => call.task !== undefined, 10_000, 'the task');
    const taskId = call.task?.taskId as string;
    const listed = await client.listTasks();
    expect(listed.map((t) => [t.taskId, t.status, t.ttlMs, t.pollIntervalMs])).toEqual([
      [taskId, 'working', 300_000, 1_000],
    ]);
    expect(typeof listed[0]?.createdAt).toBe('string');
    const got = await client.getTask(taskId);
    expect(got).toMatchObject({ taskId, status: 'working', ttlMs: 300_000, pollIntervalMs: 1_000 });
    const cancelled = await client.cancelTask(taskId);
    expect(cancelled).toMatchObject({ taskId, status: 'cancelled', ttlMs: 300_000 });
    expect(await client.getTask(taskId)).toMatchObject({ taskId, status: 'cancelled' });
    const error = await call.result.catch((e: unknown) => e);
    expect(error).toBeInstanceOf(MCPCallError);
    expect(error).toMatchObject({ kind: 'task', taskId, method: 'tools/call', toolName: TOOL });
    const methods = rig.sent().map((m) => m.method);
    expect(methods.filter((m) => m === 'tasks/list')).toEqual(['tasks/list', 'tasks/list']);
    expect(methods.filter((m) => m === 'tasks/cancel')).toEqual(['tasks/cancel']);
    const listRequest = rig.sent().find((m) => m.method === 'tasks/list');
    expect(listRequest?.params ?? {}).toEqual({});
  }, 30_000);

  it('a task id the server does not know: kind jsonrpc, code -32602, for get and cancel', async () => {
    const client = await makeRig().client();
    for (const [method, run] of [
      ['tasks/get', () => client.getTask('no-such-task')],
      ['tasks/cancel', () => client.cancelTask('no-such-task')],
    ] as const) {
      const error = await run().catch((e: unknown) => e);
      expect(error).toBeInstanceOf(MCPCallError);
      expect(error).toMatchObject({ kind: 'jsonrpc', code: -32602, method, server: client.name });
    }
  }, 30_000);
});

describe('a 2025-11-25 server that declares no tasks (server-memory)', () => {
  it('refuses listTasks, getTask and cancelTask with kind protocol, sending nothing', async () => {
    const log = path.join(dir.dir, 'memory.jsonl');
    const tee = path.join(ROOT, 'test', 'fixtures', 'tee-stdio.mjs');
    const client = await connect(
      MCPClient.fromStdio({ command: process.execPath, args: [tee, log, process.execPath, MEMORY] }),
    );
    const server = client.name;
    await expect(client.listTasks()).rejects.toMatchObject({
      kind: 'protocol',
      method: 'tasks/list',
      server,
      reason: 'the server does not declare tasks/list (capabilities.tasks.list)',
    });
    await expect(client.getTask('t1')).rejects.toMatchObject({
      kind: 'protocol',
      method: 'tasks/get',
      taskId: 't1',
      reason: 'the server does not declare tasks',
    });
    await expect(client.cancelTask('t1')).rejects.toMatchObject({
      kind: 'protocol',
      method: 'tasks/cancel',
      taskId: 't1',
      reason: 'the server does not declare tasks/cancel (capabilities.tasks.cancel)',
    });
    const methods = readLog(log).map((m) => m.method);
    expect(methods.filter((m) => m?.startsWith('tasks/'))).toEqual([]);
  }, 30_000);
});

describe('the 2026-07-28 tasks extension (fixture over Streamable HTTP)', () => {
  it('gets and cancels a task another client created; refuses tasks/list, sending nothing', async () => {
    const from = era2026Proxy.seen.length;
    const creator = await connect(MCPClient.fromUrl(era2026Proxy.url));
    const call = creator.callToolAsTask('forever', {});
    await waitUntil(() => call.task !== undefined, 10_000, 'the task');
    const taskId = call.task?.taskId as string;
    const other = await connect(MCPClient.fromUrl(era2026Proxy.url));
    expect(other.getProtocolVersion()).toBe('2026-07-28');
    expect(await other.getTask(taskId)).toMatchObject({ taskId, status: 'working', pollIntervalMs: 50 });
    await expect(other.listTasks()).rejects.toMatchObject({
      kind: 'protocol',
      method: 'tasks/list',
      reason: 'the tasks extension (io.modelcontextprotocol/tasks) has no tasks/list',
    });
    expect(await other.cancelTask(taskId)).toBeUndefined();
    expect(await other.getTask(taskId)).toMatchObject({
      taskId,
      status: 'cancelled',
      statusMessage: 'cancelled by the client',
    });
    await expect(call.result).rejects.toMatchObject({ kind: 'task', taskId });
    const sent = era2026Proxy.seen.slice(from) as Sent;
    expect(sent.map((m) => m.method)).not.toContain('tasks/list');
    const cancel = sent.find((m) => m.method === 'tasks/cancel');
    expect(cancel?.params?.taskId).toBe(taskId);
  }, 30_000);
});
