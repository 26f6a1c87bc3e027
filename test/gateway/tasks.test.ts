/**
 * Tasks through `MCPGateway` (src/gateway/tasks.ts) in front of server-everything (stdio; its
 * `simulate-research-query` is a 2025-11-25 task-required tool) and the 2026-07-28 tasks-extension fixture
 * (test/fixtures/era2026/tasks-server.mjs, over stdio, and once more over HTTP as the upstream that dies):
 * called by agentwire's client in both revisions over HTTP (callToolAsTask, getTask, cancelTask, listTasks)
 * and by the bare SDK client on a 2025-11-25 stdio connection (raw task requests, status notifications,
 * an elicitation during `tasks/result`). Exact results; a cancel reaches the upstream; ids the gateway did
 * not make are -32602; a task on an upstream that died is a typed error.
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import { Client, type JSONRPCMessage, type Transport } from '@modelcontextprotocol/client';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { MCPGateway } from '../../src/gateway/index.js';
import { gatewayTaskId, upstreamTaskOf } from '../../src/gateway/task-ids.js';
import { loadServerConfig, MCPCallError, MCPClient, type MCPClientOptions } from '../../src/mcp/index.js';
import type { MCPTask } from '../../src/mcp/protocol/tasks.js';
import { type Era2026HttpServer, startEra2026Http } from '../fixtures/era2026/http-server.js';
import { createTasksServer, TASKS_EXTENSION } from '../fixtures/era2026/tasks-server.mjs';
import { EVERYTHING, ROOT, tempDir, waitUntil } from '../helpers.js';

const TOKEN = 'gateway-tasks-token-0123456789';
const RESEARCH = 'everything__simulate-research-query';
const STAGES = ['Gathering sources', 'Analyzing content', 'Synthesizing findings', 'Generating report'];
const FIXTURE = path.join(ROOT, 'test', 'fixtures', 'era2026', 'tasks-server.mjs');
const textOf = (result: { content: unknown[] }) => (result.content as { text?: string }[])[0]?.text;

/** server-everything's report (tools/simulate-research-query.js `generateResearchReport`), exactly. */
function report(topic: string, clarification?: string): string {
  const title = clarification ? `${topic} (${clarification})` : topic;
  const elicitation = clarification
    ? '**Elicitation Flow:**\nWhen the query was ambiguous, the server sent an `elicitation/create` request\n' +
      'to the client. The task status changed to `input_required` while awaiting user input.\n' +
      `After receiving clarification ("${clarification}"), the task resumed processing and completed.\n`
    : '';
  return `# Research Report: ${title}

## Research Parameters
- **Topic**: ${topic}
${clarification ? `- **Clarification**: ${clarification}` : ''}

## Synthesis
This research query was processed through 4 stages:
${STAGES.map((s, i) => `- Stage ${i + 1}: ${s} ✓`).join('\n')}

---

## About This Demo (SEP-1686: Tasks)

This tool demonstrates MCP's task-based execution pattern for long-running operations:

**Task Lifecycle Demonstrated:**
1. \`tools/call\` with \`task\` parameter → Server returns \`CreateTaskResult\` (not the final result)
2. Client polls \`tasks/get\` → Server returns current status and \`statusMessage\`
3. Status progressed: \`working\` → ${clarification ? '`input_required` → `working` → ' : ''}\`completed\`
4. Client calls \`tasks/result\` → Server returns this final result

${elicitation}
**Key Concepts:**
- Tasks enable "call now, fetch later" patterns
- \`statusMessage\` provides human-readable progress updates
- Tasks have TTL (time-to-live) for automatic cleanup
- \`pollInterval\` suggests how often to check status
- Elicitation requests use \`relatedTask\` to queue via tasks/result (works on all transports)

*This is a simulated research report from the Everything MCP Server.*
`;
}

let gateway: MCPGateway;
let url: string;
let doomed: Era2026HttpServer;
const dir = tempDir('agentwire-gateway-tasks-');

