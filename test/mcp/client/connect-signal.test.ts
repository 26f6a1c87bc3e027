/**
 * `connect({ signal })`: an abort while connecting ends the attempt (the stdio process tree stopped, the
 * HTTP request aborted), rejects with `MCPCallError` kind `aborted` whose `cause` is the signal's reason,
 * and leaves the client `disconnected`; concurrent callers share the attempt until the last one leaves.
 */
import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { MCPClient } from '../../../src/mcp/client/client.js';
import type { MCPClientEvents } from '../../../src/mcp/client/events.js';
import { parseServerConfig } from '../../../src/mcp/config/load.js';
import { MCPCallError } from '../../../src/mcp/protocol/errors.js';
import { MCPServers } from '../../../src/mcp/servers/servers.js';
import { HttpFixture } from '../../fixtures/http-server.js';
import { listenOnLoopback } from '../../fixtures/loopback.js';
import { children, EVERYTHING, everythingStdio, scripted, tempDir, waitUntil } from '../../helpers.js';

const open: { disconnect(): Promise<void> }[] = [];
const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((client) => client.disconnect()));
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

/** A stdio server that starts and never answers, tagged with a marker of its own. */
function silentServer() {
  const marker = `agentwire-silent-${randomUUID()}`;
  const client = MCPClient.fromStdio(
    { command: process.execPath, args: ['-e', 'setInterval(() => {}, 60000)', marker] },
    { name: 'silent' },
  );
  open.push(client);
  return { client, running: () => children(marker).length };
}

/** Every event the client emits about its connection. */
function connectionEvents(client: MCPClient): string[] {
  const seen: string[] = [];
  for (const name of ['connected', 'disconnected', 'reconnecting', 'error'] as const) {
    client.on(name, (_payload: MCPClientEvents[typeof name]) => seen.push(name));
  }
  return seen;
}

/** The rejection of `promise` (fails the test when it resolves). */
async function rejection(promise: Promise<unknown>): Promise<MCPCallError> {
  const outcome = await promise.then(
    () => undefined,
    (error: unknown) => error,
  );
  expect(outcome).toBeInstanceOf(MCPCallError);
  return outcome as MCPCallError;
}

/** The fields of an aborted connect, as `toEqual` compares them. */
const aborted = (server: string, reason: string) => ({
  kind: 'aborted',
  server,
  method: 'connect',
  message: `MCP server "${server}": connect failed: aborted (${reason})`,
});
const fieldsOf = (error: MCPCallError) => ({
  kind: error.kind,
  server: error.server,
  method: error.method,
  message: error.message,
});

