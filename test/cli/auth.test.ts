/**
 * `agentwire auth login|status|logout` end to end, through the built CLI, against a real OpenID provider
 * (oidc-provider) in front of a real MCP server that verifies its tokens (oidc-mcp.ts). The browser step is
 * the test's: it reads the authorization URL the CLI prints (stderr is not a terminal, so no browser is
 * opened), logs in and consents through the provider's pages, and the provider's redirect reaches the CLI's
 * loopback listener.
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { authorizeInBrowser, type BrowserResult } from '../fixtures/oidc-browser.js';
import { MCP_SCOPE, type OidcMcp, startOidcMcp } from '../fixtures/oidc-mcp.js';
import { tempDir } from '../helpers.js';
import { type BuiltRun, ensureBuilt, runBuilt } from './built-cli-env.js';

let fixture: OidcMcp | undefined;
let home: ReturnType<typeof tempDir> | undefined;

beforeAll(ensureBuilt, 120_000);
beforeEach(() => {
  home = tempDir('agentwire-auth-');
});
afterEach(async () => {
  await fixture?.close();
  home?.remove();
  fixture = home = undefined;
});

/** The token file of this test: under the fake home's XDG config directory. */
const tokenFile = () => path.join(home!.dir, 'config', 'agentwire', 'oauth.json');

function env(): Record<string, string> {
  return { PATH: process.env.PATH ?? '', HOME: home!.dir, XDG_CONFIG_HOME: path.join(home!.dir, 'config') };
}

function agentwire(args: string[]): Promise<BuiltRun> {
  return runBuilt(args, { env: env() });
}

/** `agentwire auth login <args>`, with the test as the browser. */
async function login(args: string[], browser: { deny?: boolean } = {}) {
  let step: Promise<BrowserResult> | undefined;
  let authorizationUrl: string | undefined;
  const run = await runBuilt(['auth', 'login', ...args], {
    env: env(),
    onStderr: (stderr) => {
      const url = /^ {2}(http\S+)$/m.exec(stderr)?.[1];
      if (url === undefined || step !== undefined) return;
      authorizationUrl = url;
      const redirect = new URL(url).searchParams.get('redirect_uri') ?? 'no redirect_uri';
      step = authorizeInBrowser(url, redirect, { deliver: true, ...browser });
    },
  });
  return { run, authorizationUrl, browser: await step };
}

/** The stored logins, as the file holds them. */
function stored(): {
  logins: { issuer: string; resource: string; tokens: Record<string, string> }[];
  clients: { issuer: string; client: { client_id: string } }[];
} {
  return JSON.parse(readFileSync(tokenFile(), 'utf8'));
}

