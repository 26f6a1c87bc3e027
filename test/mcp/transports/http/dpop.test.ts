/**
 * DPoP-bound tokens (RFC 9449, SEP-1932) through the public `dpop` option, against a deployment that checks
 * every proof (test/fixtures/dpop-server.ts) in front of real servers: server-everything over Streamable
 * HTTP (POSTs, the GET stream, the DELETE) and over HTTP+SSE (its GET and POSTs), and the 2026-07-28 fixture
 * (its `subscriptions/listen` stream). Also: the nonces of both servers, a GET stream and an HTTP+SSE GET
 * answered 401 taking part in OAuth (refresh, then the request again), a Bearer token left Bearer, and the
 * `dpop` configuration field.
 */
import path from 'node:path';
import { generateDpopKeyPair } from '@modelcontextprotocol/client';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  MCPCallError,
  MCPClient,
  MCPConfigError,
  OAuthFileStore,
  parseServerConfig,
  StoredOAuthClientProvider,
} from '../../../../src/mcp/index.js';
import { type CheckedProof, DpopFixture, type DpopFixtureOptions } from '../../../fixtures/dpop-server.js';
import { type Era2026HttpServer, startEra2026Http } from '../../../fixtures/era2026/http-server.js';
import { type EverythingServer, startEverything } from '../../../fixtures/http-everything.js';
import { OAuthFixture } from '../../../fixtures/oauth-server.js';
import { tempDir, waitUntil } from '../../../helpers.js';
import { approve, MemoryOAuthProvider } from './memory-provider.js';

let streamable: EverythingServer;
let sse: EverythingServer;
let modern: Era2026HttpServer;
beforeAll(async () => {
  [streamable, sse, modern] = await Promise.all([
    startEverything('streamableHttp'),
    startEverything('sse'),
    startEra2026Http({ modernOnly: true, changes: true }),
  ]);
}, 30_000);
afterAll(async () => {
  await Promise.all([streamable?.stop(), sse?.stop(), modern?.close()]);
});

const open: { close(): Promise<void> }[] = [];
const clients: MCPClient[] = [];
afterEach(async () => {
  for (const client of clients.splice(0)) await client.disconnect();
  for (const closeable of open.splice(0)) await closeable.close();
});

async function deployment(options: DpopFixtureOptions): Promise<DpopFixture> {
  const fixture = await DpopFixture.start(options);
  open.push(fixture);
  return fixture;
}

/** Connects `client` the way a host does: authorize in "the browser", `finishAuth`, connect again. */
async function login(client: MCPClient, provider: MemoryOAuthProvider): Promise<void> {
  clients.push(client);
  await expect(client.connect()).rejects.toMatchObject({ status: 401 });
  await client.finishAuth(await approve(provider.authorizationUrls.at(-1)));
  await client.connect();
}

/** `method path verdict` of each checked proof, the JSON-RPC method after a POST's path. */
function verdicts(proofs: readonly CheckedProof[]): string[] {
  return proofs.map((p) => `${p.method} ${p.path}${p.rpcMethod ? ` ${p.rpcMethod}` : ''} ${p.verdict}`);
}

function expectFreshProofs(proofs: readonly CheckedProof[]): void {
  const jtis = proofs.flatMap((p) => (p.jti === undefined ? [] : [p.jti]));
  expect(new Set(jtis).size).toBe(jtis.length);
}

