/**
 * The secret hunt: every failure path the suite can provoke (stdio, HTTP, OAuth, configuration, CLI), with
 * secrets in `env`, headers, the URL's query and OAuth tokens, against servers that echo them back. What a
 * host could log (the error with its whole cause chain and every property and getter, every event payload,
 * every console line, the CLI's output) must contain none of them, in any encoding (secret-hunter.ts).
 */
import path from 'node:path';
import { generateDpopKeyPair } from '@modelcontextprotocol/client';
import { quote } from 'shell-quote';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { type MCPCallError, MCPClient, MCPClientEvent, parseServerConfig } from '../../../src/mcp/index.js';
import { cli } from '../../cli/run-cli.js';
import { DpopFixture } from '../../fixtures/dpop-server.js';
import { EchoSecretsServer } from '../../fixtures/echo-secrets-server.js';
import { CLIENT_SECRET, OAuthFixture } from '../../fixtures/oauth-server.js';
import { approve, MemoryOAuthProvider } from '../transports/http/memory-provider.js';
import { captureConsole, hunt } from './secret-hunter.js';

const AUTH = 'Bearer hdr-token-X1y2Z3w4';
const API_KEY = 'api-key-Q9r8S7t6';
const QUERY = 'query-token-M5n6B7v8';
const HEADERS = { Authorization: AUTH, 'X-Api-Key': API_KEY };
const HTTP_SECRETS = [AUTH, 'hdr-token-X1y2Z3w4', API_KEY, QUERY];

const ENV = { FIXTURE_SECRET_TOKEN: 'env-token-K4j5H6g7', FIXTURE_SECRET_SHORT: 'abc' };
const ENV_SECRETS = [ENV.FIXTURE_SECRET_TOKEN];
const ENV_SERVER = path.resolve('test/fixtures/env-echo-server.mjs');

/** Paths provoked, by name; the last test checks the count. */
const covered = new Set<string>();
let closeables: { close(): Promise<void> }[] = [];
let clients: MCPClient[] = [];

afterEach(async () => {
  for (const client of clients) await client.disconnect();
  for (const closeable of closeables) await closeable.close();
  vi.restoreAllMocks();
  closeables = [];
  clients = [];
});

/** A client whose every event is recorded. */
function track(client: MCPClient): { client: MCPClient; events: unknown[] } {
  clients.push(client);
  const events: unknown[] = [];
  for (const event of Object.values(MCPClientEvent))
    client.on(event, (payload) => events.push({ event, payload }));
  return { client, events };
}

function rejection(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => expect.fail('expected a failure'),
    (error: unknown) => error,
  );
}

/** Echo servers on two origins; `/cross` of the first redirects to the second. */
async function echoServers(): Promise<{ a: EchoSecretsServer; b: EchoSecretsServer }> {
  const a = await EchoSecretsServer.start();
  const b = await EchoSecretsServer.start();
  a.redirectTo = b.origin;
  closeables.push(a, b);
  return { a, b };
}

function httpClient(url: string, options: Parameters<typeof MCPClient.fromUrl>[1] = {}) {
  return track(MCPClient.fromUrl(url, { headers: HEADERS, ...options }));
}

/** Fails with the places where a secret was found. */
function expectClean(name: string, roots: Record<string, unknown>, secrets: readonly string[]): void {
  covered.add(name);
  expect(hunt(roots, secrets)).toEqual([]);
}

