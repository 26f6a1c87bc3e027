import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { MCPClient } from '../../../src/mcp/client/client.js';
import { MCPCallError } from '../../../src/mcp/protocol/errors.js';
import type { Progress } from '../../../src/mcp/protocol/types.js';
import { everythingStdio, readLog, scripted, tempDir, waitUntil } from '../../helpers.js';

const open: MCPClient[] = [];
const cleanups: (() => void)[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((client) => client.disconnect()));
  for (const cleanup of cleanups.splice(0)) cleanup();
});

async function connected(
  env: Record<string, string> = {},
  options: Parameters<typeof MCPClient.fromStdio>[1] = {},
) {
  const { dir, remove } = tempDir();
  cleanups.push(remove);
  const log = path.join(dir, 'log.jsonl');
  const client = MCPClient.fromStdio(scripted({ FIXTURE_LOG: log, ...env }), options);
  open.push(client);
  await client.connect();
  const cancelled = () => readLog(log).filter((m) => m.method === 'notifications/cancelled');
  const calls = () => readLog(log).filter((m) => m.method === 'tools/call');
  return { client, log, cancelled, calls };
}

describe('tool call timeouts and cancellation', () => {
  it('times out at the configured bound and tells the server', async () => {
    const { client, cancelled, calls } = await connected();
    const started = Date.now();
    const error = (await client
      .callTool('sleep', { ms: 10_000 }, { timeoutMs: 200 })
      .catch((e) => e)) as MCPCallError;
    const elapsed = Date.now() - started;
    expect(error).toBeInstanceOf(MCPCallError);
    expect(error.kind).toBe('timeout');
    expect(error.timeoutMs).toBe(200);
    expect(error.message).toBe(
      'MCP server "scripted-server": tools/call "sleep" failed: timed out after 200 ms',
    );
    expect(elapsed).toBeGreaterThanOrEqual(195);
    expect(elapsed).toBeLessThan(5000);
    await waitUntil(() => cancelled().length === 1, 2000, 'notifications/cancelled');
    expect(cancelled()[0]!.params?.requestId).toBe(calls()[0]!.id);
  });

  it('rejects at once when the signal aborts, with the reason on cause, and tells the server', async () => {
    const { client, cancelled, calls } = await connected();
    const controller = new AbortController();
    const reason = new Error('user pressed stop');
    setTimeout(() => controller.abort(reason), 100);
    const error = (await client
      .callTool('sleep', { ms: 10_000 }, { signal: controller.signal })
      .catch((e) => e)) as MCPCallError;
    expect(error.kind).toBe('aborted');
    expect(error.cause).toBe(reason);
    expect(error.message).toBe(
      'MCP server "scripted-server": tools/call "sleep" failed: aborted (user pressed stop)',
    );
    await waitUntil(() => cancelled().length === 1, 2000, 'notifications/cancelled');
    expect(cancelled()[0]!.params?.requestId).toBe(calls()[0]!.id);
    // The connection stays usable.
    expect(await client.callTool('echo', { text: 'still here' })).toEqual({
      content: [{ type: 'text', text: 'echo: still here' }],
    });
  });

  it('lets progress reset the timeout so a long call completes', async () => {
    const { client } = await connected();
    const seen: Progress[] = [];
    const result = await client.callTool(
      'sleep',
      { ms: 1200, progressEveryMs: 100 },
      { timeoutMs: 500, resetTimeoutOnProgress: true, onprogress: (p) => seen.push(p) },
    );
    expect(result.content).toEqual([{ type: 'text', text: 'slept 1200' }]);
    expect(seen.length).toBeGreaterThanOrEqual(5);
    expect(seen[0]).toEqual({ progress: 1, message: 'step 1' });
  });

  it('asks for progress when only resetTimeoutOnProgress is set', async () => {
    const { client, calls } = await connected();
    const result = await client.callTool(
      'sleep',
      { ms: 900, progressEveryMs: 100 },
      { timeoutMs: 500, resetTimeoutOnProgress: true },
    );
    expect(result.content).toEqual([{ type: 'text', text: 'slept 900' }]);
    expect((calls()[0]!.params?._meta as { progressToken?: unknown } | undefined)?.progressToken).toBe(
      calls()[0]!.id,
    );
  });

  it('caps a progressing call at maxTotalTimeoutMs', async () => {
    const { client } = await connected();
    const error = (await client
      .callTool(
        'sleep',
        { ms: 5000, progressEveryMs: 50 },
        { timeoutMs: 300, resetTimeoutOnProgress: true, maxTotalTimeoutMs: 700 },
      )
      .catch((e) => e)) as MCPCallError;
    expect(error.kind).toBe('timeout');
    expect(error.timeoutMs).toBe(700);
    expect(error.message).toBe(
      'MCP server "scripted-server": tools/call "sleep" failed: timed out: exceeded maxTotalTimeout of 700 ms',
    );
  });

  it('enforces maxTotalTimeoutMs exactly even when progress is sparse', async () => {
    const { client, cancelled } = await connected();
    const started = Date.now();
    const error = (await client
      .callTool(
        'sleep',
        { ms: 5000, progressEveryMs: 400 },
        { timeoutMs: 1000, resetTimeoutOnProgress: true, maxTotalTimeoutMs: 500 },
      )
      .catch((e) => e)) as MCPCallError;
    expect(error.timeoutMs).toBe(500);
    expect(Date.now() - started).toBeLessThan(790);
    await waitUntil(() => cancelled().length === 1, 2000, 'notifications/cancelled');
  });
});

