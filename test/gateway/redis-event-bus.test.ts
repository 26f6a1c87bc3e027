/**
 * The Redis-backed `ServerEventBus` (src/gateway/redis-event-bus.ts) against a real Redis (test/fixtures/
 * redis.ts) and two real 2026-07-28 servers (the SDK's `createMcpHandler` over the era2026 fixture, each on its
 * own HTTP port with its own bus, over the same data, as two processes of one gateway are over the same
 * upstreams): a client listening on A gets the changes made through B, exactly once; Redis restarted → the
 * buses reconnect, tell their listeners the lists may have changed, and carry events again; typed errors
 * that never show the URL's password; channel prefixes keep gateways apart; `close()` leaves no connection.
 */
import { createServer } from 'node:net';
import { inspect } from 'node:util';
import { createClient } from '@redis/client';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  createRedisEventBus,
  DEFAULT_REDIS_CHANNEL_PREFIX,
  type RedisEventBus,
  RedisEventBusError,
} from '../../src/gateway/redis-event-bus.js';
import { MCPClient } from '../../src/mcp/client/client.js';
import { type Era2026HttpServer, startEra2026Http } from '../fixtures/era2026/http-server.js';
import { createChangeState } from '../fixtures/era2026/server.mjs';
import { type RedisFixture, startRedis } from '../fixtures/redis.js';
import { needsProgram } from '../fixtures/system-programs.js';
import { waitUntil } from '../helpers.js';
import { next, pause, type Seen, watch } from '../mcp/era2026/listen-helpers.js';

const hasRedis = needsProgram('redis-server', import.meta.url);

type Event = Parameters<Parameters<RedisEventBus['subscribe']>[0]>[0];

const buses: RedisEventBus[] = [];
const clients: MCPClient[] = [];
afterEach(async () => {
  await Promise.all(clients.splice(0).map((client) => client.disconnect()));
});
afterAll(async () => {
  await Promise.all(buses.splice(0).map((bus) => bus.close()));
});

async function bus(
  url: string,
  options: { channelPrefix?: string; errors?: Error[] } = {},
): Promise<RedisEventBus> {
  const errors = options.errors;
  const created = await createRedisEventBus({
    url,
    ...(options.channelPrefix !== undefined && { channelPrefix: options.channelPrefix }),
    ...(errors !== undefined && { onError: (error: Error) => errors.push(error) }),
  });
  buses.push(created);
  return created;
}

function client(url: string, name: string): MCPClient {
  const created = MCPClient.fromUrl(url, { name, listChangedDebounceMs: 10 });
  clients.push(created);
  return created;
}

/** Records what `target` delivers to its listeners. */
function record(target: RedisEventBus): Event[] {
  const events: Event[] = [];
  target.subscribe((event) => events.push(event));
  return events;
}

/** The clients connected to `redis` now (CLIENT LIST, less the asking connection). */
async function redisClients(redis: RedisFixture): Promise<number> {
  const probe = createClient({ url: redis.url });
  await probe.connect();
  try {
    const list = await probe.clientList();
    return list.length - 1;
  } finally {
    probe.destroy();
  }
}