describe('secret hunt: HTTP servers that echo headers and the query', () => {
  it.each([
    ['HTTP 403 to initialize (2025 pin)', '/status', { protocolVersion: '2025-11-25' as const }],
    ["HTTP 403 to 'auto''s server/discover", '/status', {}],
    ['HTTP+SSE GET answered 403', '/status', { transport: 'sse' as const }],
    [
      'JSON-RPC error to initialize (message and data)',
      '/init-error',
      { protocolVersion: '2025-11-25' as const },
    ],
    ['JSON-RPC error to server/discover', '/init-error', {}],
    ['cross-origin redirect of the POST', '/cross', { transport: 'streamable-http' as const }],
    ['cross-origin redirect of the HTTP+SSE GET', '/cross', { transport: 'sse' as const }],
  ])('%s', async (name, pathname, options) => {
    const { a, b } = await echoServers();
    const output = captureConsole();
    const { client, events } = httpClient(`${a.origin}${pathname}?token=${QUERY}`, options);
    const error = await rejection(client.connect());
    expect((error as MCPCallError).name).toBe('MCPCallError');
    // The first origin got the credentials; the other origin none of them.
    expect(a.requests[0]?.headers['x-api-key']).toBe(API_KEY);
    for (const request of b.requests) {
      expect(request.headers.authorization).toBeUndefined();
      expect(request.headers['x-api-key']).toBeUndefined();
    }
    if (pathname === '/cross') expect(b.requests.length).toBeGreaterThan(0);
    expectClean(name, { error, events, output }, HTTP_SECRETS);
  });

  it('a same-origin redirect keeps the headers (and still leaks nothing)', async () => {
    const { a } = await echoServers();
    const { client, events } = httpClient(`${a.origin}/same?token=${QUERY}`, {
      transport: 'streamable-http',
    });
    const error = await rejection(client.connect());
    expect(a.requests.map((r) => [r.path, r.headers['x-api-key'], r.headers.authorization])).toEqual([
      ['/same', API_KEY, AUTH],
      ['/same', API_KEY, AUTH],
      ['/status', API_KEY, AUTH],
    ]);
    expect((error as MCPCallError).status).toBe(403);
    expectClean('same-origin redirect', { error, events }, HTTP_SECRETS);
  });

  it('tool calls failing with a JSON-RPC error and with HTTP 500, and a failing GET stream', async () => {
    const { a } = await echoServers();
    const output = captureConsole();
    const { client, events } = httpClient(`${a.origin}/mcp?token=${QUERY}`, {
      protocolVersion: '2025-11-25',
    });
    await client.connect();
    const leak = await rejection(client.callTool('leak', {}));
    const boom = await rejection(client.callTool('boom', {}));
    const tool = client.getTools().find((t) => t.name === 'leak');
    const viaTool = await rejection(tool!.execute({}));
    expect([(leak as MCPCallError).kind, (boom as MCPCallError).status]).toEqual(['jsonrpc', 500]);
    expect((leak as MCPCallError).data).toEqual({ echo: expect.stringContaining('[redacted]') });
    expectClean('tools/call JSON-RPC error', { leak, viaTool }, HTTP_SECRETS);
    expectClean('tools/call HTTP 500', { boom }, HTTP_SECRETS);
    expectClean('GET stream 500 and other events', { events, output }, HTTP_SECRETS);
  });

  it('a tool failing in its own words (isError) with what it received', async () => {
    const { a } = await echoServers();
    const { client, events } = httpClient(`${a.origin}/mcp?token=${QUERY}`, {
      protocolVersion: '2025-11-25',
    });
    await client.connect();
    const result = await client.callTool('fails', {});
    const tool = client.getTools().find((t) => t.name === 'fails');
    const viaTool = await rejection(tool!.execute({}));
    expect(result.isError).toBe(true);
    expect((viaTool as Error).name).toBe('MCPToolError');
    expect(JSON.stringify(result.content)).toContain('[redacted]');
    expectClean('isError result and MCPToolError', { result, viaTool, events }, HTTP_SECRETS);
    const headerArgs = ['--header', `X-Api-Key: ${API_KEY}`, '--header', `Authorization: ${AUTH}`];
    const call = await cli(['call', '--url', `${a.origin}/mcp?token=${QUERY}`, ...headerArgs, 'fails', '{}']);
    expect(call.code).toBe(1);
    expectClean('CLI isError result', { call }, HTTP_SECRETS);
  });

  it('a refused connection to a URL with a query token', async () => {
    const { a } = await echoServers();
    const url = `http://127.0.0.1:${a.origin.split(':').at(-1)}/mcp?token=${QUERY}`;
    await a.close();
    const { client, events } = httpClient(url, { protocolVersion: '2025-11-25' });
    const error = await rejection(client.connect());
    expect((error as MCPCallError).kind).toBe('transport');
    expectClean('refused connection', { error, events }, HTTP_SECRETS);
  });
});