describe('connect({ signal }) over stdio', () => {
  it('stops server-everything when the signal fires while it starts, and rejects with the reason as cause', async () => {
    const client = MCPClient.fromStdio(everythingStdio(), { name: 'everything' });
    open.push(client);
    const events = connectionEvents(client);
    const controller = new AbortController();
    const connecting = rejection(client.connect({ signal: controller.signal }));
    await waitUntil(() => children(EVERYTHING).length === 1, 5000, 'server-everything to be spawned');
    expect(client.getState()).toBe('connecting');
    const reason = new Error('user pressed stop');
    controller.abort(reason);
    const error = await connecting;
    expect(fieldsOf(error)).toEqual(aborted('everything', 'user pressed stop'));
    expect(error.cause).toBe(reason);
    // Gone by the time connect() rejects, not some time later.
    expect(children(EVERYTHING)).toEqual([]);
    expect([client.getState(), client.getTools(), events]).toEqual(['disconnected', [], []]);
  });

  it('connects normally after an aborted attempt', async () => {
    const client = MCPClient.fromStdio(everythingStdio(), { name: 'everything' });
    open.push(client);
    const controller = new AbortController();
    const first = rejection(client.connect({ signal: controller.signal }));
    await waitUntil(() => children(EVERYTHING).length === 1, 5000, 'server-everything to be spawned');
    controller.abort();
    expect((await first).kind).toBe('aborted');
    await client.connect({ signal: new AbortController().signal });
    expect([client.getState(), client.getTools().length, children(EVERYTHING).length]).toEqual([
      'connected',
      13,
      1,
    ]);
  });

  it('rejects at once for an already-aborted signal and starts nothing', async () => {
    const { dir, remove } = tempDir();
    cleanups.push(remove);
    const log = path.join(dir, 'log.jsonl');
    const client = MCPClient.fromStdio(scripted({ FIXTURE_LOG: log }), { name: 'scripted' });
    open.push(client);
    const reason = new Error('too late');
    const error = await rejection(client.connect({ signal: AbortSignal.abort(reason) }));
    expect(fieldsOf(error)).toEqual(aborted('scripted', 'too late'));
    expect(error.cause).toBe(reason);
    expect([client.getState(), existsSync(log)]).toEqual(['disconnected', false]);
  });

  it('lets each concurrent caller leave on its own signal and aborts the attempt when the last one leaves', async () => {
    const { client, running } = silentServer();
    const first = new AbortController();
    const second = new AbortController();
    const one = rejection(client.connect({ signal: first.signal }));
    const two = rejection(client.connect({ signal: second.signal }));
    await waitUntil(() => running() === 1, 5000, 'the silent server to be spawned');
    first.abort('first gave up');
    expect(fieldsOf(await one)).toEqual(aborted('silent', 'first gave up'));
    // The other caller still waits: the attempt runs on.
    expect([client.getState(), running()]).toEqual(['connecting', 1]);
    second.abort('second gave up');
    const error = await two;
    expect(fieldsOf(error)).toEqual(aborted('silent', 'second gave up'));
    expect(error.cause).toBe('second gave up');
    expect([client.getState(), running()]).toEqual(['disconnected', 0]);
  });

  it('keeps the attempt going for a caller without a signal', async () => {
    const client = MCPClient.fromStdio(everythingStdio(), { name: 'everything' });
    open.push(client);
    const controller = new AbortController();
    const leaving = rejection(client.connect({ signal: controller.signal }));
    const staying = client.connect();
    await waitUntil(() => children(EVERYTHING).length === 1, 5000, 'server-everything to be spawned');
    controller.abort();
    expect((await leaving).kind).toBe('aborted');
    await staying;
    expect([client.getState(), client.getTools().length]).toEqual(['connected', 13]);
  });

  it('still shares one promise between callers without a signal', () => {
    const { client } = silentServer();
    const calls = [client.connect(), client.connect({})];
    expect(calls[0]).toBe(calls[1]);
    for (const call of calls) call.catch(() => {});
  });

  it('ends only the wait of a caller during a reconnect, not the reconnect', async () => {
    const marker = `agentwire-reconnect-${randomUUID()}`;
    const server = scripted();
    server.args = [...(server.args ?? []), marker];
    const reconnect = { enabled: true, initialDelayMs: 300, maxDelayMs: 300, maxRetries: 3 };
    const client = MCPClient.fromStdio(server, { name: 'scripted', reconnect });
    open.push(client);
    await client.connect();
    for (const pid of children(marker)) process.kill(pid, 'SIGKILL');
    await waitUntil(() => client.getState() === 'reconnecting', 5000, 'the reconnect to start');
    const controller = new AbortController();
    const waiting = rejection(client.connect({ signal: controller.signal }));
    controller.abort('no need');
    expect(fieldsOf(await waiting)).toEqual(aborted('scripted', 'no need'));
    expect(client.getState()).toBe('reconnecting');
    await client.connect();
    expect([client.getState(), children(marker).length]).toEqual(['connected', 1]);
  });
});