describe('DPoP over Streamable HTTP (2025-11-25 server-everything)', () => {
  it('signs the token request, then every POST, the GET stream and the DELETE with a fresh proof', async () => {
    const fixture = await deployment({ upstream: new URL(streamable.url).origin });
    const provider = new MemoryOAuthProvider();
    const client = MCPClient.fromUrl(fixture.url('/mcp'), { authProvider: provider, dpop: true });
    await login(client, provider);
    expect(provider.tokens()?.token_type).toBe('DPoP');
    const result = await client.callTool('echo', { message: 'bound' });
    expect(result.content).toEqual([{ type: 'text', text: 'Echo: bound' }]);
    await waitUntil(() => fixture.proofs.some((p) => p.method === 'GET'), 5000, 'the GET stream');
    await client.disconnect();
    const seen = verdicts(fixture.proofs);
    // Before the login: one unauthenticated request, answered 401 (the probe of the first connect).
    expect(seen[0]).toBe('POST /mcp server/discover no token');
    expect(seen.filter((line) => line.startsWith('POST /token'))).toEqual(['POST /token ok']);
    const authenticated = fixture.proofs.slice(1).filter((p) => p.path !== '/token');
    expect(authenticated.every((p) => p.verdict === 'ok' && p.scheme === 'DPoP')).toBe(true);
    for (const expected of [
      'POST /mcp initialize ok',
      'POST /mcp notifications/initialized ok',
      'POST /mcp tools/call ok',
      'GET /mcp ok',
      'DELETE /mcp ok',
    ])
      expect(seen).toContain(expected);
    expectFreshProofs(fixture.proofs);
  });

  it("answers both servers' use_dpop_nonce once each, then sends their nonce with every proof", async () => {
    const fixture = await deployment({ upstream: new URL(streamable.url).origin, requireNonce: true });
    const provider = new MemoryOAuthProvider();
    const client = MCPClient.fromUrl(fixture.url('/mcp'), { authProvider: provider, dpop: true });
    await login(client, provider);
    await client.callTool('echo', { message: 'x' });
    const seen = verdicts(fixture.proofs);
    expect(seen.filter((line) => line.startsWith('POST /token'))).toEqual([
      'POST /token use_dpop_nonce',
      'POST /token ok',
    ]);
    // The first request with the token learns the nonce; from then on every proof carries it.
    const resource = seen.filter((line) => !line.startsWith('POST /token')).slice(1);
    expect(resource.slice(0, 2)).toEqual([
      expect.stringMatching(/ use_dpop_nonce$/),
      expect.stringMatching(/ ok$/),
    ]);
    expect(resource.filter((line) => line.endsWith('use_dpop_nonce'))).toHaveLength(1);
    expectFreshProofs(fixture.proofs);
  });

  it('a GET stream answered 401 refreshes the token (with a proof) and opens again', async () => {
    const fixture = await deployment({ upstream: new URL(streamable.url).origin });
    const provider = new MemoryOAuthProvider();
    const client = MCPClient.fromUrl(fixture.url('/mcp'), { authProvider: provider, dpop: true });
    const errors: unknown[] = [];
    client.on('error', (error) => errors.push(error));
    await login(client, provider);
    await waitUntil(() => verdicts(fixture.proofs).includes('GET /mcp ok'), 5000, 'the GET stream');
    // The token expires, then the stream drops: the GET that reopens it is the only request in flight.
    const mark = fixture.proofs.length;
    fixture.expireTokens();
    expect(fixture.dropStreams()).toBe(1);
    await waitUntil(
      () => verdicts(fixture.proofs.slice(mark)).includes('GET /mcp ok'),
      10_000,
      'the reopened GET stream',
    );
    expect(verdicts(fixture.proofs.slice(mark))).toEqual([
      'GET /mcp invalid_token',
      'POST /token ok',
      'GET /mcp ok',
    ]);
    expect(provider.tokens()?.access_token).toBe('dpop-access-2-SECRET');
    // The refreshed token serves the calls too.
    expect((await client.callTool('echo', { message: 'after' })).content).toEqual([
      { type: 'text', text: 'Echo: after' },
    ]);
    // The dropped stream is reported (a socket error); no HTTP error ever was.
    expect(errors.length).toBeGreaterThan(0);
    expect(errors.filter((error) => error instanceof MCPCallError)).toEqual([]);
  });
});