describe('secret hunt: configuration', () => {
  it('an invalid URL keeps no Node TypeError quoting it', () => {
    const thrown = (() => {
      try {
        MCPClient.fromUrl(`http://exa mple.com/mcp?token=${QUERY}`);
      } catch (error) {
        return error;
      }
    })();
    expect((thrown as Error).cause).toBeUndefined();
    expectClean('fromUrl invalid URL', { thrown }, HTTP_SECRETS);
  });

  it('a configuration entry with an invalid URL', () => {
    const config = parseServerConfig({
      mcpServers: { bad: { url: `http://exa mple.com/mcp?token=${QUERY}`, headers: HEADERS } },
    });
    expectClean('config entry invalid URL', { config }, HTTP_SECRETS);
  });
});

describe('secret hunt: OAuth', () => {
  it('tokens, refresh token, client secret and Basic credentials echoed by the server and the token endpoint', async () => {
    const server = await OAuthFixture.start({ rejectAllTokens: true, echoSecrets: true });
    closeables.push(server);
    const output = captureConsole();
    const provider = new MemoryOAuthProvider();
    const { client, events } = track(MCPClient.fromUrl(server.url, { authProvider: provider }));
    const first = await rejection(client.connect());
    const callback = await approve(provider.authorizationUrls[0]);
    const wrongCode = await rejection(client.finishAuth('code-that-was-never-issued'));
    await client.finishAuth(callback);
    const secrets = [
      CLIENT_SECRET,
      btoa(`client-1:${CLIENT_SECRET}`),
      provider.codeVerifier(),
      provider.tokens()!.access_token,
      provider.tokens()!.refresh_token!,
      callback.searchParams.get('code')!,
    ];
    // Refused again: the refresh answers 500 quoting it; the SDK warns on the console and starts over.
    const second = await rejection(client.connect());
    expect(server.tokenRequests.map((form) => form.get('grant_type'))).toEqual([
      'authorization_code',
      'authorization_code',
      'refresh_token',
    ]);
    expect(server.requests.find((r) => r.path === '/token')?.headers.authorization).toMatch(/^Basic /);
    expect(output.some(([, text]) => String(text).startsWith('[mcp-sdk] Could not refresh'))).toBe(true);
    expectClean('OAuth 401 echoing the bearer token', { first, second }, secrets);
    expectClean('OAuth finishAuth with a refused code', { wrongCode }, [
      ...secrets,
      'code-that-was-never-issued',
    ]);
    expectClean('OAuth SDK console warnings and events', { output, events }, secrets);
  });
});

describe('secret hunt: DPoP', () => {
  it('the private key of an extractable DPoP key pair, and the bound tokens, through a refused step-up', async () => {
    const upstream = await EchoSecretsServer.start();
    const server = await DpopFixture.start({
      upstream: upstream.origin,
      requireNonce: true,
      forbidOn: { method: 'POST', path: '/mcp', scope: 'mcp:admin' },
    });
    closeables.push(server, upstream);
    const output = captureConsole();
    const keyPair = await generateDpopKeyPair({ extractable: true });
    const { d } = await crypto.subtle.exportKey('jwk', keyPair.privateKey);
    const provider = new MemoryOAuthProvider();
    const { client, events } = track(
      MCPClient.fromUrl(server.url('/mcp'), { authProvider: provider, dpop: { keyPair } }),
    );
    const first = await rejection(client.connect());
    await client.finishAuth(await approve(provider.authorizationUrls[0]));
    // The first request with the token is answered 403 insufficient_scope: the user must authorize again.
    const second = await rejection(client.connect());
    expect(provider.authorizationUrls).toHaveLength(2);
    expect(provider.tokens()?.token_type).toBe('DPoP');
    const secrets = [d!, ...server.secrets, provider.codeVerifier()];
    expectClean(
      'DPoP key and bound tokens through a refused step-up',
      { first, second, output, events },
      secrets,
    );
  });
});