beforeAll(async () => {
  doomed = await startEra2026Http({ modernOnly: true, createServer: createTasksServer });
  const config = path.join(dir.dir, 'servers.json');
  const node = process.execPath;
  writeFileSync(
    config,
    JSON.stringify({
      mcpServers: {
        everything: { command: node, args: [EVERYTHING], allowTools: ['simulate-research-query', 'echo'] },
        tasks: { command: node, args: [FIXTURE] },
        doomed: { url: doomed.url, allowTools: ['forever'] },
      },
    }),
  );
  gateway = MCPGateway.fromConfig(await loadServerConfig(config));
  const results = await gateway.start();
  expect(results.map((result) => [result.name, result.ok])).toEqual([
    ['everything', true],
    ['tasks', true],
    ['doomed', true],
  ]);
  url = (await gateway.listen({ bearerToken: TOKEN })).url;
}, 60_000);

afterAll(async () => {
  await gateway?.close();
  await doomed?.close();
  dir.remove();
});

const open: MCPClient[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((client) => client.disconnect()));
});

/** agentwire's client of the gateway over HTTP, in `version` ('auto': 2026-07-28). */
async function connect(version: 'auto' | '2025-11-25', options: MCPClientOptions = {}): Promise<MCPClient> {
  const client = MCPClient.fromUrl(url, {
    name: 'gateway',
    headers: { authorization: `Bearer ${TOKEN}` },
    protocolVersion: version,
    ...options,
  });
  open.push(client);
  await client.connect();
  expect(client.getProtocolVersion()).toBe(version === 'auto' ? '2026-07-28' : '2025-11-25');
  return client;
}

/** The ids the upstream `server` (a tasks fixture) has cancelled so far. */
async function cancelledOn(server: string): Promise<string[]> {
  const text = textOf(await gateway.servers.get(server)!.callTool('cancelled', {})) ?? '';
  return text === '' ? [] : text.split(',');
}

/** Resolves with the task once the handle's call has one. */
async function created(handle: { readonly task: MCPTask | undefined }): Promise<MCPTask> {
  await waitUntil(() => handle.task !== undefined, 10_000, 'the task');
  return handle.task as MCPTask;
}