describe.skipIf(!hasRedis)('two 2026-07-28 servers over one Redis', () => {
  let redis: RedisFixture;
  let a: Era2026HttpServer;
  let b: Era2026HttpServer;
  let busA: RedisEventBus;
  let busB: RedisEventBus;
  const errorsA: Error[] = [];
  const errorsB: Error[] = [];

  beforeAll(async () => {
    redis = await startRedis();
    busA = await bus(redis.url, { errors: errorsA });
    busB = await bus(redis.url, { errors: errorsB });
    // One set of tools, prompts and resources (the upstreams), a notifier per server.
    const data = createChangeState();
    a = await startEra2026Http({ modernOnly: true, changes: { ...data }, bus: busA });
    b = await startEra2026Http({ modernOnly: true, changes: { ...data }, bus: busB });
  });
  afterAll(async () => {
    await Promise.all([a?.close(), b?.close()]);
    await Promise.all([busA?.close(), busB?.close()]);
    await redis?.stop();
  });

  it('delivers list changes made through B to a listener on A (and on B), once each', async () => {
    const listener = client(a.url, 'on-a');
    const seen = watch(listener);
    await listener.connect();
    await waitUntil(() => a.openListenStreams === 1, 5000, 'the listen stream on A');
    const actor = client(b.url, 'on-b');
    const seenOnB = watch(actor);
    await actor.connect();
    await waitUntil(() => b.openListenStreams === 1, 5000, 'the listen stream on B');

    const toolsChanged = next(listener, 'toolsChanged');
    await actor.callTool('change', { what: 'tool', name: 'from_b' });
    await toolsChanged;
    const promptsChanged = next(listener, 'promptsChanged');
    await actor.callTool('change', { what: 'prompt', name: 'prompt_b' });
    await promptsChanged;
    const resourcesChanged = next(listener, 'resourcesChanged');
    await actor.callTool('change', { what: 'resources', name: 'r_b' });
    await resourcesChanged;
    // A lists what B changed: the listener's tools/list went to A.
    expect((await listener.callTool('from_b')).content).toEqual([{ type: 'text', text: 'added from_b' }]);
    await pause(200);
    const expected: Seen[] = [
      ['toolsChanged', { added: ['from_b'], removed: [], changed: [] }],
      ['promptsChanged', {}],
      ['resourcesChanged', {}],
    ];
    expect([seen, seenOnB]).toEqual([expected, expected]);
    expect([a.requests.some((r) => r.body.includes('"change"')), errorsA, errorsB]).toEqual([false, [], []]);
  });

  it('delivers resource updates made through B to a subscriber on A, for the subscribed URI only', async () => {
    const listener = client(a.url, 'on-a');
    const seen = watch(listener);
    await listener.connect();
    await listener.subscribeResource('fixture://a');
    await waitUntil(() => a.openListenStreams === 1, 5000, 'the subscribed listen stream on A');
    const actor = client(b.url, 'on-b');
    await actor.connect();

    const updated = next(listener, 'resourceUpdated');
    await actor.callTool('change', { what: 'resource', uri: 'fixture://b' });
    await actor.callTool('change', { what: 'resource', uri: 'fixture://a' });
    await updated;
    const version = a.changes?.resources.get('fixture://a');
    expect((await listener.readResource('fixture://a')).contents).toEqual([
      { uri: 'fixture://a', mimeType: 'text/plain', text: `fixture://a v${version}` },
    ]);
    await pause(200);
    expect(seen).toEqual([['resourceUpdated', { uri: 'fixture://a' }]] satisfies Seen[]);
  });

  it('recovers from a Redis restart: reports the drop, resyncs its listeners, carries events again', async () => {
    const onA = record(busA);
    await redis.restart();
    await waitUntil(() => busA.connected && busB.connected, 10_000, 'both buses reconnected');
    await waitUntil(() => onA.length === 3, 5000, 'the resync events on A');
    expect(onA).toEqual([
      { kind: 'tools_list_changed' },
      { kind: 'prompts_list_changed' },
      { kind: 'resources_list_changed' },
    ]);
    const drop = errorsA[0];
    expect(drop).toBeInstanceOf(RedisEventBusError);
    expect(drop).toMatchObject({
      operation: 'connection',
      server: `127.0.0.1:${redis.port}`,
      channel: `${DEFAULT_REDIS_CHANNEL_PREFIX}events`,
    });
    expect(
      errorsA.every((error) => error instanceof RedisEventBusError && error.operation === 'connection'),
    ).toBe(true);

    const listener = client(a.url, 'on-a');
    await listener.connect();
    await waitUntil(() => a.openListenStreams === 1, 5000, 'the listen stream on A');
    const actor = client(b.url, 'on-b');
    await actor.connect();
    const toolsChanged = next(listener, 'toolsChanged');
    await actor.callTool('change', { what: 'tool', name: 'after_restart' });
    await toolsChanged;
    expect(listener.getTools().map((tool) => tool.name)).toContain('after_restart');
    await waitUntil(() => onA.length === 4, 5000, 'the event on the bus');
    expect(onA[3]).toEqual({ kind: 'tools_list_changed' });
  });
});