describe('secret hunt: grants without a browser (the auth option)', () => {
  const GRANT_SECRET = 'grant-client-secret-P0o9I8u7';
  const ASSERTION = 'eyJhbGciOiJub25lIn0.workload-L1k2J3h4.sig';
  const ID_TOKEN = 'eyJhbGciOiJub25lIn0.id-token-G5f6D7s8.sig';
  const ID_JAG = 'eyJhbGciOiJub25lIn0.id-jag-A9z8X7c6.sig';

  it('client secret, workload JWT, ID token and ID-JAG echoed by token endpoints that refuse them', async () => {
    // Token endpoints that answer 500 quoting the whole form and the Basic credentials (echoSecrets).
    const server = await OAuthFixture.start({
      echoSecrets: true,
      grant: () => [400, { error: 'invalid_grant' }],
    });
    const idp = await OAuthFixture.start({
      grant: (form) =>
        form.get('subject_token') === ID_TOKEN
          ? [
              200,
              {
                access_token: ID_JAG,
                issued_token_type: 'urn:ietf:params:oauth:token-type:id-jag',
                token_type: 'N_A',
              },
            ]
          : [400, { error: 'invalid_grant', error_description: `bad ${form.toString()}` }],
    });
    closeables.push(server, idp);
    const output = captureConsole();
    const secrets = [GRANT_SECRET, btoa(`m2m:${GRANT_SECRET}`), ASSERTION, ID_TOKEN, ID_JAG];
    const basic = track(
      MCPClient.fromUrl(server.url, {
        auth: { grant: 'client_credentials', clientId: 'm2m', clientSecret: GRANT_SECRET },
      }),
    );
    const wif = track(
      MCPClient.fromUrl(server.url, { auth: { grant: 'jwt_bearer', assertion: async () => ASSERTION } }),
    );
    const enterprise = track(
      MCPClient.fromUrl(server.url, {
        auth: {
          grant: 'enterprise',
          idToken: ID_TOKEN,
          idp: { issuer: idp.origin, clientId: 'idp-client' },
          clientId: 'm2m',
          clientSecret: GRANT_SECRET,
        },
      }),
    );
    const refusedIdp = track(
      MCPClient.fromUrl(server.url, {
        auth: {
          grant: 'enterprise',
          idToken: `${ID_TOKEN}-wrong`,
          idp: { issuer: idp.origin, clientId: 'idp-client' },
          clientId: 'm2m',
        },
      }),
    );
    const errors = {
      basic: await rejection(basic.client.connect()),
      wif: await rejection(wif.client.connect()),
      enterprise: await rejection(enterprise.client.connect()),
      refusedIdp: await rejection(refusedIdp.client.connect()),
    };
    // The echoing endpoint did receive every secret: the hunt below is not vacuous.
    const forms = server.tokenRequests.map((form) => form.toString()).join(' ');
    expect([forms.includes(encodeURIComponent(ID_JAG)), forms.includes(ASSERTION)]).toEqual([true, true]);
    expectClean(
      'auth client_credentials refused by an echoing token endpoint',
      { error: errors.basic, events: basic.events },
      secrets,
    );
    expectClean(
      'auth jwt_bearer refused by an echoing token endpoint',
      { error: errors.wif, events: wif.events },
      secrets,
    );
    expectClean(
      'auth enterprise ID-JAG refused by an echoing token endpoint',
      { error: errors.enterprise, events: enterprise.events },
      secrets,
    );
    expectClean(
      'auth enterprise token exchange refused, echoing the ID token',
      { error: errors.refusedIdp, output },
      [...secrets, `${ID_TOKEN}-wrong`],
    );
  });
});

