/**
 * 2025-11-25 tasks (MCP spec 2025-11-25, "Basic > Utilities > Tasks") against the real server-everything
 * (pinned devDependency): its `simulate-research-query` tool has `execution.taskSupport: "required"`, runs
 * four stages of 1 s each, suggests `pollInterval` 1000, and with `ambiguous` asks for an elicitation
 * through `tasks/result`. Over stdio (through tee-stdio.mjs, which records what the client sent) and over
 * Streamable HTTP (through the recording proxy).
 */
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { MCPClient, type MCPClientOptions } from '../../../src/mcp/client/client.js';
import { MCPCallError } from '../../../src/mcp/protocol/errors.js';
import type { MCPTask } from '../../../src/mcp/protocol/tasks.js';
import type { ElicitParams, Progress } from '../../../src/mcp/protocol/types.js';
import { type CuttingProxy, startCuttingProxy } from '../../fixtures/era2026/cutting-proxy.js';
import { type EverythingServer, startEverything } from '../../fixtures/http-everything.js';
import { EVERYTHING, ROOT, readLog, tempDir, waitUntil } from '../../helpers.js';

const TOOL = 'simulate-research-query';
const STAGES = ['Gathering sources', 'Analyzing content', 'Synthesizing findings', 'Generating report'];

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

/** Every status message a research task can report as progress, in the order it reports them. */
const stageMessages = (status = 'working') => STAGES.map((s) => `task ${status}: ${s}...`);

/** Checks `seen` counts 1, 2, … and its messages follow `order` (each at most once, none outside it). */
function expectInOrder(seen: Progress[], order: string[]): void {
  expect(seen.map((p) => p.progress)).toEqual(seen.map((_, i) => i + 1));
  const positions = seen.map((p) => order.indexOf(p.message ?? ''));
  expect(positions.every((at) => at >= 0)).toBe(true);
  expect([...positions].sort((a, b) => a - b)).toEqual(positions);
  expect(new Set(positions).size).toBe(positions.length);
}

const textOf = (result: { content: unknown[] }) => (result.content as { text?: string }[])[0]?.text;

interface Rig {
  client(options?: MCPClientOptions): Promise<MCPClient>;
  /** The JSON-RPC requests the client sent so far. */
  sent(): { method?: string; params?: Record<string, unknown> }[];
}

let http: EverythingServer;
let proxy: CuttingProxy;
const dir = tempDir('agentwire-tasks-');
beforeAll(async () => {
  http = await startEverything('streamableHttp');
  proxy = await startCuttingProxy(http.url);
}, 30_000);
afterAll(async () => {
  await proxy?.close();
  await http?.stop();
  dir.remove();
});
const open: MCPClient[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((client) => client.disconnect()));
});

let logs = 0;
const rigs: [string, () => Rig][] = [
  [
    'stdio',
    () => {
      const log = path.join(dir.dir, `sent-${++logs}.jsonl`);
      const tee = path.join(ROOT, 'test', 'fixtures', 'tee-stdio.mjs');
      return {
        async client(options = {}) {
          const client = MCPClient.fromStdio(
            { command: process.execPath, args: [tee, log, process.execPath, EVERYTHING] },
            options,
          );
          open.push(client);
          await client.connect();
          return client;
        },
        sent: () => readLog(log) as ReturnType<Rig['sent']>,
      };
    },
  ],
  [
    'Streamable HTTP',
    () => {
      const from = proxy.seen.length;
      return {
        async client(options = {}) {
          const client = MCPClient.fromUrl(proxy.url, options);
          open.push(client);
          await client.connect();
          return client;
        },
        sent: () => proxy.seen.slice(from),
      };
    },
  ],
];