describe('the GET stream in the OAuth flow', () => {
  it('a 403 insufficient_scope that needs the user sends them to authorize once, and the stream ends', async () => {
    const fixture = await deployment({
      upstream: new URL(streamable.url).origin,
      forbidOn: { method: 'GET', path: '/mcp', scope: 'mcp:admin' },
    });
    const provider = new MemoryOAuthProvider();
    const client = MCPClient.fromUrl(fixture.url('/mcp'), { authProvider: provider, dpop: true });
    const errors: unknown[] = [];
    client.on('error', (error) => errors.push(error));
    await login(client, provider);
    await waitUntil(() => provider.authorizationUrls.length === 2, 5000, 'the step-up authorization');
    expect(provider.authorizationUrls[1]?.searchParams.get('scope')).toBe('mcp:admin');
    // Longer than the GET stream's first reconnection delay (1 s): a stream that kept trying would show.
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(verdicts(fixture.proofs).filter((line) => line.startsWith('GET '))).toEqual([
      'GET /mcp insufficient_scope',
    ]);
    expect(provider.authorizationUrls).toHaveLength(2);
    expect(errors.map((error) => (error as Error).name)).toEqual(['UnauthorizedError']);
    // The connection itself carries on.
    expect((await client.callTool('echo', { message: 'still' })).content).toEqual([
      { type: 'text', text: 'Echo: still' },
    ]);
  });
});

describe('DPoP over HTTP+SSE (2024-11-05 server-everything)', () => {
  it('an SSE GET answered 403 insufficient_scope steps up: the user authorizes the wider scope, then it connects', async () => {
    const fixture = await deployment({
      upstream: new URL(sse.url).origin,
      forbidOn: { method: 'GET', path: '/sse', scope: 'mcp:admin' },
    });
    const provider = new MemoryOAuthProvider();
    const client = MCPClient.fromUrl(fixture.url('/sse'), {
      authProvider: provider,
      dpop: true,
      transport: 'sse',
    });
    clients.push(client);
    await expect(client.connect()).rejects.toMatchObject({ status: 401 });
    await client.finishAuth(await approve(provider.authorizationUrls[0]));
    await expect(client.connect()).rejects.toMatchObject({ status: 401 });
    expect(provider.authorizationUrls[1]?.searchParams.get('scope')).toBe('mcp:admin');
    await client.finishAuth(await approve(provider.authorizationUrls[1]));
    await client.connect();
    expect(verdicts(fixture.proofs).filter((line) => line.startsWith('GET '))).toEqual([
      'GET /sse no token',
      'GET /sse insufficient_scope',
      'GET /sse ok',
    ]);
  });

  it('signs the SSE GET and every POST to the message endpoint; a 401 on the GET starts OAuth', async () => {
    const fixture = await deployment({ upstream: new URL(sse.url).origin });
    const provider = new MemoryOAuthProvider();
    const client = MCPClient.fromUrl(fixture.url('/sse'), {
      authProvider: provider,
      dpop: true,
      transport: 'sse',
    });
    await login(client, provider);
    expect((await client.callTool('echo', { message: 'legacy' })).content).toEqual([
      { type: 'text', text: 'Echo: legacy' },
    ]);
    const seen = verdicts(fixture.proofs);
    expect(seen[0]).toBe('GET /sse no token');
    expect(seen.slice(1, 3)).toEqual(['POST /token ok', 'GET /sse ok']);
    expect(seen).toContain('POST /message initialize ok');
    expect(seen).toContain('POST /message tools/call ok');
    expect(fixture.proofs.slice(1).every((p) => p.verdict === 'ok')).toBe(true);
    expectFreshProofs(fixture.proofs);
  });

  it('an SSE GET answered 401 with a token held refreshes it and connects', async () => {
    const fixture = await deployment({
      upstream: new URL(sse.url).origin,
      expireOn: { method: 'GET', path: '/sse' },
    });
    const provider = new MemoryOAuthProvider();
    const options = { authProvider: provider, dpop: true, transport: 'sse' as const };
    // Log in over Streamable-less HTTP+SSE first, then a second client with the same provider and key.
    const keyPair = await generateDpopKeyPair();
    const first = MCPClient.fromUrl(fixture.url('/sse'), { ...options, dpop: { keyPair } });
    await login(first, provider);
    await first.disconnect();
    const second = MCPClient.fromUrl(fixture.url('/sse'), { ...options, dpop: { keyPair } });
    clients.push(second);
    await second.connect();
    const seen = verdicts(fixture.proofs);
    const expired = seen.lastIndexOf('GET /sse invalid_token');
    expect(expired).toBeGreaterThan(0);
    expect(seen.slice(expired, expired + 3)).toEqual([
      'GET /sse invalid_token',
      'POST /token ok',
      'GET /sse ok',
    ]);
    expect(second.getTools().length).toBeGreaterThan(0);
  });
});