describe('connect({ signal }) over HTTP', () => {
  it('aborts the initialize request of a server that never answers it', async () => {
    const fixture = await HttpFixture.start();
    cleanups.push(() => fixture.close());
    let released: Promise<void> | undefined;
    fixture.onMethod('initialize', (_req, res) => {
      released = new Promise((resolve) => res.on('close', () => resolve()));
    });
    // Pinned to 2025-11-25 so that `initialize` is the first request (the probe's abort is tested below).
    const client = MCPClient.fromUrl(fixture.url, {
      name: 'stalled',
      transport: 'streamable-http',
      protocolVersion: '2025-11-25',
    });
    open.push(client);
    const events = connectionEvents(client);
    const controller = new AbortController();
    const connecting = rejection(client.connect({ signal: controller.signal }));
    await fixture.waitForRequest((request) => request.method === 'POST');
    const reason = new Error('user pressed stop');
    controller.abort(reason);
    const error = await connecting;
    expect(fieldsOf(error)).toEqual(aborted('stalled', 'user pressed stop'));
    expect(error.cause).toBe(reason);
    await expect(released).resolves.toBeUndefined();
    expect([client.getState(), events]).toEqual(['disconnected', []]);
    expect(fixture.requests.map((request) => request.method)).toEqual(['POST']);
  });

  it("aborts 'auto''s server/discover probe of a server that never answers it", async () => {
    const fixture = await HttpFixture.start();
    cleanups.push(() => fixture.close());
    let released: Promise<void> | undefined;
    fixture.onMethod('server/discover', (_req, res) => {
      released = new Promise((resolve) => res.on('close', () => resolve()));
    });
    const client = MCPClient.fromUrl(fixture.url, { name: 'stalled', transport: 'streamable-http' });
    open.push(client);
    const events = connectionEvents(client);
    const controller = new AbortController();
    const connecting = rejection(client.connect({ signal: controller.signal }));
    await fixture.waitForRequest((request) => request.method === 'POST');
    const reason = new Error('user pressed stop');
    controller.abort(reason);
    const error = await connecting;
    expect(fieldsOf(error)).toEqual(aborted('stalled', 'user pressed stop'));
    expect(error.cause).toBe(reason);
    await expect(released).resolves.toBeUndefined();
    expect([client.getState(), events]).toEqual(['disconnected', []]);
    expect(
      fixture.requests.map((request) => [request.method, (request.json as { method?: string }).method]),
    ).toEqual([['POST', 'server/discover']]);
  });
});

/**
 * A 2024-11-05 HTTP+SSE server that never names its endpoint: its GET is never answered (`stall`) or gets
 * SSE headers and a comment only (`silent`). With `post404`, POSTs are answered 404, so 'auto' falls back
 * to HTTP+SSE. `openGets()` counts GETs whose connection is still open.
 */
async function stallingSse(mode: 'stall' | 'silent', post404 = false) {
  let gets = 0;
  let open = 0;
  const server = await listenOnLoopback((req, res) => {
    req.resume();
    if (req.method !== 'GET') {
      if (post404) res.writeHead(404).end('Not Found');
      return;
    }
    gets += 1;
    open += 1;
    res.on('close', () => {
      open -= 1;
    });
    if (mode === 'silent') {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write(': no endpoint here\n\n');
    }
  });
  cleanups.push(() => server.close());
  return { url: `${server.origin}/sse`, gets: () => gets, openGets: () => open };
}

describe('connect() over HTTP+SSE while the GET waits for the endpoint event', () => {
  it.each(['stall', 'silent'] as const)(
    'aborts on the signal (GET %s): kind aborted at once, the GET closed',
    async (mode) => {
      const server = await stallingSse(mode);
      const client = MCPClient.fromUrl(server.url, { name: 'old', transport: 'sse' });
      open.push(client);
      const events = connectionEvents(client);
      const controller = new AbortController();
      const connecting = rejection(client.connect({ signal: controller.signal }));
      await waitUntil(() => server.openGets() === 1, 5000, 'the GET to arrive');
      const reason = new Error('user pressed stop');
      const started = Date.now();
      controller.abort(reason);
      const error = await connecting;
      expect(Date.now() - started).toBeLessThan(5000);
      expect(fieldsOf(error)).toEqual(aborted('old', 'user pressed stop'));
      expect(error.cause).toBe(reason);
      await waitUntil(() => server.openGets() === 0, 5000, 'the GET to be closed');
      expect([client.getState(), events, server.gets()]).toEqual(['disconnected', [], 1]);
    },
  );

  it.each([
    ['stall', 'no response to the SSE GET within 500 ms'],
    ['silent', 'no endpoint event on the SSE stream within 500 ms'],
  ] as const)('times out at connectTimeoutMs (GET %s): kind timeout', async (mode, reason) => {
    const server = await stallingSse(mode);
    const client = MCPClient.fromUrl(server.url, { name: 'old', transport: 'sse', connectTimeoutMs: 500 });
    open.push(client);
    const started = Date.now();
    const error = await rejection(client.connect());
    const elapsed = Date.now() - started;
    expect([elapsed >= 450, elapsed < 5000]).toEqual([true, true]);
    expect([fieldsOf(error), error.timeoutMs]).toEqual([
      {
        kind: 'timeout',
        server: 'old',
        method: 'initialize',
        message: `MCP server "old": initialize failed: ${reason}`,
      },
      500,
    ]);
    await waitUntil(() => server.openGets() === 0, 5000, 'the GET to be closed');
    expect(client.getState()).toBe('failed');
  });

  it('lets disconnect() end the wait: it resolves, connect() rejects, the GET is closed', async () => {
    const server = await stallingSse('silent');
    const client = MCPClient.fromUrl(server.url, { name: 'old', transport: 'sse' });
    open.push(client);
    const connecting = rejection(client.connect());
    await waitUntil(() => server.openGets() === 1, 5000, 'the GET to arrive');
    const started = Date.now();
    await client.disconnect();
    expect(Date.now() - started).toBeLessThan(5000);
    expect(fieldsOf(await connecting)).toEqual({
      kind: 'not_connected',
      server: 'old',
      method: 'connect',
      message: 'MCP server "old": connect failed: disconnect() was called while connecting',
    });
    await waitUntil(() => server.openGets() === 0, 5000, 'the GET to be closed');
    expect(client.getState()).toBe('disconnected');
  });

  it("aborts 'auto''s HTTP+SSE fallback after the POSTs were refused with 404", async () => {
    const server = await stallingSse('stall', true);
    const client = MCPClient.fromUrl(server.url, { name: 'old' });
    open.push(client);
    const controller = new AbortController();
    const connecting = rejection(client.connect({ signal: controller.signal }));
    await waitUntil(() => server.openGets() === 1, 5000, 'the fallback GET to arrive');
    controller.abort('stop');
    const error = await connecting;
    expect(fieldsOf(error)).toEqual(aborted('old', 'stop'));
    await waitUntil(() => server.openGets() === 0, 5000, 'the GET to be closed');
    expect(client.getState()).toBe('disconnected');
  });
});

