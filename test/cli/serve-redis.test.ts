/**
 * Two `agentwire serve` processes (the built CLI) with the same configuration and one real Redis
 * (`gateway.redisUrl`): a 2026-07-28 listener connected to process A receives the
 * `notifications/tools/list_changed` caused through process B (each process runs its own stdio upstreams,
 * so only the Redis event bus can carry it; MCP spec 2026-07-28, "Subscriptions"); A killed with SIGKILL
 * during concurrent calls to B, every call to B answers correctly; nothing left running. Also the startup
 * failures: an unreachable Redis exits 3 with one line naming host:port only, a URL that is not redis: exits 2.
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MCPClient } from '../../src/mcp/index.js';
import { type ListenMessage, openListen } from '../fixtures/listen-stream.js';
import { alive, childrenOf } from '../fixtures/processes.js';
import { type RedisFixture, startRedis } from '../fixtures/redis.js';
import { needsProgram } from '../fixtures/system-programs.js';
import { MEMORY, ROOT, tempDir, waitUntil } from '../helpers.js';
import { ensureBuilt, plainEnv, type RunningCli, runBuilt, startCli } from './built-cli.js';

const TOKEN = 'gateway-scale-token-0123456789';
const CHANGES = path.join(ROOT, 'test', 'fixtures', 'era2026', 'stdio-server.mjs');
const PASSWORD = 'redis-secret-42';

let redis: RedisFixture;
let dir: { dir: string; remove: () => void };
let config: string;
const running: RunningCli[] = [];
const streams: AbortController[] = [];
const clients: MCPClient[] = [];

/** `agentwire serve` on a free port; resolves once it serves, with its URL. */
async function serve(extraArgs: string[] = []): Promise<{ cli: RunningCli; url: string }> {
  const cli = startCli(['serve', '--config', config, '--port', '0', ...extraArgs], {
    env: plainEnv({ GATEWAY_TOKEN: TOKEN, AGENTWIRE_REDIS_URL: '' }),
  });
  running.push(cli);
  const url = await cli.onStderr('serving on ', () => /serving on (\S+)/.exec(cli.stderr())?.[1] as string);
  return { cli, url };
}

function connect(url: string, name: string): MCPClient {
  const client = MCPClient.fromUrl(url, { name, headers: { authorization: `Bearer ${TOKEN}` } });
  clients.push(client);
  return client;
}

/** Opens a raw `subscriptions/listen` (for tool list changes) on `url`; resolves once it is acknowledged. */
function listen(url: string): Promise<ListenMessage[]> {
  const abort = new AbortController();
  streams.push(abort);
  return openListen(url, {
    id: 'listen-a',
    notifications: { toolsListChanged: true },
    signal: abort.signal,
    headers: { authorization: `Bearer ${TOKEN}` },
  });
}

const listChanges = (messages: ListenMessage[]) =>
  messages.filter((message) => message.method === 'notifications/tools/list_changed');

const text = (result: { content: unknown[] }) => (result.content[0] as { text: string }).text;

const hasRedis = needsProgram('redis-server', import.meta.url);

beforeAll(async () => {
  if (!hasRedis) return;
  ensureBuilt();
  redis = await startRedis({ password: PASSWORD });
  dir = tempDir('agentwire-serve-redis-');
  config = path.join(dir.dir, 'servers.json');
  writeFileSync(
    config,
    JSON.stringify({
      gateway: { bearerTokenEnv: 'GATEWAY_TOKEN', redisUrl: redis.url, redisChannelPrefix: 'test:scale:' },
      mcpServers: {
        changes: { command: process.execPath, args: [CHANGES, '--modern-only', '--changes'], prefix: false },
        memory: { command: process.execPath, args: [MEMORY], prefix: 'mem', allowTools: ['read_graph'] },
      },
    }),
  );
}, 30_000);

afterAll(async () => {
  for (const stream of streams) stream.abort();
  await Promise.allSettled(clients.map((client) => client.disconnect()));
  for (const cli of running)
    if (cli.child.exitCode === null && cli.child.signalCode === null) cli.child.kill();
  await Promise.all(running.map((cli) => cli.exited));
  await redis?.stop();
  dir?.remove();
});

