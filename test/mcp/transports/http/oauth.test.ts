import { IssuerMismatchError, UnauthorizedError } from '@modelcontextprotocol/client';
import { afterEach, describe, expect, it } from 'vitest';
import { MCPCallError, MCPClient } from '../../../../src/mcp/index.js';
import { CLIENT_SECRET, OAuthFixture } from '../../../fixtures/oauth-server.js';
import { approve, MemoryOAuthProvider, REDIRECT_URL } from './memory-provider.js';

let fixture: OAuthFixture | undefined;
let client: MCPClient | undefined;

afterEach(async () => {
  await client?.disconnect();
  await fixture?.close();
  client = undefined;
  fixture = undefined;
});

async function start(options: Parameters<typeof OAuthFixture.start>[0] = {}) {
  fixture = await OAuthFixture.start(options);
  return fixture;
}

/** The rejection of `promise`, which must reject. */
async function rejection(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => expect.fail('expected a rejection'),
    (error: unknown) => error,
  );
}

describe('OAuth: finish-auth-and-retry', () => {
  it('fails connect with a 401 MCPCallError caused by UnauthorizedError once the user is sent to authorize', async () => {
    const server = await start();
    const provider = new MemoryOAuthProvider();
    client = MCPClient.fromUrl(server.url, { name: 'oauth', authProvider: provider });

    const error = await rejection(client.connect());

    expect(error).toBeInstanceOf(MCPCallError);
    expect((error as MCPCallError).kind).toBe('http');
    expect((error as MCPCallError).status).toBe(401);
    expect((error as MCPCallError).method).toBe('initialize');
    expect((error as MCPCallError).cause).toBeInstanceOf(UnauthorizedError);
    expect(client.getState()).toBe('failed');
    expect(provider.authorizationUrls).toHaveLength(1);
    const url = provider.authorizationUrls[0] as URL;
    expect(`${url.origin}${url.pathname}`).toBe(`${server.origin}/authorize`);
    expect(url.searchParams.get('client_id')).toBe('client-1');
    expect(url.searchParams.get('code_challenge_method')).toBe('S256');
    expect(url.searchParams.get('redirect_uri')).toBe(REDIRECT_URL);
    expect(url.searchParams.get('resource')).toBe(server.url);
    expect(url.searchParams.get('scope')).toBe('mcp:read');
  });

  it('connects with the Bearer token after finishAuth(code)', async () => {
    const server = await start();
    const provider = new MemoryOAuthProvider();
    client = MCPClient.fromUrl(server.url, { name: 'oauth', authProvider: provider });
    await rejection(client.connect());
    const callback = await approve(provider.authorizationUrls[0]);

    await client.finishAuth(callback.searchParams.get('code') ?? '');
    await client.connect();

    expect(provider.tokens()?.access_token).toBe('access-1-SECRET');
    expect(client.getTools().map((tool) => tool.name)).toEqual(['whoami', 'admin']);
    const calls = server.mcpCalls();
    // 'auto' probes with server/discover first (MCP spec 2026-07-28, "Server > Discover"): the 401 comes on
    // the probe, and after finishAuth the probe is retried with the token; this 2025 server answers it `{}`.
    expect(calls[0]).toEqual({ method: 'server/discover', authorization: undefined });
    expect(calls.slice(1)).toEqual([
      { method: 'server/discover', authorization: 'Bearer access-1-SECRET' },
      { method: 'initialize', authorization: 'Bearer access-1-SECRET' },
      { method: 'notifications/initialized', authorization: 'Bearer access-1-SECRET' },
      { method: 'tools/list', authorization: 'Bearer access-1-SECRET' },
    ]);
    const exchange = server.tokenRequests[0];
    expect(exchange?.get('grant_type')).toBe('authorization_code');
    expect(exchange?.get('resource')).toBe(server.url);
  });

  it('accepts the whole redirect URL in finishAuth', async () => {
    const server = await start();
    const provider = new MemoryOAuthProvider();
    client = MCPClient.fromUrl(server.url, { name: 'oauth', authProvider: provider });
    await rejection(client.connect());

    await client.finishAuth(await approve(provider.authorizationUrls[0]));
    await client.connect();

    expect(client.getState()).toBe('connected');
  });

  it('rejects a callback carrying an OAuth error without contacting the token endpoint', async () => {
    const server = await start();
    client = MCPClient.fromUrl(server.url, { name: 'oauth', authProvider: new MemoryOAuthProvider() });

    const error = await rejection(client.finishAuth(new URL(`${REDIRECT_URL}?error=access_denied`)));

    expect(error).toBeInstanceOf(UnauthorizedError);
    expect((error as Error).message).toBe(
      'the authorization server refused the authorization (access_denied)',
    );
    expect(server.tokenRequests).toHaveLength(0);
  });

  it('rejects finishAuth on a client without an authProvider', async () => {
    const server = await start();
    client = MCPClient.fromUrl(server.url, { name: 'oauth' });

    const error = await rejection(client.finishAuth('code-1'));

    expect(error).toBeInstanceOf(UnauthorizedError);
    expect((error as Error).message).toBe('finishAuth needs an authProvider');
  });

  it('sends saved tokens on the first request, with no authorization', async () => {
    const server = await start();
    const { access, refresh } = server.issueTokens();
    const provider = new MemoryOAuthProvider({
      access_token: access,
      refresh_token: refresh,
      token_type: 'Bearer',
      issuer: server.origin,
    });
    client = MCPClient.fromUrl(server.url, { name: 'oauth', authProvider: provider });

    await client.connect();

    expect(server.mcpCalls().slice(0, 2)).toEqual([
      { method: 'server/discover', authorization: `Bearer ${access}` },
      { method: 'initialize', authorization: `Bearer ${access}` },
    ]);
    expect(provider.authorizationUrls).toEqual([]);
  });

  it('refreshes an expired token and retries the request once, without the browser', async () => {
    const server = await start();
    const old = server.issueTokens();
    server.expire(old.access);
    const provider = new MemoryOAuthProvider({
      access_token: old.access,
      refresh_token: old.refresh,
      token_type: 'Bearer',
      issuer: server.origin,
    });
    provider.saveClientInformation({
      client_id: 'client-1',
      client_secret: CLIENT_SECRET,
      issuer: server.origin,
    });
    client = MCPClient.fromUrl(server.url, { name: 'oauth', authProvider: provider });

    await client.connect();

    expect(provider.authorizationUrls).toEqual([]);
    expect(server.tokenRequests.map((form) => form.get('grant_type'))).toEqual(['refresh_token']);
    // The refresh happens on the first request, the server/discover probe, which is then sent again.
    expect(server.mcpCalls().slice(0, 3)).toEqual([
      { method: 'server/discover', authorization: `Bearer ${old.access}` },
      { method: 'server/discover', authorization: 'Bearer access-2-SECRET' },
      { method: 'initialize', authorization: 'Bearer access-2-SECRET' },
    ]);
  });
});