describe('MCPServers.connectAll({ signal })', () => {
  it('stops the servers still connecting, keeps the connected ones, and reports each abort', async () => {
    const config = parseServerConfig({
      mcpServers: {
        everything: { command: process.execPath, args: [EVERYTHING] },
        silent: { command: process.execPath, args: ['-e', 'setInterval(() => {}, 60000)', 'agentwire-all'] },
      },
    });
    const servers = MCPServers.fromConfig(config);
    open.push({ disconnect: () => servers.disconnectAll() });
    const controller = new AbortController();
    const connecting = servers.connectAll({ signal: controller.signal });
    await waitUntil(() => servers.get('everything')!.isConnected(), 10_000, 'everything to connect');
    expect(children('agentwire-all')).toHaveLength(1);
    const reason = new Error('stop');
    controller.abort(reason);
    const results = await connecting;
    expect(
      results.map((result) => (result.ok ? [result.name, true] : [result.name, fieldsOf(result.error)])),
    ).toEqual([
      ['everything', true],
      ['silent', aborted('silent', 'stop')],
    ]);
    expect(!results[1]!.ok && results[1]!.error.cause).toBe(reason);
    expect(children('agentwire-all')).toEqual([]);
    expect(servers.status().map((status) => status.state)).toEqual(['connected', 'disconnected']);
  });

  it('stops a member whose HTTP+SSE GET never answers', async () => {
    const server = await stallingSse('stall');
    const servers = MCPServers.fromConfig(
      parseServerConfig({ mcpServers: { old: { type: 'sse', url: server.url } } }),
    );
    open.push({ disconnect: () => servers.disconnectAll() });
    const controller = new AbortController();
    const connecting = servers.connectAll({ signal: controller.signal });
    await waitUntil(() => server.openGets() === 1, 5000, 'the GET to arrive');
    controller.abort('stop');
    const results = await connecting;
    expect(results.map((result) => !result.ok && fieldsOf(result.error))).toEqual([aborted('old', 'stop')]);
    await waitUntil(() => server.openGets() === 0, 5000, 'the GET to be closed');
    expect(servers.status().map((status) => status.state)).toEqual(['disconnected']);
  });

  it('starts nothing for an already-aborted signal', async () => {
    const servers = MCPServers.fromConfig(
      parseServerConfig({ mcpServers: { everything: { command: process.execPath, args: [EVERYTHING] } } }),
    );
    const results = await servers.connectAll({ signal: AbortSignal.abort('no') });
    expect(results.map((result) => !result.ok && fieldsOf(result.error))).toEqual([
      aborted('everything', 'no'),
    ]);
    expect(children(EVERYTHING)).toEqual([]);
  });
});