describe('agentwire auth against oidc-provider', () => {
  it('logs in through the browser, stores the tokens (0600 in a 0700 dir), and every command uses them', async () => {
    fixture = await startOidcMcp();
    const { run, authorizationUrl, browser } = await login([fixture.url]);

    expect(run.stderr).toBe(`To log in, open this URL in a browser:\n  ${authorizationUrl}\n`);
    expect(run.stdout).toBe(
      `logged in to ${fixture.url} (issuer ${fixture.issuer}); tokens stored in ${tokenFile()}\n`,
    );
    expect(run.code).toBe(0);
    const auth = new URL(authorizationUrl!);
    expect(`${auth.origin}${auth.pathname}`).toBe(`${fixture.issuer}/auth`);
    expect(auth.searchParams.get('code_challenge_method')).toBe('S256');
    expect(auth.searchParams.get('resource')).toBe(fixture.url);
    expect(auth.searchParams.get('scope')).toBe(`${MCP_SCOPE} offline_access`);
    expect(auth.searchParams.get('redirect_uri')).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/callback$/);
    expect(browser?.page).toEqual({
      status: 200,
      text: '<!doctype html><title>agentwire</title><p>agentwire received the authorization. You can close this window.</p>',
    });

    expect(statSync(tokenFile()).mode & 0o777).toBe(0o600);
    expect(statSync(path.dirname(tokenFile())).mode & 0o777).toBe(0o700);
    const [saved] = stored().logins;
    expect([saved?.issuer, saved?.resource]).toEqual([fixture.issuer, fixture.url]);
    expect(Object.keys(saved!.tokens).sort()).toEqual([
      'access_token',
      'expires_in',
      'issuer',
      'refresh_token',
      'scope',
      'token_type',
    ]);

    const call = await agentwire(['call', '--url', fixture.url, 'whoami']);
    // The access token carries the resource's scope; offline_access is the refresh token's.
    expect(call).toEqual({ code: 0, stdout: `scopes: ${MCP_SCOPE}\n`, stderr: '' });
    expect(fixture.authorizations.at(-1)).toBe(`Bearer ${saved!.tokens.access_token}`);

    const status = await agentwire(['auth', 'status']);
    const expiry = new Date(
      JSON.parse(readFileSync(tokenFile(), 'utf8')).logins[0].expiresAtMs as number,
    ).toISOString();
    expect(status).toEqual({
      code: 0,
      stdout:
        `${fixture.url}\n` +
        `  issuer:  ${fixture.issuer}\n` +
        `  scope:   ${MCP_SCOPE}\n` +
        `  access:  expires ${expiry}, refreshed with the stored refresh token\n`,
      stderr: '',
    });
    const json = await agentwire(['auth', 'status', '--json']);
    expect(JSON.parse(json.stdout)).toEqual({
      file: tokenFile(),
      logins: [
        {
          resource: fixture.url,
          issuer: fixture.issuer,
          scope: MCP_SCOPE,
          expiresAt: expiry,
          expired: false,
          refreshable: true,
        },
      ],
    });
    expect(json.stdout).not.toContain(saved!.tokens.access_token);
  });

  it('refreshes an expired access token silently and stores the new one', async () => {
    fixture = await startOidcMcp({ accessTokenTtlSeconds: 2 });
    expect((await login([fixture.url])).run.code).toBe(0);
    const [login1] = JSON.parse(readFileSync(tokenFile(), 'utf8')).logins as { expiresAtMs: number }[];
    const first = stored().logins[0]!.tokens.access_token;
    // The provider's clock decides expiry; wait it out (the only wait of these tests). The stored expiry is
    // the CLI's receipt time plus expires_in, never before the provider's `exp` (issue time, whole seconds).
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, login1!.expiresAtMs + 50 - Date.now())));

    const tools = await agentwire(['tools', '--url', fixture.url, '--json']);

    expect(tools.stderr).toBe('');
    expect(tools.code).toBe(0);
    expect(JSON.parse(tools.stdout).map((tool: { name: string }) => tool.name)).toEqual(['whoami']);
    const second = stored().logins[0]!.tokens.access_token;
    expect(second).not.toBe(first);
    expect(fixture.grants).toEqual(['authorization_code', 'refresh_token']);
    expect(fixture.authorizations.slice(-2)).toEqual([`Bearer ${second}`, `Bearer ${second}`]);
  });

  it('a revoked login fails with a 401 that names the login command, and forgets the dead tokens', async () => {
    fixture = await startOidcMcp();
    expect((await login([fixture.url])).run.code).toBe(0);
    const { access_token, refresh_token } = stored().logins[0]!.tokens;
    const clientId = stored().clients[0]!.client.client_id;
    await fixture.revoke(refresh_token!, clientId);
    await fixture.revoke(access_token!, clientId);

    const call = await agentwire(['call', '--url', fixture.url, 'whoami']);

    expect(call.code).toBe(3);
    expect(call.stderr.split('\n').slice(-2)).toEqual([
      `hint: the server needs a login: agentwire auth login ${fixture.url}`,
      '',
    ]);
    expect(call.stderr).not.toContain(access_token);
    expect(stored().logins).toEqual([]);
  });

  it('a server without a stored login: the 401 names the login command', async () => {
    fixture = await startOidcMcp();
    const call = await agentwire(['tools', '--url', fixture.url]);
    expect(call.code).toBe(3);
    expect(call.stderr.split('\n').slice(-2)).toEqual([
      `hint: the server needs a login: agentwire auth login ${fixture.url}`,
      '',
    ]);
  });

  it('refuses an authorization server whose metadata names another issuer, and stores nothing', async () => {
    fixture = await startOidcMcp({ wrongIssuer: true });
    const { run, authorizationUrl } = await login([fixture.url]);
    expect(authorizationUrl).toBeUndefined();
    expect(run.code).toBe(3);
    expect(run.stdout).toBe('');
    expect(run.stderr).toBe(
      `error: MCP server "${new URL(fixture.url).host}": server/discover failed: Issuer mismatch in ` +
        `authorization server metadata (RFC 8414 §3.3): expected "${new URL(fixture.url).origin}/as", ` +
        `received "${fixture.issuer}"\n`,
    );
    expect(existsSync(tokenFile())).toBe(false);
  });

  it('logout forgets the tokens; the next call needs a login again', async () => {
    fixture = await startOidcMcp();
    expect((await login([fixture.url])).run.code).toBe(0);

    expect(await agentwire(['auth', 'logout', fixture.url])).toEqual({
      code: 0,
      stdout: `logged out of ${fixture.url}\n`,
      stderr: '',
    });
    expect(stored().logins).toEqual([]);
    expect(await agentwire(['auth', 'status', '--url', fixture.url])).toEqual({
      code: 0,
      stdout: `not logged in to ${fixture.url}\n`,
      stderr: '',
    });
    const call = await agentwire(['call', '--url', fixture.url, 'whoami']);
    expect(call.code).toBe(3);
    expect(call.stderr).toContain(`hint: the server needs a login: agentwire auth login ${fixture.url}\n`);
  });

  it('uses a Client ID Metadata Document URL as client_id where the provider supports them, registering nothing', async () => {
    fixture = await startOidcMcp({ clientIdMetadataDocuments: true });
    const metadataUrl = 'https://agentwire.example/oauth/client.json';
    // No browser step: the provider would fetch the document from the (unreachable) URL; the login times out.
    const run = await runBuilt(
      ['auth', 'login', fixture.url, '--client-metadata-url', metadataUrl, '--timeout', '500'],
      {
        env: env(),
      },
    );
    const authorizationUrl = /^ {2}(http\S+)$/m.exec(run.stderr)?.[1];
    expect(new URL(authorizationUrl!).searchParams.get('client_id')).toBe(metadataUrl);
    expect(run.stderr.split('\n').at(-2)).toBe(
      'error: login failed: no authorization arrived from the browser within 500 ms',
    );
    expect(run.code).toBe(3);
    expect(fixture.providerRequests).not.toContain('POST /reg');
    expect(stored().clients.map((c) => c.client.client_id)).toEqual([metadataUrl]);
  });

  it('registers dynamically where the provider does not support metadata documents', async () => {
    fixture = await startOidcMcp();
    const run = await runBuilt(
      [
        'auth',
        'login',
        fixture.url,
        '--client-metadata-url',
        'https://agentwire.example/oauth/client.json',
        '--timeout',
        '500',
      ],
      { env: env() },
    );
    const authorizationUrl = /^ {2}(http\S+)$/m.exec(run.stderr)?.[1];
    const clientId = new URL(authorizationUrl!).searchParams.get('client_id');
    expect(fixture.providerRequests.filter((request) => request === 'POST /reg')).toEqual(['POST /reg']);
    expect(stored().clients.map((c) => c.client.client_id)).toEqual([clientId]);
    expect(clientId).not.toBe('https://agentwire.example/oauth/client.json');
  });

  it("a refused consent ends the login with the provider's error code, nothing stored", async () => {
    fixture = await startOidcMcp();
    const { run } = await login([fixture.url], { deny: true });
    expect(run.code).toBe(3);
    expect(run.stdout).toBe('');
    expect(run.stderr.split('\n').at(-2)).toBe(
      'error: login failed: the authorization server refused it (access_denied)',
    );
    expect(stored().logins).toEqual([]);
  });
});