describe('OAuth: step-up on 403 insufficient_scope', () => {
  it('authorizes the union of scopes and, after finishAuth, the call succeeds', async () => {
    const server = await start({ toolScopes: { admin: 'mcp:admin' } });
    const provider = new MemoryOAuthProvider();
    client = MCPClient.fromUrl(server.url, { name: 'oauth', authProvider: provider });
    await rejection(client.connect());
    await client.finishAuth(await approve(provider.authorizationUrls[0]));
    await client.connect();

    const error = await rejection(client.callTool('admin'));
    expect((error as MCPCallError).status).toBe(401);
    expect((error as MCPCallError).cause).toBeInstanceOf(UnauthorizedError);
    expect(provider.authorizationUrls[1]?.searchParams.get('scope')).toBe('mcp:read mcp:admin');

    await client.finishAuth(await approve(provider.authorizationUrls[1]));
    const result = await client.callTool('admin');

    expect(result.content).toEqual([{ type: 'text', text: 'admin with scopes: mcp:read mcp:admin' }]);
  });

  it('stops re-authorizing when the server keeps refusing scopes the token already holds', async () => {
    const server = await start({ toolScopes: { admin: 'mcp:admin' } });
    const { access, refresh } = server.issueTokens('mcp:read');
    const provider = new MemoryOAuthProvider({
      access_token: access,
      refresh_token: refresh,
      token_type: 'Bearer',
      scope: 'mcp:read',
      issuer: server.origin,
    });
    client = MCPClient.fromUrl(server.url, { name: 'oauth', authProvider: provider });
    await client.connect();
    await rejection(client.callTool('admin'));
    await client.finishAuth(await approve(provider.authorizationUrls[0]));
    expect(provider.tokens()?.scope).toBe('mcp:read mcp:admin');
    // The server now refuses the admin scope it granted: re-authorizing again could only loop.
    server.accessTokens.set(provider.tokens()?.access_token ?? '', 'mcp:read');

    const error = await rejection(client.callTool('admin'));

    expect((error as MCPCallError).kind).toBe('http');
    expect((error as MCPCallError).status).toBe(403);
    expect(provider.authorizationUrls).toHaveLength(1);
  });
});

describe('OAuth: authorization server metadata that predates the issuer check', () => {
  it('fails discovery with IssuerMismatchError by default', async () => {
    const server = await start({ issuer: 'https://old-issuer.example' });
    const provider = new MemoryOAuthProvider();
    client = MCPClient.fromUrl(server.url, { name: 'oauth', authProvider: provider });

    const error = await rejection(client.connect());

    expect(error).toBeInstanceOf(MCPCallError);
    expect((error as MCPCallError).kind).toBe('transport');
    expect(causeChain(error).some((e) => e instanceof IssuerMismatchError)).toBe(true);
    expect(provider.authorizationUrls).toEqual([]);
  });

  it('authorizes with skipIssuerMetadataValidation', async () => {
    const server = await start({ issuer: 'https://old-issuer.example' });
    const provider = new MemoryOAuthProvider();
    client = MCPClient.fromUrl(server.url, {
      name: 'oauth',
      authProvider: provider,
      skipIssuerMetadataValidation: true,
    });
    await rejection(client.connect());

    await client.finishAuth(await approve(provider.authorizationUrls[0]));
    await client.connect();

    expect(client.getState()).toBe('connected');
  });
});

function causeChain(error: unknown): unknown[] {
  const chain: unknown[] = [];
  for (let current = error; current !== undefined && chain.length < 10; ) {
    chain.push(current);
    current = current instanceof Error ? current.cause : undefined;
  }
  return chain;
}
