/**
 * Three `agentwire serve` processes (the built CLI, one configuration, one real Redis, one shared session
 * secret) behind a real HAProxy running the configuration of docs/gateway-deploy.md (round robin, no
 * stickiness; only the ports replaced). Each process runs its own stdio upstream (the 2026-07-28 fixture
 * with `change` and `confirm`), so a list change made through one process reaches the others only through
 * Redis. A 2025-11-25 client (agentwire's, and the bare SDK client) gets a session and a 2026-07-28 client
 * none, and while their requests alternate between the processes (HAProxy's own counters say so) each
 * answers elicitations (2025: `elicitation/create` on the call's stream, the answer POSTed to whichever
 * process; 2026: `input_required` retries on whichever process) and receives `list_changed`. Then one
 * process is killed while calls are in flight: exactly the calls HAProxy had sent to it fail, and both
 * sessions go on through the others.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import path from 'node:path';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MCPClient } from '../../src/mcp/index.js';
import { ensureBuilt, plainEnv, type RunningCli, startCli } from '../cli/built-cli.js';
import { type RedisFixture, startRedis } from '../fixtures/redis.js';
import { needsProgram } from '../fixtures/system-programs.js';
import { ROOT, tempDir, waitUntil } from '../helpers.js';

const TOKEN = 'gateway-balancer-token-0123456789';
const SECRET = 'balancer-test-session-secret-0123456789abcdef';
const FIXTURE = path.join(ROOT, 'test', 'fixtures', 'era2026', 'stdio-server.mjs');
const DOC = path.join(ROOT, 'docs', 'gateway-deploy.md');
const LIST_CHANGED = 'notifications/tools/list_changed';

const hasHaproxy = needsProgram('haproxy', import.meta.url);
const hasRedis = needsProgram('redis-server', import.meta.url);

let redis: RedisFixture;
let dir: { dir: string; remove: () => void };
let config: string;
const gateways: { cli: RunningCli; port: number; name: string }[] = [];
let haproxy: ChildProcess | undefined;
let haproxyExited: Promise<void> = Promise.resolve();
let front: string;
let statsUrl: string;
const clients: MCPClient[] = [];
const sdkClients: Client[] = [];

/** A free loopback TCP port (bound, read, released). */
async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as { port: number };
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}

/** The HAProxy configuration of docs/gateway-deploy.md, as written there. */
function documentedConfig(): string {
  const doc = readFileSync(DOC, 'utf8');
  const block = /<!-- haproxy-config:begin -->\n```haproxy\n([\s\S]*?)```\n<!-- haproxy-config:end -->/.exec(
    doc,
  );
  if (!block?.[1]) throw new Error('docs/gateway-deploy.md has no HAProxy configuration block');
  return block[1];
}

async function serve(name: string): Promise<void> {
  const cli = startCli(['serve', '--config', config, '--port', '0'], {
    env: plainEnv({ GATEWAY_TOKEN: TOKEN, GATEWAY_SESSION_SECRET: SECRET, AGENTWIRE_REDIS_URL: '' }),
  });
  const url = await cli.onStderr('serving on ', () => /serving on (\S+)/.exec(cli.stderr())?.[1] as string);
  gateways.push({ cli, port: Number(new URL(url).port), name });
}

/** Resolves once `check` resolves true; polls every 20 ms. */
async function until(check: () => Promise<boolean>, ms: number, what: string): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/**
 * Per backend server of HAProxy: the requests sent to it so far, counted as they are sent (`stot` of its CSV
 * statistics: in HTTP mode a stream per request; `req_tot` counts them only once answered).
 */
