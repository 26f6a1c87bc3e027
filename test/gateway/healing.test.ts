/**
 * Upstreams that heal (src/gateway/upstream-health.ts): an HTTP upstream killed and started again (the real
 * server-everything in its streamableHttp mode, and the 2026-07-28-only SDK fixture) is refused at once
 * while it is down, with `-32603` and `data: { server, kind: 'unavailable', retryAfterMs }`, keeps its last
 * known tools in the list, and serves again once it is back; one down when the gateway starts joins when it
 * comes up (its tools appear, announced by `list_changed`); a stdio upstream killed is refused at once
 * until it is respawned; an HTTP upstream that forgets its sessions (404) gets a new one at once, a
 * read-only tool call is sent again on it and answered, any other call fails with `session_expired`.
 */
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { MCPGateway } from '../../src/gateway/index.js';
import { MCPCallError, MCPClient, MCPServers } from '../../src/mcp/index.js';
import { startEra2026Http } from '../fixtures/era2026/http-server.js';
import { startForgetfulHttp } from '../fixtures/forgetful-http-server.js';
import { freePort, startEverything } from '../fixtures/http-everything.js';
import { children, EVERYTHING, everythingStdio, waitUntil } from '../helpers.js';
import { TOKEN } from './fleet.js';

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup().catch(() => {});
});

/** A gateway over `clients` (reconnection backoff `initialDelayMs`), and agentwire's client connected to it. */
async function gatewayOver(clients: MCPClient[], initialDelayMs: number) {
  const servers = new MCPServers();
  for (const one of clients) servers.add(one);
  const gateway = new MCPGateway(servers, { reconnect: { initialDelayMs, maxDelayMs: initialDelayMs * 4 } });
  cleanups.push(() => gateway.close());
  const results = await gateway.start();
  const { url } = await gateway.listen({ bearerToken: TOKEN });
  const client = MCPClient.fromUrl(url, { name: 'gw', headers: { authorization: `Bearer ${TOKEN}` } });
  cleanups.push(() => client.disconnect());
  await client.connect();
  return { gateway, client, results };
}

/** The error of `call`, with how long it took to come, in ms. */
async function failure(call: Promise<unknown>): Promise<{ error: unknown; ms: number }> {
  const started = performance.now();
  const error = await call.then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  return { error, ms: performance.now() - started };
}

const text = (result: { content: unknown[] }) => (result.content[0] as { text: string }).text;
const upstream = (gateway: MCPGateway, name: string) =>
  gateway.status().upstreams.find((one) => one.name === name);

describe('an HTTP upstream killed and started again (server-everything, streamableHttp)', () => {
  it('is refused at once while down, keeps its tools listed, and serves again once back', async () => {
    const port = await freePort();
    let everything = await startEverything('streamableHttp', 15_000, port);
    cleanups.push(() => everything.stop());
    const remote = MCPClient.fromUrl(everything.url, { name: 'remote' });
    const { gateway, client } = await gatewayOver([remote], 2_000);
    const listed = (await client.refreshTools()).map((tool) => tool.name);
    expect(listed).toContain('remote__echo');
    expect(text(await client.callTool('remote__echo', { message: 'one' }))).toBe('Echo: one');
    const prompts = (await client.listPrompts()).map((prompt) => prompt.name);
    expect(prompts.length).toBeGreaterThan(0);

    await everything.stop();
    // The first call after the kill meets the loss itself (its upstream request is refused:
    // `connection_closed`), unless the loss was noticed before; either way it fails at once.
    const first = await failure(client.callTool('remote__echo', { message: 'two' }, { timeoutMs: 60_000 }));
    expect(first.ms).toBeLessThan(1_000);
    expect(['connection_closed', 'unavailable']).toContain(
      ((first.error as MCPCallError).data as { kind: string }).kind,
    );
    await waitUntil(() => upstream(gateway, 'remote')?.state === 'reconnecting', 10_000, 'the loss');
    const { error, ms } = await failure(client.callTool('remote__echo', { message: 'three' }));
    expect(ms).toBeLessThan(1_000);
    expect(error).toBeInstanceOf(MCPCallError);
    expect((error as MCPCallError).code).toBe(-32603);
    const data = (error as MCPCallError).data as { retryAfterMs: number };
    expect(data).toEqual({ server: 'remote', kind: 'unavailable', retryAfterMs: data.retryAfterMs });
    expect(Number.isInteger(data.retryAfterMs) && data.retryAfterMs > 0).toBe(true);
    expect(data.retryAfterMs).toBeLessThanOrEqual(8_000);
    // Its last known tools and prompts stay listed: an outage changes nothing of what clients see.
    expect((await client.refreshTools()).map((tool) => tool.name)).toEqual(listed);
    expect((await client.listPrompts()).map((prompt) => prompt.name)).toEqual(prompts);
    const prompt = await failure(client.getPrompt(prompts[0] as string, {}));
    expect(prompt.ms).toBeLessThan(1_000);
    expect(prompt.error).toMatchObject({ code: -32603, data: { server: 'remote', kind: 'unavailable' } });
    const status = upstream(gateway, 'remote');
    expect(status).toMatchObject({ state: 'reconnecting', toolCount: listed.length });
    expect(status?.lastFailure?.at).toMatch(/^\d{4}-\d\d-\d\dT/);
    expect(status?.nextAttempt?.inMs).toBeLessThanOrEqual(8_000);

    everything = await startEverything('streamableHttp', 15_000, port);
    await waitUntil(() => upstream(gateway, 'remote')?.state === 'connected', 20_000, 'the return');
    expect(text(await client.callTool('remote__echo', { message: 'four' }))).toBe('Echo: four');
    // The last failure is kept after the reconnect, for the operator.
    expect(upstream(gateway, 'remote')).toMatchObject({ state: 'connected', attempts: 0 });
    expect(upstream(gateway, 'remote')?.lastFailure).toBeDefined();
    expect(upstream(gateway, 'remote')?.nextAttempt).toBeUndefined();
  }, 90_000);
});