describe('call options', () => {
  it('resolves defaults per tool name, and layers per-call overrides', async () => {
    const { client } = await connected(
      {},
      { callOptions: ({ toolName }) => ({ timeoutMs: toolName === 'sleep' ? 150 : 5000 }) },
    );
    const slow = (await client.callTool('sleep', { ms: 3000 }).catch((e) => e)) as MCPCallError;
    expect(slow.timeoutMs).toBe(150);
    const overridden = await client.callTool('sleep', { ms: 300 }, { timeoutMs: 5000 });
    expect(overridden.content).toEqual([{ type: 'text', text: 'slept 300' }]);
  });

  it('still takes the deprecated timeout and maxTotalTimeout, the …Ms names winning over them', async () => {
    // As the TypeScript spec page writes them: `callOptions: { timeout: 20_000 }`, `maxTotalTimeout`.
    const { client } = await connected({}, { callOptions: { timeout: 150 } });
    const byDefault = (await client.callTool('sleep', { ms: 3000 }).catch((e) => e)) as MCPCallError;
    expect(byDefault.timeoutMs).toBe(150);
    const capped = (await client
      .callTool('sleep', { ms: 3000 }, { timeout: 5000, maxTotalTimeout: 200 })
      .catch((e) => e)) as MCPCallError;
    expect(capped.timeoutMs).toBe(200);
    expect(capped.message).toBe(
      'MCP server "scripted-server": tools/call "sleep" failed: timed out: exceeded maxTotalTimeout of 200 ms',
    );
    const both = (await client
      .callTool('sleep', { ms: 3000 }, { timeout: 5000, timeoutMs: 120 })
      .catch((e) => e)) as MCPCallError;
    expect(both.timeoutMs).toBe(120);
  });

  it('setCallOptions replaces the defaults', async () => {
    const { client } = await connected({}, { callOptions: { timeoutMs: 5000 } });
    client.setCallOptions({ timeoutMs: 120 });
    const error = (await client.callTool('sleep', { ms: 3000 }).catch((e) => e)) as MCPCallError;
    expect(error.timeoutMs).toBe(120);
  });

  it('uses the signal a tool is executed with over the default signal', async () => {
    const defaultController = new AbortController();
    const { client, cancelled } = await connected({}, { callOptions: { signal: defaultController.signal } });
    const sleep = client.getTools().find((tool) => tool.name === 'sleep')!;
    const turn = new AbortController();
    const pending = sleep.execute({ ms: 10_000 }, { signal: turn.signal });
    setTimeout(() => turn.abort(new Error('turn cancelled')), 50);
    const error = (await pending.catch((e) => e)) as MCPCallError;
    expect(error.kind).toBe('aborted');
    expect((error.cause as Error).message).toBe('turn cancelled');
    expect(defaultController.signal.aborted).toBe(false);
    await waitUntil(() => cancelled().length === 1, 2000, 'notifications/cancelled');
  });
});

describe('progress from server-everything', () => {
  it('reports every step of trigger-long-running-operation to onprogress and through Tool.execute', async () => {
    const client = MCPClient.fromStdio(everythingStdio());
    open.push(client);
    await client.connect();
    const seen: Progress[] = [];
    const result = await client.callTool(
      'trigger-long-running-operation',
      { duration: 1, steps: 4 },
      { onprogress: (p) => seen.push(p) },
    );
    expect(seen.map((p) => [p.progress, p.total])).toEqual([
      [1, 4],
      [2, 4],
      [3, 4],
      [4, 4],
    ]);
    expect(result.content[0]).toEqual({
      type: 'text',
      text: 'Long running operation completed. Duration: 1 seconds, Steps: 4.',
    });
    const viaTool: Progress[] = [];
    const tool = client.getTools().find((t) => t.name === 'trigger-long-running-operation')!;
    await tool.execute({ duration: 1, steps: 2 }, { onProgress: (p) => viaTool.push(p) });
    expect(viaTool.map((p) => p.progress)).toEqual([1, 2]);
  });
});