describe('a 2026-07-28 client (agentwire, over HTTP)', () => {
  it('runs a task of the 2026 upstream under an id that names the upstream and its task', async () => {
    const client = await connect('auto');
    const statuses: MCPTask[] = [];
    const handle = client.callToolAsTask(
      'tasks__research',
      { topic: 'tides', steps: 3, stepMs: 60 },
      { onTaskStatus: (task) => statuses.push(task) },
    );
    const result = await handle.result;
    expect(result.content).toEqual([{ type: 'text', text: 'researched tides in 3 steps' }]);
    const id = handle.task?.taskId as string;
    const ref = upstreamTaskOf(id);
    expect(ref?.server).toBe('tasks');
    expect(ref?.taskId).toMatch(/^task-\d+$/);
    expect(statuses.at(-1)).toMatchObject({
      taskId: id,
      status: 'completed',
      ttlMs: 60_000,
      pollIntervalMs: 50,
    });
    const messages = statuses.map((task) => task.statusMessage).filter((m) => m !== undefined);
    expect(messages.at(-1)).toBe('step 3 of 3');
    expect(await client.getTask(id)).toMatchObject({ taskId: id, status: 'completed', ttlMs: 60_000 });
  }, 30_000);

  it("runs server-everything's 2025-11-25 task: the upstream's exact result", async () => {
    const client = await connect('auto');
    const statuses: string[] = [];
    const handle = client.callToolAsTask(
      RESEARCH,
      { topic: 'tides' },
      { onTaskStatus: (task) => statuses.push(`${task.status}: ${task.statusMessage}`) },
    );
    const result = await handle.result;
    expect(result.content).toEqual([{ type: 'text', text: report('tides') }]);
    expect(result.isError).toBeUndefined();
    expect(upstreamTaskOf(handle.task?.taskId)?.server).toBe('everything');
    expect(statuses.at(-1)).toBe('completed: Generating report...');
    expect(handle.task).toMatchObject({ status: 'completed', ttlMs: 300_000, pollIntervalMs: 1_000 });
  }, 30_000);

  it("passes the task's input request out and the client's answer back (tasks/update)", async () => {
    const asked: string[] = [];
    const client = await connect('auto', {
      onElicitation: async (params) => {
        asked.push(params.message);
        return { action: 'accept', content: { confirm: true } };
      },
    });
    const result = await client.callToolAsTask('tasks__approve', { action: 'deploy' }).result;
    expect(result.content).toEqual([{ type: 'text', text: 'approved deploy' }]);
    expect(asked).toEqual(['Approve deploy?']);
  }, 30_000);

  it('cancels a task mid-way: the cancel reaches the upstream, the task reads cancelled', async () => {
    const client = await connect('auto');
    const handle = client.callToolAsTask('tasks__forever', {});
    const task = await created(handle);
    expect(task.status).toBe('working');
    handle.cancel(new Error('enough'));
    await expect(handle.result).rejects.toMatchObject({ kind: 'aborted' });
    const upstreamId = upstreamTaskOf(task.taskId)?.taskId as string;
    await expect.poll(() => cancelledOn('tasks'), { timeout: 5_000 }).toContain(upstreamId);
    expect(await client.getTask(task.taskId)).toMatchObject({ taskId: task.taskId, status: 'cancelled' });
    // The extension answers tasks/cancel with `{}`: no task in the answer.
    expect(await client.cancelTask(task.taskId)).toBeUndefined();
  }, 30_000);

  it("passes a failed task's JSON-RPC error through", async () => {
    const client = await connect('auto');
    const failure = client.callToolAsTask('tasks__crash', { message: 'boom' }).result;
    await expect(failure).rejects.toBeInstanceOf(MCPCallError);
    await expect(failure).rejects.toMatchObject({
      kind: 'jsonrpc',
      code: -32000,
      reason: 'server returned JSON-RPC error -32000: boom',
    });
  }, 30_000);

  it('answers -32602 for task ids the gateway did not make or that lead nowhere', async () => {
    const client = await connect('auto');
    for (const id of ['forged', gatewayTaskId('nowhere', 'task-1'), 'eyJub3QiOiJhbiBpZCJ9']) {
      await expect(client.getTask(id)).rejects.toMatchObject({ kind: 'jsonrpc', code: -32602 });
      await expect(client.cancelTask(id)).rejects.toMatchObject({ kind: 'jsonrpc', code: -32602 });
    }
    // The upstream exists, its task does not: the upstream's own -32602.
    const unknown = gatewayTaskId('tasks', 'task-999999');
    await expect(client.getTask(unknown)).rejects.toMatchObject({ kind: 'jsonrpc', code: -32602 });
  }, 30_000);
});

describe('a 2025-11-25 client (agentwire, over HTTP)', () => {
  it("runs server-everything's task: CreateTaskResult, tasks/get, tasks/result, the exact result", async () => {
    const client = await connect('2025-11-25');
    const research = client.getTools().find((tool) => tool.name === RESEARCH);
    expect(research?.definition.execution).toEqual({ taskSupport: 'required' });
    const handle = client.callToolAsTask(RESEARCH, { topic: 'reefs' });
    const result = await handle.result;
    expect(result.content).toEqual([{ type: 'text', text: report('reefs') }]);
    const id = handle.task?.taskId as string;
    expect(upstreamTaskOf(id)?.server).toBe('everything');
    expect(handle.task).toMatchObject({ status: 'completed', ttlMs: 300_000, pollIntervalMs: 1_000 });
    const listed = await client.listTasks();
    expect(listed.find((task) => task.taskId === id)).toMatchObject({ status: 'completed' });
    expect(listed.every((task) => upstreamTaskOf(task.taskId)?.server === 'everything')).toBe(true);
  }, 30_000);

  it('reads a task of the 2026 upstream that the same caller started as a 2026 client, in 2025 shapes', async () => {
    const modern = await connect('auto');
    const legacy = await connect('2025-11-25');
    const handle = modern.callToolAsTask('tasks__research', { topic: 'fog', steps: 3, stepMs: 100 });
    const id = (await created(handle)).taskId;
    // agentwire's 2025 client reads a 2025 `Task` (ttl, pollInterval) into its own fields.
    expect(await legacy.getTask(id)).toMatchObject({ taskId: id, ttlMs: 60_000, pollIntervalMs: 50 });
    expect((await handle.result).content).toEqual([{ type: 'text', text: 'researched fog in 3 steps' }]);
  }, 30_000);

  it('cancels a running task: the upstream task reads cancelled', async () => {
    const client = await connect('2025-11-25');
    const handle = client.callToolAsTask(RESEARCH, { topic: 'storms' });
    const task = await created(handle);
    const cancelled = await client.cancelTask(task.taskId);
    expect(cancelled).toMatchObject({ taskId: task.taskId, status: 'cancelled' });
    const upstream = upstreamTaskOf(task.taskId)?.taskId as string;
    expect(await gateway.servers.get('everything')!.getTask(upstream)).toMatchObject({ status: 'cancelled' });
    handle.cancel();
    await expect(handle.result).rejects.toBeInstanceOf(MCPCallError);
  }, 30_000);
});