async function served(): Promise<Record<string, number>> {
  const csv = await (await fetch(`${statsUrl};csv`)).text();
  const [head, ...rows] = csv.trim().split('\n');
  const columns = (head ?? '').replace(/^# /, '').split(',');
  const [px, sv, total] = ['pxname', 'svname', 'stot'].map((name) => columns.indexOf(name));
  const counts: Record<string, number> = {};
  for (const row of rows) {
    const cells = row.split(',');
    if (cells[px as number] === 'agentwire' && /^gw\d$/.test(cells[sv as number] ?? ''))
      counts[cells[sv as number] as string] = Number(cells[total as number]);
  }
  return counts;
}

function agentwireClient(name: string, version: '2025-11-25' | 'auto', seen: string[]): MCPClient {
  const client = MCPClient.fromUrl(front, {
    name,
    headers: { authorization: `Bearer ${TOKEN}` },
    protocolVersion: version,
    onElicitation: async () => ({ action: 'accept', content: { confirm: true } }),
    onWireMessage: ({ direction, message }) => {
      if (direction === 'receive' && 'method' in message) seen.push(message.method);
    },
  });
  clients.push(client);
  return client;
}

const text = (result: { content: unknown[] }) => (result.content[0] as { text: string }).text;

beforeAll(async () => {
  if (!hasHaproxy || !hasRedis) return;
  ensureBuilt();
  redis = await startRedis();
  dir = tempDir('agentwire-balancer-');
  config = path.join(dir.dir, 'servers.json');
  writeFileSync(
    config,
    JSON.stringify({
      gateway: {
        bearerTokenEnv: 'GATEWAY_TOKEN',
        sessionSecretEnv: 'GATEWAY_SESSION_SECRET',
        redisUrl: redis.url,
        redisChannelPrefix: 'test:balancer:',
      },
      mcpServers: {
        changes: { command: process.execPath, args: [FIXTURE, '--modern-only', '--changes'], prefix: false },
      },
    }),
  );
  await Promise.all(['gw1', 'gw2', 'gw3'].map((name) => serve(name)));
  gateways.sort((a, b) => a.name.localeCompare(b.name));
  const [frontPort, statsPort] = [await freePort(), await freePort()];
  const ports: Record<string, number> = { '8787': 0, '8788': 1, '8789': 2 };
  const haproxyConfig = documentedConfig()
    .replace('127.0.0.1:8080', `127.0.0.1:${frontPort}`)
    .replace('127.0.0.1:8404', `127.0.0.1:${statsPort}`)
    .replace(
      /127\.0\.0\.1:(878[789])/g,
      (_, port: string) => `127.0.0.1:${gateways[ports[port] as number]?.port}`,
    );
  const file = path.join(dir.dir, 'haproxy.cfg');
  writeFileSync(file, haproxyConfig);
  haproxy = spawn('haproxy', ['-f', file, '-db'], { stdio: ['ignore', 'ignore', 'pipe'] });
  const child = haproxy;
  haproxyExited = new Promise((resolve) => child.once('exit', () => resolve()));
  front = `http://127.0.0.1:${frontPort}/mcp`;
  statsUrl = `http://127.0.0.1:${statsPort}/stats`;
  await until(
    async () => {
      try {
        return (await fetch(statsUrl)).ok;
      } catch {
        return false;
      }
    },
    10_000,
    'HAProxy up',
  );
}, 60_000);

afterAll(async () => {
  await Promise.allSettled(clients.map((client) => client.disconnect()));
  await Promise.allSettled(sdkClients.map((client) => client.close()));
  haproxy?.kill('SIGTERM');
  await haproxyExited;
  for (const { cli } of gateways)
    if (cli.child.exitCode === null && cli.child.signalCode === null) cli.child.kill('SIGTERM');
  await Promise.all(gateways.map(({ cli }) => cli.exited));
  await redis?.stop();
  dir?.remove();
});

describe.skipIf(!hasHaproxy || !hasRedis)('three serve processes behind HAProxy (round robin)', () => {
  const seen25: string[] = [];
  const seen26: string[] = [];
  let legacy: MCPClient;
  let modern: MCPClient;

  it('a 2025-11-25 and a 2026-07-28 client answer elicitations and get list_changed on any process', async () => {
    legacy = agentwireClient('legacy', '2025-11-25', seen25);
    modern = agentwireClient('modern', 'auto', seen26);
    await Promise.all([legacy.connect(), modern.connect()]);
    expect(legacy.getProtocolVersion()).toBe('2025-11-25');
    expect(modern.getProtocolVersion()).toBe('2026-07-28');
    const before = await served();
    for (let i = 0; i < 6; i++) {
      const [a, b] = await Promise.all([
        legacy.callTool('confirm', { action: `legacy ${i}` }),
        modern.callTool('confirm', { action: `modern ${i}` }),
      ]);
      expect([text(a), text(b)]).toEqual([`confirmed legacy ${i}`, `confirmed modern ${i}`]);
    }
    // Each call is at least two HTTP requests (the call and the answer or retry), round robin over three.
    const after = await served();
    for (const name of ['gw1', 'gw2', 'gw3'])
      expect((after[name] ?? 0) - (before[name] ?? 0)).toBeGreaterThanOrEqual(6);
    // A change through each process in turn: both clients hear of each, whichever process holds their stream.
    for (let k = 0; k < 3; k++) {
      const [n25, n26] = [seen25, seen26].map((seen) => seen.filter((m) => m === LIST_CHANGED).length);
      const actor = k % 2 === 0 ? modern : legacy;
      expect(text(await actor.callTool('change', { what: 'tool', name: `extra_${k}` }))).toBe('changed tool');
      await waitUntil(
        () =>
          seen25.filter((m) => m === LIST_CHANGED).length > (n25 as number) &&
          seen26.filter((m) => m === LIST_CHANGED).length > (n26 as number),
        10_000,
        `list_changed ${k} on both clients`,
      );
    }
  }, 60_000);

  it('the bare SDK client on 2025-11-25 gets a session id, answers an elicitation, and ends its session', async () => {
    const client = new Client(
      { name: 'sdk-legacy', version: '1.0.0' },
      { capabilities: { elicitation: { form: {} } }, versionNegotiation: { mode: 'legacy' } },
    );
    sdkClients.push(client);
    client.setRequestHandler('elicitation/create', async () => ({
      action: 'accept',
      content: { confirm: true },
    }));
    const transport = new StreamableHTTPClientTransport(new URL(front), {
      requestInit: { headers: { authorization: `Bearer ${TOKEN}` } },
    });
    await client.connect(transport);
    expect(transport.sessionId).toMatch(/^v1\.[A-Za-z0-9_-]+$/);
    for (let i = 0; i < 4; i++)
      expect(await client.callTool({ name: 'confirm', arguments: { action: `sdk ${i}` } })).toMatchObject({
        content: [{ type: 'text', text: `confirmed sdk ${i}` }],
      });
    const id = transport.sessionId as string;
    await transport.terminateSession();
    // Ended on every process: each of three requests in a row (one per process) is told so.
    for (let i = 0; i < 3; i++) {
      const response = await fetch(front, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${TOKEN}`,
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          'mcp-session-id': id,
          'mcp-protocol-version': '2025-11-25',
        },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
      });
      expect(response.status).toBe(404);
    }
  }, 60_000);

  it('one process killed mid-burst: exactly the calls it held fail, and both clients go on', async () => {
    const victim = gateways[1] as (typeof gateways)[number];
    // The burst is sent raw, without streams of its own: what fails is what the dead process held, not a
    // client's reaction to losing its GET or listen stream.
    const session = await openLegacySession();
    const before = await served();
    const calls = Array.from({ length: 12 }, (_, i) =>
      rawCall(i, i % 2 === 0 ? session : undefined).then(
        (ok) => (ok ? 'ok' : 'failed'),
        () => 'failed',
      ),
    );
    // Every call has reached a process (HAProxy counted 12 more requests) before the kill.
    await until(
      async () => {
        const now = await served();
        return ['gw1', 'gw2', 'gw3'].reduce((sum, n) => sum + (now[n] ?? 0) - (before[n] ?? 0), 0) >= 12;
      },
      10_000,
      'the burst in flight',
    );
    const held = ((await served())[victim.name] ?? 0) - (before[victim.name] ?? 0);
    victim.cli.child.kill('SIGKILL');
    const outcomes = await Promise.all(calls);
    expect(held).toBeGreaterThan(0);
    expect(outcomes.filter((one) => one === 'failed')).toHaveLength(held);
    // The survivors serve both clients, sessions included, the raw 2025 session among them.
    for (let i = 0; i < 4; i++) {
      expect(await rawCall(100 + i, session, 0)).toBe(true);
      expect(text(await legacy.callTool('confirm', { action: `after ${i}` }))).toBe(`confirmed after ${i}`);
      expect(text(await modern.callTool('confirm', { action: `after ${i}` }))).toBe(`confirmed after ${i}`);
    }
  }, 60_000);
});

const JSON_HEADERS = {
  authorization: `Bearer ${TOKEN}`,
  'content-type': 'application/json',
  accept: 'application/json, text/event-stream',
};

/** A 2025-11-25 session opened by hand (`initialize`, then `notifications/initialized`): its id. */
async function openLegacySession(): Promise<string> {
  const opened = await fetch(front, {
    method: 'POST',
    headers: JSON_HEADERS,
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 0,
      method: 'initialize',
      params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
    }),
  });
  expect(opened.status).toBe(200);
  await opened.text();
  const id = opened.headers.get('mcp-session-id') as string;
  const initialized = await fetch(front, {
    method: 'POST',
    headers: { ...JSON_HEADERS, 'mcp-session-id': id, 'mcp-protocol-version': '2025-11-25' },
    body: JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }),
  });
  expect(initialized.status).toBe(202);
  return id;
}

/**
 * One `slow` call sent raw: on the 2025 session `session`, or as a self-contained 2026-07-28 request.
 * Resolves whether it was answered with the tool's result.
 */
async function rawCall(id: number, session: string | undefined, ms = 1500): Promise<boolean> {
  const params: Record<string, unknown> = { name: 'slow', arguments: { ms } };
  const headers: Record<string, string> = { ...JSON_HEADERS };
  if (session === undefined) {
    params._meta = {
      'io.modelcontextprotocol/protocolVersion': '2026-07-28',
      'io.modelcontextprotocol/clientInfo': { name: 'raw', version: '1' },
      'io.modelcontextprotocol/clientCapabilities': {},
    };
    Object.assign(headers, {
      'mcp-protocol-version': '2026-07-28',
      'mcp-method': 'tools/call',
      'mcp-name': 'slow',
    });
  } else Object.assign(headers, { 'mcp-session-id': session, 'mcp-protocol-version': '2025-11-25' });
  const response = await fetch(front, {
    method: 'POST',
    headers,
    body: JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/call', params }),
  });
  const body = await response.text();
  return response.status === 200 && body.includes(`slept ${ms} ms`);
}