describe('a 2026-07-28-only HTTP upstream', () => {
  it('down when the gateway starts joins when it comes up, its tools announced', async () => {
    const port = await freePort();
    const late = MCPClient.fromUrl(`http://127.0.0.1:${port}/mcp`, { name: 'late' });
    const { gateway, client, results } = await gatewayOver([late], 300);
    expect(results).toMatchObject([{ name: 'late', ok: false, error: { kind: 'transport' } }]);
    expect(client.getTools()).toEqual([]);
    expect(upstream(gateway, 'late')).toMatchObject({ state: 'reconnecting', toolCount: 0, attempts: 1 });
    const { error, ms } = await failure(client.callTool('late__echo', { text: 'x' }));
    expect(ms).toBeLessThan(1_000);
    // It never listed a tool: the name is unknown, not unavailable.
    expect(error).toMatchObject({ kind: 'jsonrpc', code: -32602 });

    const changed = new Promise<string[]>((resolve) =>
      client.once('toolsChanged', ({ tools }) => resolve(tools.map((tool) => tool.name))),
    );
    const modern = await startEra2026Http({ modernOnly: true, port });
    cleanups.push(() => modern.close());
    expect(await changed).toEqual([
      'late__add',
      'late__echo',
      'late__progress',
      'late__slow',
      'late__fail',
      'late__region_query',
      'late__confirm',
    ]);
    expect(text(await client.callTool('late__echo', { text: 'hi' }))).toBe('echo: hi');
    expect(upstream(gateway, 'late')).toMatchObject({ state: 'connected', attempts: 0 });

    // Killed and started again where it was: down meanwhile, then back.
    await modern.close();
    await waitUntil(() => upstream(gateway, 'late')?.state === 'reconnecting', 10_000, 'the loss');
    const down = await failure(client.callTool('late__echo', { text: 'x' }));
    expect(down.ms).toBeLessThan(1_000);
    expect(down.error).toMatchObject({ code: -32603, data: { server: 'late', kind: 'unavailable' } });
    const again = await startEra2026Http({ modernOnly: true, port });
    cleanups.push(() => again.close());
    await waitUntil(() => upstream(gateway, 'late')?.state === 'connected', 20_000, 'the return');
    expect(text(await client.callTool('late__echo', { text: 'back' }))).toBe('echo: back');
  }, 90_000);
});

describe('a stdio upstream killed', () => {
  it('is refused at once until it is respawned', async () => {
    const before = new Set(children(EVERYTHING));
    const stdio = MCPClient.fromStdio(everythingStdio(), { name: 'local' });
    const { gateway, client } = await gatewayOver([stdio], 3_000);
    const [pid] = children(EVERYTHING).filter((one) => !before.has(one));
    process.kill(pid as number, 'SIGKILL');
    await waitUntil(() => upstream(gateway, 'local')?.state === 'reconnecting', 10_000, 'the loss');
    const { error, ms } = await failure(client.callTool('local__echo', { message: 'x' }));
    expect(ms).toBeLessThan(1_000);
    expect(error).toMatchObject({ code: -32603, data: { server: 'local', kind: 'unavailable' } });
    const { retryAfterMs } = (error as MCPCallError).data as { retryAfterMs: number };
    expect(retryAfterMs).toBeGreaterThan(0);
    expect(retryAfterMs).toBeLessThanOrEqual(3_000);
    await waitUntil(() => upstream(gateway, 'local')?.state === 'connected', 20_000, 'the respawn');
    expect(text(await client.callTool('local__echo', { message: 'back' }))).toBe('Echo: back');
  }, 60_000);
});

describe('an HTTP upstream that forgets its sessions (404)', () => {
  it('gets a new session at once; a read-only call is sent again, any other fails with session_expired', async () => {
    const forgetful = await startForgetfulHttp();
    cleanups.push(() => forgetful.close());
    const remote = MCPClient.fromUrl(forgetful.url, { name: 'forgetful' });
    const { gateway, client } = await gatewayOver([remote], 10_000);
    expect(text(await client.callTool('forgetful__bump', {}))).toBe('bumped: 1');
    expect(forgetful.initializes).toBe(1);

    forgetful.forget();
    // `count` is read-only: renewed, sent again, answered.
    expect(text(await client.callTool('forgetful__count', {}))).toBe('count: 1');
    expect(forgetful.initializes).toBe(2);
    expect(forgetful.forgotten).toBeGreaterThanOrEqual(1);

    forgetful.forget();
    // `bump` is not: the caller decides; the session is renewed all the same, without backoff.
    const { error } = await failure(client.callTool('forgetful__bump', {}));
    expect(error).toMatchObject({ code: -32603, data: { server: 'forgetful', kind: 'session_expired' } });
    await waitUntil(() => upstream(gateway, 'forgetful')?.state === 'connected', 5_000, 'the renewal');
    expect(forgetful.initializes).toBe(3);
    expect(text(await client.callTool('forgetful__bump', {}))).toBe('bumped: 2');
    expect(upstream(gateway, 'forgetful')?.lastFailure?.kind).toBe('session_expired');
  }, 60_000);
});

afterAll(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup().catch(() => {});
});