describe.skipIf(!hasRedis)('the Redis event bus', () => {
  let redis: RedisFixture;
  beforeAll(async () => {
    redis = await startRedis();
  });
  afterAll(() => redis?.stop());

  it('carries params and URIs as published, and keeps channel prefixes apart', async () => {
    const one = await bus(redis.url, { channelPrefix: 'one:' });
    const alsoOne = await bus(redis.url, { channelPrefix: 'one:' });
    const two = await bus(redis.url, { channelPrefix: 'two:' });
    expect([one.channel, two.channel, one.server]).toEqual([
      'one:events',
      'two:events',
      `127.0.0.1:${redis.port}`,
    ]);
    const [onOne, onAlsoOne, onTwo] = [record(one), record(alsoOne), record(two)];
    one.publish({ kind: 'resource_updated', uri: 'file:///x', params: { note: 'n' } });
    one.publish({ kind: 'tools_list_changed' });
    await waitUntil(() => onAlsoOne.length === 2, 5000, 'the events on the same channel');
    const expected = [
      { kind: 'resource_updated', uri: 'file:///x', params: { note: 'n' } },
      { kind: 'tools_list_changed' },
    ];
    await pause(100);
    expect([onOne, onAlsoOne, onTwo]).toEqual([expected, expected, []]);
  });

  it('reports a message that is not an event and goes on', async () => {
    const errors: Error[] = [];
    const target = await bus(redis.url, { channelPrefix: 'decode:', errors });
    const events = record(target);
    const raw = createClient({ url: redis.url });
    await raw.connect();
    try {
      await raw.publish('decode:events', 'not json');
      await raw.publish('decode:events', JSON.stringify({ origin: 'x', event: { kind: 'unknown' } }));
      await raw.publish(
        'decode:events',
        JSON.stringify({ origin: 'x', event: { kind: 'prompts_list_changed' } }),
      );
    } finally {
      raw.destroy();
    }
    await waitUntil(() => events.length === 1, 5000, 'the event after the bad messages');
    expect(events).toEqual([{ kind: 'prompts_list_changed' }]);
    expect(errors.map((error) => error instanceof RedisEventBusError && error.operation)).toEqual([
      'decode',
      'decode',
    ]);
  });

  it('keeps delivering when a listener throws, and reports what it threw', async () => {
    const errors: Error[] = [];
    const target = await bus(redis.url, { channelPrefix: 'throw:', errors });
    const boom = new Error('listener failed');
    const unsubscribe = target.subscribe(() => {
      throw boom;
    });
    const events = record(target);
    target.publish({ kind: 'tools_list_changed' });
    unsubscribe();
    unsubscribe();
    target.publish({ kind: 'tools_list_changed' });
    expect([events.length, errors, target.listenerCount]).toEqual([2, [boom], 1]);
  });

  it('closes both connections, and a closed bus neither reconnects nor reports', async () => {
    const before = await redisClients(redis);
    const errors: Error[] = [];
    const target = await bus(redis.url, { channelPrefix: 'close:', errors });
    expect(await redisClients(redis)).toBe(before + 2);
    const events = record(target);
    await target.close();
    await target.close();
    // Redis notices a closed socket on its own time: ask until it has.
    let left = await redisClients(redis);
    for (let tries = 0; left !== before && tries < 100; tries++) {
      await pause(50);
      left = await redisClients(redis);
    }
    expect(left).toBe(before);
    expect(target.connected).toBe(false);
    // After close, events stay in this process.
    target.publish({ kind: 'prompts_list_changed' });
    expect([events, errors]).toEqual([[{ kind: 'prompts_list_changed' }], []]);
  });

  it('stops reconnecting when closed while Redis is away', async () => {
    const own = await startRedis();
    const errors: Error[] = [];
    const target = await createRedisEventBus({ url: own.url, onError: (error) => errors.push(error) });
    await own.stop();
    await waitUntil(() => errors.length > 0, 5000, 'the drop reported');
    await target.close();
    const reported = errors.length;
    await pause(500);
    expect(errors.length).toBe(reported);
  });

  it('reports an outage once however many reconnects fail, and its end once', async () => {
    const own = await startRedis();
    const errors: Error[] = [];
    let reconnects = 0;
    const target = await createRedisEventBus({
      url: own.url,
      maxReconnectDelayMs: 50,
      onError: (error) => errors.push(error),
      onReconnect: () => {
        reconnects += 1;
      },
    });
    try {
      await own.pause();
      // While Redis is away, its port refuses nothing: a listener there counts the reconnects and drops them.
      let attempts = 0;
      const refuser = createServer((socket) => {
        attempts += 1;
        socket.destroy();
      });
      await new Promise<void>((resolve) => refuser.listen(own.port, '127.0.0.1', resolve));
      try {
        await waitUntil(() => attempts >= 6, 10_000, 'reconnects of both connections to fail');
      } finally {
        await new Promise((resolve) => refuser.close(resolve));
      }
      await own.resume();
      await waitUntil(() => reconnects === 1, 10_000, 'the bus to say it is back');
      expect(target.connected).toBe(true);
      expect(errors.map((error) => error instanceof RedisEventBusError && error.operation)).toEqual([
        'connection',
      ]);
      await own.pause();
      await waitUntil(() => errors.length === 2, 10_000, 'the second outage reported');
      await own.resume();
      await waitUntil(() => reconnects === 2, 10_000, 'the bus back again');
      expect(errors).toHaveLength(2);
    } finally {
      await target.close();
      await own.stop();
    }
  });

  it('fails to start with a typed error when Redis is not there', async () => {
    const gone = await startRedis();
    await gone.stop();
    const error = await createRedisEventBus({ url: gone.url }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(RedisEventBusError);
    expect(error).toMatchObject({
      operation: 'connect',
      server: `127.0.0.1:${gone.port}`,
      channel: 'agentwire:mcp:events',
    });
    expect((error as Error).cause).toBeInstanceOf(Error);
  });

  it('refuses a URL that is not redis: or rediss:, without repeating it', async () => {
    const error = await createRedisEventBus({ url: 'http://user:hunter2secret@127.0.0.1:1' }).catch(
      (caught: unknown) => caught,
    );
    expect(error).toBeInstanceOf(TypeError);
    expect(inspect(error)).not.toContain('hunter2secret');
  });
});

describe.skipIf(!hasRedis)('a Redis with a password', () => {
  const PASSWORD = 'p4ss-w0rd-for-the-test';
  let redis: RedisFixture;
  beforeAll(async () => {
    redis = await startRedis({ password: PASSWORD });
  });
  afterAll(() => redis?.stop());

  it('authenticates with the URL, and no error shows the password', async () => {
    const errors: Error[] = [];
    const one = await bus(redis.url, { channelPrefix: 'auth:', errors });
    const two = await bus(redis.url, { channelPrefix: 'auth:' });
    const events = record(two);
    one.publish({ kind: 'tools_list_changed' });
    await waitUntil(() => events.length === 1, 5000, 'the event through an authenticated Redis');

    const wrong = redis.url.replace(PASSWORD, 'not-the-right-one');
    const refused = await createRedisEventBus({ url: wrong }).catch((caught: unknown) => caught);
    expect(refused).toMatchObject({ operation: 'connect', server: `127.0.0.1:${redis.port}` });
    await redis.restart();
    await waitUntil(() => one.connected, 10_000, 'the bus reconnected');
    expect(errors.length).toBeGreaterThan(0);
    for (const error of [refused, ...errors]) {
      const shown = inspect(error, { depth: 10 });
      expect([shown.includes(PASSWORD), shown.includes('not-the-right-one')]).toEqual([false, false]);
    }
  });
});
