/**
 * Two server processes over one real Redis (test/fixtures/redis-server-process.ts: the era2026 HTTP fixture
 * with a Redis event bus, each in its own Node process): a `subscriptions/listen` stream open on A carries
 * the `notifications/tools/list_changed` and `notifications/resources/updated` caused through B, stamped with
 * A's subscription id, as the wire has them (MCP spec 2026-07-28, "Subscriptions"); A killed mid-burst, no
 * call sent to B fails and B's bus goes on.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { MCPClient } from '../../src/mcp/client/client.js';
import { type ListenMessage, openListen } from '../fixtures/listen-stream.js';
import { type RedisFixture, startRedis } from '../fixtures/redis.js';
import { needsProgram } from '../fixtures/system-programs.js';
import { ROOT, waitUntil } from '../helpers.js';

const OUT_DIR = path.join(ROOT, 'node_modules', '.agentwire-redis-test');
const CHILD = path.join(OUT_DIR, 'redis-server-process.mjs');

/** A running server process. */
interface Proc {
  url: string;
  child: ChildProcess;
  stop(signal?: NodeJS.Signals): Promise<void>;
}

const procs: Proc[] = [];
const clients: MCPClient[] = [];
const streams: AbortController[] = [];

function startProc(redisUrl: string): Promise<Proc> {
  const child = spawn(process.execPath, [CHILD], {
    env: { ...process.env, REDIS_URL: redisUrl },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const stop = async (signal: NodeJS.Signals = 'SIGTERM') => {
    if (child.exitCode === null && child.signalCode === null) child.kill(signal);
    await exited;
  };
  return new Promise((resolve, reject) => {
    let out = '';
    let err = '';
    child.stderr?.on('data', (chunk: Buffer) => {
      err += chunk.toString();
    });
    child.once('exit', (code) => reject(new Error(`server process exited ${code}: ${err}`)));
    child.stdout?.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const line = out.split('\n')[0];
      if (out.includes('\n') && line !== undefined) {
        const proc = { url: (JSON.parse(line) as { url: string }).url, child, stop };
        procs.push(proc);
        resolve(proc);
      }
    });
  });
}

function client(url: string): MCPClient {
  const created = MCPClient.fromUrl(url, { name: 'proc' });
  clients.push(created);
  return created;
}

/** Opens a raw `subscriptions/listen` on `url` (id `id`); resolves once it is acknowledged. */
function listen(url: string, id: string, notifications: Record<string, unknown>): Promise<ListenMessage[]> {
  const abort = new AbortController();
  streams.push(abort);
  return openListen(url, { id, notifications, signal: abort.signal });
}

const SUBSCRIPTION = 'io.modelcontextprotocol/subscriptionId';

let redis: RedisFixture;
const hasRedis = needsProgram('redis-server', import.meta.url);

beforeAll(async () => {
  if (!hasRedis) return;
  mkdirSync(OUT_DIR, { recursive: true });
  const { build } = await import('rolldown');
  await build({
    input: path.join(ROOT, 'test/fixtures/redis-server-process.ts'),
    platform: 'node',
    external: [/node_modules/, /^[^./]/],
    output: { file: CHILD, format: 'esm' },
    logLevel: 'silent',
  });
  redis = await startRedis();
});
afterEach(async () => {
  for (const stream of streams.splice(0)) stream.abort();
  await Promise.all(clients.splice(0).map((one) => one.disconnect()));
  await Promise.all(procs.splice(0).map((proc) => proc.stop()));
});
afterAll(() => redis?.stop());

describe.skipIf(!hasRedis)('two server processes over one Redis', () => {
  it('a listen stream on A carries the list change and the resource update caused through B', async () => {
    const [a, b] = await Promise.all([startProc(redis.url), startProc(redis.url)]);
    const onA = await listen(a.url, 'listen-a', {
      toolsListChanged: true,
      resourceSubscriptions: ['fixture://a'],
    });
    const actor = client(b.url);
    await actor.connect();
    await actor.callTool('change', { what: 'tool', name: 'through_b' });
    await actor.callTool('change', { what: 'resource', uri: 'fixture://b' });
    await actor.callTool('change', { what: 'prompt', name: 'not_asked_for' });
    await actor.callTool('change', { what: 'resource', uri: 'fixture://a' });
    await waitUntil(() => onA.length === 3, 10_000, 'the notifications on A');
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(onA.slice(1)).toEqual([
      {
        jsonrpc: '2.0',
        method: 'notifications/tools/list_changed',
        params: { _meta: { [SUBSCRIPTION]: 'listen-a' } },
      },
      {
        jsonrpc: '2.0',
        method: 'notifications/resources/updated',
        params: { uri: 'fixture://a', _meta: { [SUBSCRIPTION]: 'listen-a' } },
      },
    ]);
  });

  it('A killed mid-burst: every call sent to B answers, and B still notifies its listeners', async () => {
    const [a, b] = await Promise.all([startProc(redis.url), startProc(redis.url)]);
    const onB = await listen(b.url, 'listen-b', { toolsListChanged: true });
    const [toA, toB] = [client(a.url), client(b.url)];
    await Promise.all([toA.connect(), toB.connect()]);
    const texts = Array.from({ length: 60 }, (_, i) => `call ${i}`);
    const burst = texts.map(async (text, i) => {
      if (i === 20) await a.stop('SIGKILL');
      return toB.callTool('echo', { text });
    });
    const results = await Promise.all(burst);
    expect(results.map((result) => result.content)).toEqual(
      texts.map((text) => [{ type: 'text', text: `echo: ${text}` }]),
    );
    expect(a.child.signalCode).toBe('SIGKILL');
    await toB.callTool('change', { what: 'tool', name: 'after_a_died' });
    await waitUntil(() => onB.length === 2, 10_000, 'the notification on B');
    expect(onB[1]).toEqual({
      jsonrpc: '2.0',
      method: 'notifications/tools/list_changed',
      params: { _meta: { [SUBSCRIPTION]: 'listen-b' } },
    });
  });
});