/** A client transport over a pair of in-process streams, one JSON-RPC message per line (stdio framing). */
function streamTransport(toServer: PassThrough, fromServer: PassThrough): Transport {
  let buffered = '';
  const transport: Transport = {
    start: async () => {
      fromServer.setEncoding('utf8');
      fromServer.on('data', (chunk: string) => {
        buffered += chunk;
        let end = buffered.indexOf('\n');
        while (end >= 0) {
          const line = buffered.slice(0, end);
          buffered = buffered.slice(end + 1);
          if (line.trim()) transport.onmessage?.(JSON.parse(line) as JSONRPCMessage);
          end = buffered.indexOf('\n');
        }
      });
    },
    send: async (message) => {
      toServer.write(`${JSON.stringify(message)}\n`);
    },
    close: async () => {
      toServer.end();
      transport.onclose?.();
    },
  };
  return transport;
}

/** A result schema that takes any object (the SDK's client types no `tasks/*` results). */
const anyResult = {
  '~standard': { version: 1, vendor: 'test', validate: (value: unknown) => ({ value }) },
} as never;

describe('the bare SDK client on a 2025-11-25 stdio connection', () => {
  it('gets the task, its statuses, an elicitation and the result through tasks/result; a 2026 task in 2025 shapes', async () => {
    const stdin = new PassThrough();
    const stdout = new PassThrough();
    const host = gateway.serveStdio({ stdin, stdout });
    const client = new Client(
      { name: 'gateway-test', version: '1.0.0' },
      { capabilities: { elicitation: { form: {} } }, versionNegotiation: { mode: 'legacy' } },
    );
    const notified: Record<string, unknown>[] = [];
    // The SDK's client types no task notifications: they arrive at its fallback handler.
    client.fallbackNotificationHandler = async (notification) => {
      if (notification.method === 'notifications/tasks/status')
        notified.push(notification.params as Record<string, unknown>);
    };
    const asked: Record<string, unknown>[] = [];
    client.setRequestHandler('elicitation/create', async (request) => {
      asked.push(request.params as unknown as Record<string, unknown>);
      return { action: 'accept', content: { interpretation: 'historical' } };
    });
    try {
      await client.connect(streamTransport(stdin, stdout));
      expect(client.getServerCapabilities()?.tasks).toEqual({
        requests: { tools: { call: {} } },
        list: {},
        cancel: {},
      });
      const params = { name: RESEARCH, arguments: { topic: 'tides', ambiguous: true }, task: {} };
      const createdTask = (await client.request({ method: 'tools/call', params }, anyResult)) as unknown as {
        task: Record<string, unknown>;
      };
      const id = createdTask.task.taskId as string;
      expect(Object.keys(createdTask)).toEqual(['task']);
      expect(createdTask.task).toMatchObject({ status: 'working', ttl: 300_000, pollInterval: 1_000 });
      expect(upstreamTaskOf(id)?.server).toBe('everything');
      const got = (await client.request({ method: 'tasks/get', params: { taskId: id } }, anyResult)) as {
        taskId: string;
      };
      expect(got.taskId).toBe(id);
      const result = (await client.request(
        { method: 'tasks/result', params: { taskId: id } },
        anyResult,
      )) as { content: unknown[]; _meta: Record<string, unknown> };
      expect(result.content).toEqual([{ type: 'text', text: report('tides', 'historical') }]);
      expect(result._meta['io.modelcontextprotocol/related-task']).toEqual({ taskId: id });
      expect(asked).toHaveLength(1);
      expect(asked[0]?.message).toBe(
        'The research query "tides" could have multiple interpretations. Please clarify what you\'re looking for:',
      );
      // The gateway polls the upstream at its interval (1 s) and tells each change it sees: which of the
      // short-lived statuses it sees depends on timing, the last one does not.
      await waitUntil(() => notified.some((task) => task.status === 'completed'), 10_000, 'the last status');
      expect(notified.every((task) => task.taskId === id)).toBe(true);
      expect(notified.at(-1)).toMatchObject({ status: 'completed', statusMessage: 'Generating report...' });
      const seen = new Set(notified.map((task) => task.status));
      expect(
        [...seen].every((status) => ['working', 'input_required', 'completed'].includes(String(status))),
      ).toBe(true);
      // A task of the 2026 upstream, started by a 2026 client with the static token: another caller's task,
      // not found for this stdio caller (its id is bound to the caller that made it: task-ids.ts).
      const modern = await connect('auto');
      const other = modern.callToolAsTask('tasks__research', { topic: 'fog', steps: 3, stepMs: 100 });
      const otherId = (await created(other)).taskId;
      for (const method of ['tasks/get', 'tasks/result', 'tasks/cancel'])
        await expect(
          client.request({ method, params: { taskId: otherId } } as never, anyResult),
        ).rejects.toMatchObject({ code: -32602 });
      expect((await other.result).content).toEqual([{ type: 'text', text: 'researched fog in 3 steps' }]);
      const forged = client.request({ method: 'tasks/get', params: { taskId: 'forged' } }, anyResult);
      await expect(forged).rejects.toMatchObject({ code: -32602 });
      // A 2025 client may not ask for a task of a tool without task support (MCP spec 2025-11-25,
      // "Tasks > Tool-Level Negotiation"): -32601.
      const echo = { name: 'everything__echo', arguments: { message: 'hi' }, task: {} };
      await expect(client.request({ method: 'tools/call', params: echo }, anyResult)).rejects.toMatchObject({
        code: -32601,
      });
    } finally {
      await client.close();
      await host.close();
    }
  }, 30_000);
});