describe('DPoP over Streamable HTTP (2026-07-28)', () => {
  it('signs the subscriptions/listen POST like every other', async () => {
    const fixture = await deployment({ upstream: new URL(modern.url).origin });
    const provider = new MemoryOAuthProvider();
    const client = MCPClient.fromUrl(fixture.url('/mcp'), { authProvider: provider, dpop: true });
    await login(client, provider);
    await waitUntil(
      () => verdicts(fixture.proofs).includes('POST /mcp subscriptions/listen ok'),
      5000,
      'the listen stream',
    );
    expect(fixture.proofs.slice(1).every((p) => p.verdict === 'ok')).toBe(true);
    expect(verdicts(fixture.proofs)).toContain('POST /mcp server/discover ok');
    expectFreshProofs(fixture.proofs);
  });
});

describe('DPoP with the StoredOAuthClientProvider (private fields behind the dpop option)', () => {
  it('logs in, stores the DPoP token, and signs every request', async () => {
    const fixture = await deployment({ upstream: new URL(streamable.url).origin });
    const temp = tempDir();
    open.push({ close: async () => temp.remove() });
    const urls: URL[] = [];
    const provider = new StoredOAuthClientProvider({
      store: new OAuthFileStore(path.join(temp.dir, 'oauth.json')),
      serverUrl: fixture.url('/mcp'),
      redirectUrl: 'http://127.0.0.1:1/callback',
      onAuthorizationUrl: (url) => void urls.push(url),
    });
    const client = MCPClient.fromUrl(fixture.url('/mcp'), { authProvider: provider, dpop: true });
    clients.push(client);
    await expect(client.connect()).rejects.toMatchObject({ status: 401 });
    await client.finishAuth(await approve(urls[0]));
    await client.connect();
    expect(provider.tokens()?.token_type).toBe('DPoP');
    await waitUntil(() => verdicts(fixture.proofs).includes('GET /mcp ok'), 5000, 'the GET stream');
    const seen = verdicts(fixture.proofs);
    expect(seen.slice(0, 5)).toEqual([
      'POST /mcp server/discover no token',
      'POST /token ok',
      'POST /mcp server/discover ok',
      'POST /mcp initialize ok',
      'POST /mcp notifications/initialized ok',
    ]);
    // The GET stream and tools/list go out side by side.
    expect(seen.slice(5).sort()).toEqual(['GET /mcp ok', 'POST /mcp tools/list ok']);
  });
});

describe('DPoP with an authorization server that issues Bearer tokens', () => {
  it('sends the proof to the token endpoint, then the Bearer token as Bearer, without proofs', async () => {
    const server = await OAuthFixture.start();
    open.push(server);
    const provider = new MemoryOAuthProvider();
    const client = MCPClient.fromUrl(server.url, { authProvider: provider, dpop: true });
    await login(client, provider);
    const token = server.requests.find((r) => r.path === '/token');
    expect(token?.headers.dpop).toMatch(/^eyJ/);
    const calls = server.requests.filter((r) => r.path === '/mcp' && r.headers.authorization !== undefined);
    expect(calls.length).toBeGreaterThan(0);
    expect(
      calls.every((r) => r.headers.authorization?.startsWith('Bearer ') && r.headers.dpop === undefined),
    ).toBe(true);
  });
});

describe('the dpop configuration field', () => {
  it('"dpop": true reaches fromUrl; anything but a boolean is refused, naming the field', () => {
    const config = parseServerConfig({
      mcpServers: {
        bound: { url: 'https://mcp.example.com/mcp', dpop: true },
        plain: { url: 'https://a.example' },
      },
    });
    expect(config.servers.map((entry) => entry.kind === 'http' && entry.options)).toEqual([
      { transport: 'auto', dpop: true },
      { transport: 'auto' },
    ]);
    const invalid = parseServerConfig({ mcpServers: { bad: { url: 'https://a.example', dpop: 'yes' } } });
    expect(invalid.invalid[0]?.error).toBeInstanceOf(MCPConfigError);
    expect(invalid.invalid[0]?.error.message).toBe(
      'config <inline>: server "bad": "dpop" must be true or false',
    );
  });
});
