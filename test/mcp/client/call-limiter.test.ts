/**
 * `maxConcurrentCalls`: calls beyond the bound wait in order, their wait counts toward their timeout, and a
 * call that times out or is aborted while waiting never reaches the server (scripted stdio server, its log
 * of every message it received).
 */
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { MCPClient } from '../../../src/mcp/client/client.js';
import { createClient, parseServerConfig } from '../../../src/mcp/index.js';
import { MCPCallError, MCPConfigError } from '../../../src/mcp/protocol/errors.js';
import { readLog, SCRIPTED, scripted, tempDir } from '../../helpers.js';

const open: MCPClient[] = [];
const cleanups: (() => void)[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((client) => client.disconnect()));
  for (const cleanup of cleanups.splice(0)) cleanup();
});

async function connected(maxConcurrentCalls: number | undefined) {
  const { dir, remove } = tempDir();
  cleanups.push(remove);
  const log = path.join(dir, 'log.jsonl');
  const client = MCPClient.fromStdio(scripted({ FIXTURE_LOG: log }), {
    ...(maxConcurrentCalls === undefined ? {} : { maxConcurrentCalls }),
  });
  open.push(client);
  await client.connect();
  const sent = () =>
    readLog(log)
      .filter((m) => m.method === 'tools/call')
      .map((m) => (m.params?.arguments as { ms?: number } | undefined)?.ms);
  return { client, sent };
}

/** Texts of the results in the order the calls finished. */
function finishOrder(client: MCPClient, sleeps: number[]): Promise<string[]> {
  const order: string[] = [];
  return Promise.all(
    sleeps.map((ms) =>
      client.callTool('sleep', { ms }).then((r) => {
        order.push((r.content[0] as { text: string }).text);
      }),
    ),
  ).then(() => order);
}

describe('maxConcurrentCalls', () => {
  it('without a bound, a short call overtakes a long one', async () => {
    const { client } = await connected(undefined);
    expect(await finishOrder(client, [300, 10, 20])).toEqual(['slept 10', 'slept 20', 'slept 300']);
  });

  it('with 1, the calls reach the server one at a time, in the order they were made', async () => {
    const { client, sent } = await connected(1);
    expect(await finishOrder(client, [300, 10, 20])).toEqual(['slept 300', 'slept 10', 'slept 20']);
    expect(sent()).toEqual([300, 10, 20]);
  });

  it('with 2, two run at once and the third waits for the first free slot', async () => {
    const { client } = await connected(2);
    expect(await finishOrder(client, [300, 50, 10])).toEqual(['slept 50', 'slept 10', 'slept 300']);
  });

  it('times out a call still waiting for a slot, which never reaches the server nor takes a slot', async () => {
    const { client, sent } = await connected(1);
    const first = client.callTool('sleep', { ms: 400 });
    const queued = client.callTool('sleep', { ms: 1 }, { timeoutMs: 50 });
    const error = (await queued.catch((e) => e)) as MCPCallError;
    expect(error).toBeInstanceOf(MCPCallError);
    expect([error.kind, error.timeoutMs, error.toolName, error.method]).toEqual([
      'timeout',
      50,
      'sleep',
      'tools/call',
    ]);
    expect(error.message).toBe(
      'MCP server "scripted-server": tools/call "sleep" failed: timed out after 50 ms waiting for a free call slot (maxConcurrentCalls 1)',
    );
    await first;
    expect((await client.callTool('sleep', { ms: 2 })).content).toEqual([{ type: 'text', text: 'slept 2' }]);
    expect(sent()).toEqual([400, 2]);
  });

  it('takes a call aborted while waiting out of the queue; the next one keeps its place', async () => {
    const { client, sent } = await connected(1);
    const first = client.callTool('sleep', { ms: 200 });
    const controller = new AbortController();
    const aborted = client.callTool('sleep', { ms: 3 }, { signal: controller.signal });
    const third = client.callTool('sleep', { ms: 4 });
    controller.abort(new Error('user gave up'));
    const error = (await aborted.catch((e) => e)) as MCPCallError;
    expect([error.kind, (error.cause as Error).message]).toEqual(['aborted', 'user gave up']);
    await Promise.all([first, third]);
    expect(sent()).toEqual([200, 4]);
  });

  it('counts the wait toward the timeout: a call that waited gets only what is left', async () => {
    const { client, sent } = await connected(1);
    const first = client.callTool('sleep', { ms: 200 });
    // 300 ms in all: about 200 of them waiting, so the 250 ms sleep cannot finish in time.
    const second = client.callTool('sleep', { ms: 250 }, { timeoutMs: 300 });
    const error = (await second.catch((e) => e)) as MCPCallError;
    await first;
    expect([error.kind, sent()]).toEqual(['timeout', [200, 250]]);
  });

  it('refuses a bound that is not a whole number of at least 1', () => {
    for (const bad of [0, -1, 1.5, Number.NaN]) {
      expect(() => MCPClient.fromStdio(scripted(), { maxConcurrentCalls: bad })).toThrow(RangeError);
    }
  });

  it('reads "maxConcurrentCalls" from a configuration entry, and names the entry when it is wrong', () => {
    const config = parseServerConfig({
      mcpServers: { one: { command: process.execPath, args: [SCRIPTED], maxConcurrentCalls: 1 } },
    });
    expect(config.servers[0]).toMatchObject({ name: 'one', maxConcurrentCalls: 1 });
    expect(createClient(config.servers[0] as (typeof config.servers)[0])).toBeInstanceOf(MCPClient);
    const bad = parseServerConfig({
      mcpServers: { two: { url: 'http://127.0.0.1:1/mcp', maxConcurrentCalls: 0 } },
    }).invalid;
    expect(bad.map((b) => [b.name, b.error instanceof MCPConfigError, b.error.message])).toEqual([
      [
        'two',
        true,
        'config <inline>: server "two": "maxConcurrentCalls" must be a whole number of at least 1',
      ],
    ]);
  });
});