describe.each(rigs)('server-everything tasks over %s', (_name, makeRig) => {
  it('runs the task-required tool as a task: statuses as progress, then the exact final result', async () => {
    const rig = makeRig();
    const client = await rig.client();
    const tool = client.getTools().find((t) => t.name === TOOL);
    expect(tool?.definition.execution).toEqual({ taskSupport: 'required' });
    expect(tool?.unavailableBecause()).toBeUndefined();
    const progress: Progress[] = [];
    const statuses: MCPTask[] = [];
    const events: MCPTask[] = [];
    client.on('taskStatus', ({ toolName, task }) => {
      expect(toolName).toBe(TOOL);
      events.push(task);
    });
    // Each request is bounded by 2 s; the task takes about 4 s: the bound is per request, not per task.
    const result = await client.callTool(
      TOOL,
      { topic: 'tides' },
      { timeoutMs: 2_000, onprogress: (p) => progress.push(p), onTaskStatus: (t) => statuses.push(t) },
    );
    expect(result.content).toEqual([{ type: 'text', text: report('tides') }]);
    expect(result.isError).toBeUndefined();
    expectInOrder(progress, [...stageMessages(), 'task completed: Generating report...']);
    expect(progress.at(-1)?.message).toBe('task completed: Generating report...');
    expect(events).toEqual(statuses);
    const ids = new Set(statuses.map((s) => s.taskId));
    expect(ids.size).toBe(1);
    expect(statuses.at(-1)).toMatchObject({ status: 'completed', ttlMs: 300_000, pollIntervalMs: 1_000 });
    const methods = rig.sent().map((m) => m.method);
    expect(methods.filter((m) => m === 'tools/call')).toEqual(['tools/call']);
    const call = rig.sent().find((m) => m.method === 'tools/call');
    expect(call?.params).toMatchObject({ name: TOOL, arguments: { topic: 'tides' }, task: {} });
    expect(methods.filter((m) => m === 'tasks/result')).toEqual(['tasks/result']);
    expect(methods.filter((m) => m === 'tasks/get').length).toBeGreaterThanOrEqual(3);
    expect(methods).not.toContain('tasks/cancel');
  }, 30_000);

  it("answers the task's elicitation through onElicitation (input_required, then tasks/result)", async () => {
    const rig = makeRig();
    const asked: ElicitParams[] = [];
    const client = await rig.client({
      onElicitation: async (params) => {
        asked.push(params);
        return { action: 'accept', content: { interpretation: 'historical' } };
      },
    });
    const progress: Progress[] = [];
    const result = await client.callTool(
      TOOL,
      { topic: 'tides', ambiguous: true },
      { onprogress: (p) => progress.push(p) },
    );
    expect(result.content).toEqual([{ type: 'text', text: report('tides', 'historical') }]);
    expect(asked).toHaveLength(1);
    expect(asked[0]?.message).toBe(
      'The research query "tides" could have multiple interpretations. Please clarify what you\'re looking for:',
    );
    const asking =
      'task input_required: Found multiple interpretations for "tides". Requesting clarification...';
    const resumed = 'task working: Continuing with interpretation: "historical"...';
    const order = [...stageMessages().slice(0, 3), asking, resumed, stageMessages()[3] as string];
    expectInOrder(progress, [...order, 'task completed: Generating report...']);
    expect(progress.map((p) => p.message)).toContain(asking);
  }, 30_000);

  it('cancel() cancels the task on the server (tasks/cancel) and rejects with kind aborted and the task id', async () => {
    const rig = makeRig();
    const client = await rig.client();
    const call = client.callToolAsTask(TOOL, { topic: 'tides' });
    await waitUntil(() => call.task !== undefined, 10_000, 'the task');
    expect(call.task?.status).toBe('working');
    call.cancel(new Error('changed my mind'));
    const error = await call.result.catch((e: unknown) => e);
    expect(error).toBeInstanceOf(MCPCallError);
    expect(error).toMatchObject({ kind: 'aborted', taskId: call.task?.taskId, toolName: TOOL });
    expect((error as MCPCallError).reason).toBe('aborted (changed my mind)');
    await waitUntil(() => rig.sent().some((m) => m.method === 'tasks/cancel'), 5_000, 'tasks/cancel');
    const cancel = rig.sent().find((m) => m.method === 'tasks/cancel');
    expect(cancel?.params).toEqual({ taskId: call.task?.taskId });
  }, 30_000);

  it('taskTimeoutMs bounds the whole task: kind timeout with the task id, and the task is cancelled', async () => {
    const rig = makeRig();
    const client = await rig.client();
    const error = await client.callTool(TOOL, { topic: 'tides' }, { taskTimeoutMs: 1_500 }).catch((e) => e);
    expect(error).toBeInstanceOf(MCPCallError);
    expect(error).toMatchObject({ kind: 'timeout', timeoutMs: 1_500, toolName: TOOL, method: 'tools/call' });
    expect((error as MCPCallError).taskId).toMatch(/^[0-9a-f]{32}$/);
    expect((error as MCPCallError).reason).toBe(
      `task "${(error as MCPCallError).taskId}" did not end within 1500 ms (taskTimeoutMs)`,
    );
    await waitUntil(() => rig.sent().some((m) => m.method === 'tasks/cancel'), 5_000, 'tasks/cancel');
  }, 30_000);

  it("a tool's execute() runs it as a task too, progress to onProgress", async () => {
    const client = await makeRig().client();
    const tool = client.getTools().find((t) => t.name === TOOL);
    const progress: Progress[] = [];
    const output = await tool?.execute({ topic: 'tides' }, { onProgress: (p) => progress.push(p) });
    expect(output).toBe(report('tides'));
    expect(progress.at(-1)?.message).toBe('task completed: Generating report...');
  }, 30_000);
});

describe('an ordinary tool of the same server', () => {
  it('is called as before: no task parameter, no polling', async () => {
    const rig = rigs[0]?.[1]() as Rig;
    const client = await rig.client();
    const result = await client.callTool('echo', { message: 'hi' }, { task: true });
    expect(textOf(result)).toBe('Echo: hi');
    const call = rig.sent().find((m) => m.method === 'tools/call');
    expect(call?.params).toEqual({ name: 'echo', arguments: { message: 'hi' } });
    expect(rig.sent().some((m) => m.method?.startsWith('tasks/'))).toBe(false);
  }, 30_000);
});
