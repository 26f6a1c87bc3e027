/**
 * A 2025-11-25 Streamable HTTP server that forgets its sessions mid-run (test/fixtures/forgetful-http-server.ts):
 * every request kind that meets the 404 starts a new session (MCP spec 2025-11-25, "Transports > Session
 * Management": the client MUST send a new `initialize`), and is sent again on it only when that is safe
 * (session/engine/replay-decision.ts): a read once, a `tools/call` only to a tool annotated `readOnlyHint` or
 * `idempotentHint`; any other call fails with kind `may_have_run` and is not sent again.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { MCPClient } from '../../../src/mcp/client/client.js';
import type { MCPRetry } from '../../../src/mcp/client/hooks/hook-types.js';
import type { MCPClientHooks } from '../../../src/mcp/client/options.js';
import { MCPCallError } from '../../../src/mcp/protocol/errors.js';
import { type ForgetfulHttpServer, startForgetfulHttp } from '../../fixtures/forgetful-http-server.js';

let server: ForgetfulHttpServer;
beforeAll(async () => {
  server = await startForgetfulHttp();
});
afterAll(async () => {
  await server.close();
});

const open: MCPClient[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((client) => client.disconnect()));
});

/** A connected client with reconnection on (or off), and the requests the server receives from now on. */
async function connect(reconnect: boolean, hooks?: MCPClientHooks) {
  const client = MCPClient.fromUrl(server.url, {
    name: 'forgetful',
    transport: 'streamable-http',
    reconnect: { enabled: reconnect, initialDelayMs: 10, maxDelayMs: 20, maxRetries: 3 },
    ...(hooks && { hooks }),
  });
  open.push(client);
  await client.connect();
  const from = server.received.length;
  const events: string[] = [];
  client.on('disconnected', () => events.push('disconnected'));
  client.on('reconnected', () => events.push('reconnected'));
  return { client, events, received: () => server.received.slice(from) };
}

describe('a server that forgot the session (HTTP 404, 2025-11-25)', () => {
  it('renews the session and sends a read again once', async () => {
    const { client, events, received } = await connect(true);
    server.forget();
    await client.ping();
    expect(received()).toEqual(['ping', 'initialize', 'tools/list', 'ping']);
    expect(events).toEqual(['disconnected', 'reconnected']);
    expect(client.getState()).toBe('connected');
  });

  it('renews the session and sends a readOnlyHint tool call again', async () => {
    const { client, received } = await connect(true);
    server.forget();
    expect((await client.callTool('count', {})).content).toEqual([{ type: 'text', text: 'count: 0' }]);
    expect(received()).toEqual(['tools/call count', 'initialize', 'tools/list', 'tools/call count']);
  });

  it('fails a tool call marked neither readOnlyHint nor idempotentHint with kind may_have_run, sent once', async () => {
    const { client, received } = await connect(true);
    server.forget();
    const error = (await client.callTool('bump', {}).catch((e: unknown) => e)) as MCPCallError;
    expect(error).toBeInstanceOf(MCPCallError);
    expect([error.kind, error.method, error.toolName, error.server, error.status]).toEqual([
      'may_have_run',
      'tools/call',
      'bump',
      'forgetful',
      404,
    ]);
    expect(error.reason).toMatch(
      /; the tool may or may not have run, and was not re-sent \(it is not marked readOnlyHint or idempotentHint\)$/,
    );
    // The session is renewed all the same; the call went out once.
    await expect.poll(() => client.getState()).toBe('connected');
    expect(received().filter((m) => m.startsWith('tools/call'))).toEqual(['tools/call bump']);
    expect(received()).toEqual(['tools/call bump', 'initialize', 'tools/list']);
  });

  it('asks the beforeRetry hooks before a re-send: a veto fails the readOnlyHint call as may_have_run, sent once', async () => {
    const asked: Omit<MCPRetry, 'error'>[] = [];
    const { client, received } = await connect(true, {
      beforeRetry: [
        ({ error, ...retry }) => {
          asked.push(retry);
          return retry.reason !== 'resend';
        },
      ],
    });
    server.forget();
    const error = (await client.callTool('count', {}).catch((e: unknown) => e)) as MCPCallError;
    expect([error.kind, error.method, error.toolName]).toEqual(['may_have_run', 'tools/call', 'count']);
    await expect.poll(() => client.getState()).toBe('connected');
    expect(asked).toEqual([
      { reason: 'reconnect', server: 'forgetful', method: 'connect', attempt: 1 },
      { reason: 'resend', server: 'forgetful', method: 'tools/call', toolName: 'count', attempt: 1 },
    ]);
    expect(received()).toEqual(['tools/call count', 'initialize', 'tools/list']);
  });

  it('without reconnection, a read fails with kind session_expired and the client is no longer connected', async () => {
    const { client, received } = await connect(false);
    server.forget();
    const error = (await client.ping().catch((e: unknown) => e)) as MCPCallError;
    expect(error).toBeInstanceOf(MCPCallError);
    expect([error.kind, error.method, error.status]).toEqual(['session_expired', 'ping', 404]);
    expect(client.getState()).toBe('failed');
    expect(received()).toEqual(['ping']);
  });
});