describe('secret hunt: stdio servers that print their environment', () => {
  function stdioClient(mode: string, options: Parameters<typeof MCPClient.fromStdio>[1] = {}) {
    const args = mode === '' ? [ENV_SERVER] : [ENV_SERVER, mode];
    return track(MCPClient.fromStdio({ command: process.execPath, args, env: ENV }, options));
  }

  it('crashes at start, dumping env on stderr', async () => {
    const { client, events } = stdioClient('crash');
    const error = (await rejection(client.connect())) as MCPCallError;
    expect(error.stderrTail).toEqual([
      'Error: cannot start, environment: FIXTURE_SECRET_TOKEN=[redacted] FIXTURE_SECRET_SHORT=abc',
    ]);
    expectClean('stdio crash at start', { error, events }, ENV_SECRETS);
  });

  it('prints env on stdout and stderr, fails a call with it, then dies with it', async () => {
    const { client, events } = stdioClient('', { protocolVersion: '2025-11-25' });
    await client.connect();
    const leak = (await rejection(client.callTool('leak', {}))) as MCPCallError;
    expect(leak.data).toEqual({
      env: ['FIXTURE_SECRET_TOKEN=[redacted]', 'FIXTURE_SECRET_SHORT=abc'],
      nested: [{ dump: 'environment: FIXTURE_SECRET_TOKEN=[redacted] FIXTURE_SECRET_SHORT=abc' }],
    });
    const died = (await rejection(client.callTool('die', {}))) as MCPCallError;
    expect(died.kind).toBe('connection_closed');
    expect(died.stderrTail?.at(-1)).toBe(
      'Error: fatal, environment: FIXTURE_SECRET_TOKEN=[redacted] FIXTURE_SECRET_SHORT=abc',
    );
    expect(events.some((e) => (e as { event: string }).event === 'disconnected')).toBe(true);
    expectClean('stdio JSON-RPC error with env', { leak }, ENV_SECRETS);
    expectClean('stdio death mid-call', { died }, ENV_SECRETS);
    expectClean('stdio stdout noise and disconnected events', { events }, ENV_SECRETS);
  });

  it('hands a stderr callback redacted lines', async () => {
    const lines: string[] = [];
    const client = MCPClient.fromStdio({
      command: process.execPath,
      args: [ENV_SERVER, 'crash'],
      env: ENV,
      stderr: (line) => lines.push(line),
    });
    clients.push(client);
    await rejection(client.connect());
    // One line per start: 'auto' may start the server again after the probe found it gone.
    expect(new Set(lines)).toEqual(
      new Set(['Error: cannot start, environment: FIXTURE_SECRET_TOKEN=[redacted] FIXTURE_SECRET_SHORT=abc']),
    );
    expectClean('stdio stderr callback', { lines }, ENV_SECRETS);
  });
});

describe('secret hunt: the CLI', () => {
  const envArgs = ['--env', `FIXTURE_SECRET_TOKEN=${ENV.FIXTURE_SECRET_TOKEN}`];

  it('a stdio server that crashes dumping env, and one failing a call with it', async () => {
    const output = captureConsole();
    const crash = await cli(['tools', '--stdio', quote([process.execPath, ENV_SERVER, 'crash']), ...envArgs]);
    const leak = await cli([
      'call',
      '--stdio',
      quote([process.execPath, ENV_SERVER]),
      ...envArgs,
      'leak',
      '{}',
    ]);
    expect([crash.code, leak.code]).toEqual([3, 3]);
    expect(crash.stderr).toContain('FIXTURE_SECRET_TOKEN=[redacted]');
    expectClean('CLI stdio crash', { crash }, ENV_SECRETS);
    expectClean('CLI stdio JSON-RPC error', { leak, output }, ENV_SECRETS);
  });

  it('--url with --header against an echoing server and a cross-origin redirect', async () => {
    const { a, b } = await echoServers();
    const output = captureConsole();
    const headerArgs = ['--header', `X-Api-Key: ${API_KEY}`, '--header', `Authorization: ${AUTH}`];
    const status = await cli(['tools', '--url', `${a.origin}/status?token=${QUERY}`, ...headerArgs]);
    const cross = await cli(['tools', '--url', `${a.origin}/cross?token=${QUERY}`, ...headerArgs]);
    expect([status.code, cross.code]).toEqual([3, 3]);
    expect(b.requests.length).toBeGreaterThan(0);
    for (const request of b.requests) expect(request.headers['x-api-key']).toBeUndefined();
    expectClean('CLI HTTP error', { status }, HTTP_SECRETS);
    expectClean('CLI cross-origin redirect', { cross, output }, HTTP_SECRETS);
  });
});

describe('the hunter itself', () => {
  it('finds a secret in a cause chain, a getter, a symbol key, a Map, base64 and percent-encoded forms', () => {
    const secret = 'plain secret/value';
    class Leaky extends Error {
      get detail(): string {
        return `x ${Buffer.from(secret).toString('base64')}`;
      }
    }
    const inner = Object.assign(new TypeError('fetch failed'), { input: `?t=${encodeURIComponent(secret)}` });
    const roots = {
      error: new Error('outer', { cause: new Leaky('inner', { cause: inner }) }),
      other: { [Symbol('s')]: new Map([['k', { deep: [secret] }]]) },
    };
    expect(hunt(roots, [secret]).length).toBeGreaterThanOrEqual(4);
    expect(hunt({ clean: new Error('nothing here') }, [secret])).toEqual([]);
  });
});

describe('secret hunt coverage', () => {
  it('provoked every path', () => {
    expect(covered.size).toBe(33);
  });
});