describe('an upstream that dies', () => {
  it("answers its task's requests with a typed error naming it; the other upstreams' tasks go on", async () => {
    const client = await connect('auto');
    const handle = client.callToolAsTask('doomed__forever', {});
    const task = await created(handle);
    expect(upstreamTaskOf(task.taskId)?.server).toBe('doomed');
    handle.cancel();
    await handle.result.catch(() => {});
    await doomed.close();
    const error = await client.getTask(task.taskId).then(
      () => undefined,
      (failure: unknown) => failure,
    );
    expect(error).toBeInstanceOf(MCPCallError);
    expect(error).toMatchObject({ kind: 'jsonrpc', code: -32603, data: { server: 'doomed' } });
    expect(typeof (error as MCPCallError & { data: { kind: unknown } }).data.kind).toBe('string');
    const result = await client.callToolAsTask('tasks__research', { topic: 'rain', steps: 1 }).result;
    expect(result.content).toEqual([{ type: 'text', text: 'researched rain in 1 steps' }]);
  }, 30_000);
});

it('declares the tasks extension to a 2026-07-28 client', async () => {
  const client = new Client(
    { name: 'gateway-test', version: '1.0.0' },
    { versionNegotiation: { mode: 'auto' } },
  );
  const { StreamableHTTPClientTransport } = await import('@modelcontextprotocol/client');
  const transport = new StreamableHTTPClientTransport(new URL(url), {
    requestInit: { headers: { authorization: `Bearer ${TOKEN}` } },
  });
  await client.connect(transport);
  try {
    expect(client.getNegotiatedProtocolVersion()).toBe('2026-07-28');
    expect(client.getServerCapabilities()?.extensions).toEqual({ [TASKS_EXTENSION]: {} });
    expect(client.getServerCapabilities()?.tasks).toBeUndefined();
  } finally {
    await client.close();
  }
});