describe('a renewal that meets trouble of its own', () => {
  it('opens another session when the new one is forgotten during its own handshake, then sends the read again', async () => {
    const { client, events, received } = await connect(true);
    const attempts: number[] = [];
    client.on('reconnecting', ({ attempt }) => attempts.push(attempt));
    server.forget();
    server.refuseNext('tools/list');
    await client.ping({ timeoutMs: 5_000 });
    expect(attempts).toEqual([1]);
    expect(events).toEqual(['disconnected', 'reconnected']);
    // The failed handshake sends the attempt through the era check again (era-verdict.ts): probe, then a new
    // session; the forgotten one was not waited on.
    expect(received()).toEqual([
      'ping',
      'initialize',
      'tools/list',
      'server/discover',
      'initialize',
      'tools/list',
      'ping',
    ]);
  });

  it('fails a call without safety hints pending on the forgotten session as may_have_run, sent once', async () => {
    const { client, received } = await connect(true);
    const release = server.hold('bump');
    const call = client.callTool('bump', {}).catch((e: unknown) => e);
    await expect.poll(() => received()).toEqual(['tools/call bump']);
    server.forget();
    await client.ping();
    const error = (await call) as MCPCallError;
    release();
    expect(error).toBeInstanceOf(MCPCallError);
    expect([error.kind, error.method, error.toolName]).toEqual(['may_have_run', 'tools/call', 'bump']);
    expect(received()).toEqual(['tools/call bump', 'ping', 'initialize', 'tools/list', 'ping']);
  });

  it('sends a readOnlyHint call pending on the forgotten session again, after asking beforeRetry', async () => {
    const asked: Omit<MCPRetry, 'error'>[] = [];
    const { client, received } = await connect(true, {
      beforeRetry: [({ error, ...retry }) => void asked.push(retry)],
    });
    const release = server.hold('count');
    const call = client.callTool('count', {});
    await expect.poll(() => received()).toEqual(['tools/call count']);
    server.forget();
    await client.ping();
    release();
    expect((await call).content).toEqual([{ type: 'text', text: expect.stringMatching(/^count: \d+$/) }]);
    expect(received()).toEqual([
      'tools/call count',
      'ping',
      'initialize',
      'tools/list',
      'ping',
      'tools/call count',
    ]);
    expect(asked).toEqual([
      { reason: 'reconnect', server: 'forgetful', method: 'connect', attempt: 1 },
      { reason: 'resend', server: 'forgetful', method: 'ping', toolName: undefined, attempt: 1 },
      { reason: 'resend', server: 'forgetful', method: 'tools/call', toolName: 'count', attempt: 1 },
    ]);
  });

  it("stops waiting for the renewal when the request's signal fires", async () => {
    const { client } = await connect(true);
    server.forget();
    server.delayInitialize(1_500);
    const started = performance.now();
    const error = (await client
      .ping({ timeoutMs: 5_000, signal: AbortSignal.timeout(200) })
      .catch((e: unknown) => e)) as MCPCallError;
    const elapsed = performance.now() - started;
    server.delayInitialize(0);
    expect([error.kind, error.method]).toEqual(['aborted', 'ping']);
    expect(elapsed).toBeLessThan(1_000);
  });

  it('gives the renewal and the re-send together only what is left of the timeout', async () => {
    const { client } = await connect(true);
    server.forget();
    server.delayInitialize(400);
    const release = server.hold('count');
    const started = performance.now();
    const error = (await client
      .callTool('count', {}, { timeoutMs: 1_000 })
      .catch((e: unknown) => e)) as MCPCallError;
    const elapsed = performance.now() - started;
    release();
    server.delayInitialize(0);
    expect([error.kind, error.method, error.toolName]).toEqual(['timeout', 'tools/call', 'count']);
    expect(elapsed).toBeLessThan(1_350);
  });

  it('lists a paginated list again from its first page on the renewed session', async () => {
    const { client, received } = await connect(true);
    server.forget();
    const resources = await client.listResources();
    expect(resources.map((r) => r.name)).toEqual(['page-1', 'page-2', 'page-3']);
    expect(received()).toEqual([
      'resources/list page 1',
      'initialize',
      'tools/list',
      'resources/list page 1',
      'resources/list page 2',
      'resources/list page 3',
    ]);
  });

  it('lists from the first page on the renewed session when a later page meets the forgotten session', async () => {
    const { client, received } = await connect(true);
    server.refuseNext('resources/list page 2');
    const resources = await client.listResources();
    expect(resources.map((r) => r.name)).toEqual(['page-1', 'page-2', 'page-3']);
    expect(received()).toEqual([
      'resources/list page 1',
      'resources/list page 2',
      'initialize',
      'tools/list',
      'resources/list page 1',
      'resources/list page 2',
      'resources/list page 3',
    ]);
  });
});