describe.skipIf(!hasRedis)('agentwire serve, two processes on one Redis', () => {
  it("delivers B's list_changed to A's listener, and B answers every call while A is killed", async () => {
    const a = await serve();
    const b = await serve();
    expect(a.cli.stderr()).toContain(
      `sharing change notifications through Redis at 127.0.0.1:${redis.port} (test:scale:events)\n`,
    );
    expect(a.cli.stderr()).toContain('connected changes (');
    const listener = connect(a.url, 'listener');
    await listener.connect();
    expect(listener.getProtocolVersion()).toBe('2026-07-28');
    const before = listener.getTools().map((tool) => tool.name);
    expect(before).toContain('change');
    expect(before).toContain('mem__read_graph');
    const onA = await listen(a.url);

    const caller = connect(b.url, 'caller');
    await caller.connect();
    expect(text(await caller.callTool('change', { what: 'tool', name: 'extra' }))).toBe('changed tool');
    await waitUntil(() => listChanges(onA).length > 0, 10_000, "B's list_changed on A's listen stream");
    expect(listChanges(onA)[0]).toEqual({
      jsonrpc: '2.0',
      method: 'notifications/tools/list_changed',
      params: { _meta: { 'io.modelcontextprotocol/subscriptionId': 'listen-a' } },
    });
    // B's upstream has the new tool; A's own upstream (another process of the same command) does not.
    expect((await caller.refreshTools()).map((tool) => tool.name)).toContain('extra');
    expect((await listener.refreshTools()).map((tool) => tool.name)).toEqual(before);

    const upstreamsOfA = childrenOf(a.cli.child.pid as number);
    expect(upstreamsOfA.length).toBe(2);
    const calls = Array.from({ length: 60 }, (_, i) =>
      new Promise((resolve) => setTimeout(resolve, i * 10)).then(() =>
        caller.callTool('echo', { text: `call ${i}` }),
      ),
    );
    await new Promise((resolve) => setTimeout(resolve, 200));
    a.cli.child.kill('SIGKILL');
    const answers = await Promise.all(calls);
    expect(answers.map(text)).toEqual(Array.from({ length: 60 }, (_, i) => `echo: call ${i}`));
    expect(await a.cli.exited).toBe(null);
    expect(a.cli.child.signalCode).toBe('SIGKILL');
    // A's upstreams see their stdin end and exit.
    await waitUntil(() => upstreamsOfA.every((pid) => !alive(pid)), 10_000, "A's upstreams to exit");

    // One upstream change, one notification: B's upstream alone changed, and no event comes back twice.
    expect(listChanges(onA).length).toBe(1);

    const upstreamsOfB = childrenOf(b.cli.child.pid as number);
    await caller.disconnect();
    await listener.disconnect();
    b.cli.child.kill('SIGTERM');
    expect(await b.cli.exited).toBe(0);
    await waitUntil(() => upstreamsOfB.every((pid) => !alive(pid)), 10_000, "B's upstreams to exit");
    for (const cli of [a.cli, b.cli]) {
      expect(cli.stderr()).not.toContain(PASSWORD);
      expect(cli.stderr()).not.toContain(TOKEN);
    }
  }, 90_000);

  it('exits 3 with one line when Redis cannot be reached or refuses the password, never printed', async () => {
    const closed = `redis://:${PASSWORD}@127.0.0.1:1`;
    // The flag wins over the configuration file's gateway.redisUrl.
    const flag = await runBuilt(['serve', '--config', config, '--port', '0', '--redis-url', closed], {
      env: plainEnv({ GATEWAY_TOKEN: TOKEN, AGENTWIRE_REDIS_URL: '' }),
    });
    expect(flag.code).toBe(3);
    expect(flag.stderr).toBe('error: serve: cannot connect to Redis at 127.0.0.1:1 (ECONNREFUSED)\n');
    // So does the environment variable.
    const env = await runBuilt(['serve', '--config', config, '--port', '0'], {
      env: plainEnv({ GATEWAY_TOKEN: TOKEN, AGENTWIRE_REDIS_URL: closed }),
    });
    expect(env.code).toBe(3);
    expect(env.stderr).toBe('error: serve: cannot connect to Redis at 127.0.0.1:1 (ECONNREFUSED)\n');
    // A refused password: Redis's reply, which never repeats the password.
    const wrong = await runBuilt(
      [
        'serve',
        '--config',
        config,
        '--port',
        '0',
        '--redis-url',
        `redis://:${PASSWORD}-not@127.0.0.1:${redis.port}`,
      ],
      { env: plainEnv({ GATEWAY_TOKEN: TOKEN, AGENTWIRE_REDIS_URL: '' }) },
    );
    expect(wrong.code).toBe(3);
    expect(wrong.stderr).toBe(
      `error: serve: cannot connect to Redis at 127.0.0.1:${redis.port} (Redis answered: WRONGPASS invalid username-password pair or user is disabled.)\n`,
    );
    expect(flag.stdout + env.stdout + wrong.stdout).toBe('');
  }, 30_000);

  it('exits 2 when the Redis URL is not a redis: URL, without repeating it', async () => {
    const run = await runBuilt(
      ['serve', '--config', config, '--port', '0', '--redis-url', `http://:${PASSWORD}@example.test`],
      { env: plainEnv({ GATEWAY_TOKEN: TOKEN, AGENTWIRE_REDIS_URL: '' }) },
    );
    expect(run.code).toBe(2);
    expect(run.stderr).not.toContain(PASSWORD);
    expect(run.stderr).toContain("The Redis URL's scheme is http: (expected redis: or rediss:)");
  }, 30_000);
});
