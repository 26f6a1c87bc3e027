import { inspect } from 'node:util';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { type MCPCallError, MCPClient, MCPClientEvent } from '../../../src/mcp/index.js';
import { HttpFixture } from '../../fixtures/http-server.js';
import { CLIENT_SECRET, OAuthFixture } from '../../fixtures/oauth-server.js';
import { approve, MemoryOAuthProvider } from '../transports/http/memory-provider.js';

let closeables: { close(): Promise<void> }[] = [];
let client: MCPClient | undefined;

afterEach(async () => {
  vi.restoreAllMocks();
  await client?.disconnect();
  for (const closeable of closeables) await closeable.close();
  closeables = [];
  client = undefined;
});

/** Everything a host could see of a failure: every event the client emitted, and any console output. */
function observe(target: MCPClient): unknown[] {
  const seen: unknown[] = [];
  for (const event of Object.values(MCPClientEvent))
    target.on(event, (payload) => seen.push({ event, payload }));
  for (const method of ['log', 'info', 'warn', 'error', 'debug'] as const) {
    vi.spyOn(console, method).mockImplementation((...args: unknown[]) =>
      seen.push({ console: method, args }),
    );
  }
  return seen;
}

/** The text of `values` as a host would log them: `util.inspect` reaches every field and the `cause` chain. */
function rendered(values: unknown[]): string {
  return values
    .map((value) => `${inspect(value, { depth: 20, showHidden: true })}\n${String((value as Error)?.stack)}`)
    .join('\n');
}

describe('secrets never reach errors, events or logs', () => {
  it('keeps static header values out of an HTTP error and its events, while sending them', async () => {
    const server = await HttpFixture.start();
    closeables.push(server);
    server.onMethod('initialize', (_req, res) => {
      res.writeHead(403, { 'content-type': 'text/plain' }).end('forbidden for this key');
    });
    client = MCPClient.fromUrl(server.url, {
      name: 'keyed',
      transport: 'streamable-http',
      headers: { Authorization: 'Bearer static-SECRET-1', 'X-Api-Key': 'key-SECRET-2' },
    });
    const seen = observe(client);

    const error = await client.connect().then(
      () => expect.fail('connect succeeded'),
      (e: unknown) => e,
    );

    expect(server.requests[0]?.headers.authorization).toBe('Bearer static-SECRET-1');
    expect(server.requests[0]?.headers['x-api-key']).toBe('key-SECRET-2');
    expect((error as Error).message).toBe(
      'MCP server "keyed": initialize failed: the server answered HTTP 403: forbidden for this key',
    );
    expect(rendered([error, ...seen])).not.toContain('SECRET');
  });

  it('keeps OAuth tokens, the client secret and the PKCE verifier out of a failed authorized connect', async () => {
    const server = await OAuthFixture.start({ rejectAllTokens: true });
    closeables.push(server);
    const provider = new MemoryOAuthProvider();
    client = MCPClient.fromUrl(server.url, { name: 'oauth', authProvider: provider });
    const seen = observe(client);
    const failures: unknown[] = [];
    await client.connect().catch((e: unknown) => failures.push(e));
    await client.finishAuth(await approve(provider.authorizationUrls[0]));
    const verifier = provider.codeVerifier();

    // The server refuses the fresh token too: it is refreshed and the request retried once, then it fails.
    await client.connect().catch((e: unknown) => failures.push(e));

    expect(failures.map((e) => [(e as MCPCallError).kind, (e as MCPCallError).status])).toEqual([
      ['http', 401],
      ['http', 401],
    ]);
    expect(server.tokenRequests.map((form) => form.get('grant_type'))).toEqual([
      'authorization_code',
      'refresh_token',
    ]);
    expect(server.tokenRequests[0]?.get('client_secret')).toBe(CLIENT_SECRET);
    expect(provider.tokens()?.access_token).toBe('access-2-SECRET');
    const text = rendered([...failures, ...seen]);
    expect(text).not.toContain('SECRET');
    expect(text).not.toContain(verifier);
  });
});
