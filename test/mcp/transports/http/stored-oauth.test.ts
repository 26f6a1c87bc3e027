import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  MCPCallError,
  MCPClient,
  OAuthFileStore,
  StoredOAuthClientProvider,
} from '../../../../src/mcp/index.js';
import { authorizeInBrowser } from '../../../fixtures/oidc-browser.js';
import { type OidcMcp, startOidcMcp } from '../../../fixtures/oidc-mcp.js';

const REDIRECT = 'http://127.0.0.1:53682/callback';
let fixture: OidcMcp | undefined;
let client: MCPClient | undefined;
let dir: string | undefined;

afterEach(async () => {
  await client?.disconnect();
  await fixture?.close();
  if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
  client = fixture = dir = undefined;
});

function storeFile(): string {
  dir = mkdtempSync(path.join(tmpdir(), 'agentwire-oauth-'));
  return path.join(dir, 'agentwire', 'oauth.json');
}

describe('StoredOAuthClientProvider against oidc-provider', () => {
  it('logs in, stores the tokens by issuer and resource (0600), and connects with them', async () => {
    fixture = await startOidcMcp();
    const store = new OAuthFileStore(storeFile());
    const urls: URL[] = [];
    const provider = new StoredOAuthClientProvider({
      store,
      serverUrl: fixture.url,
      redirectUrl: REDIRECT,
      onAuthorizationUrl: (url) => {
        urls.push(url);
      },
    });
    client = MCPClient.fromUrl(fixture.url, { name: 'oidc', authProvider: provider });
    const error = await client.connect().then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(MCPCallError);
    expect(urls).toHaveLength(1);
    const { callback } = await authorizeInBrowser(urls[0]!, REDIRECT);
    expect(callback.searchParams.get('state')).toBe(provider.state());
    await client.finishAuth(callback);
    await client.connect();
    expect(client.getTools().map((tool) => tool.name)).toEqual(['whoami']);
    const logins = store.logins();
    expect(logins.map((l) => [l.issuer, l.resource])).toEqual([[fixture.issuer, fixture.url]]);
    expect(statSync(store.file).mode & 0o777).toBe(0o600);
    expect(statSync(path.dirname(store.file)).mode & 0o777).toBe(0o700);
    expect(readFileSync(store.file, 'utf8')).toContain('"refresh_token"');
  });
});
