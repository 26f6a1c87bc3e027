import { statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { UnauthorizedError } from '@modelcontextprotocol/client';
import { afterEach, describe, expect, it } from 'vitest';
import { OAuthFileStore, OAuthStoreError, StoredOAuthClientProvider } from '../../../../src/mcp/index.js';
import { tempDir } from '../../../helpers.js';

let dir: ReturnType<typeof tempDir> | undefined;
afterEach(() => {
  dir?.remove();
  dir = undefined;
});

function store(): OAuthFileStore {
  dir = tempDir('agentwire-store-');
  return new OAuthFileStore(path.join(dir.dir, 'nested', 'oauth.json'));
}

const ISSUER = 'https://as.example';
const SERVER = 'https://mcp.example/mcp#fragment';

describe('OAuthFileStore and StoredOAuthClientProvider', () => {
  it('keys tokens by issuer and resource, keeps the refresh token a refresh omits, stamps the expiry', () => {
    const file = store();
    let now = 1_000_000;
    const provider = new StoredOAuthClientProvider({ store: file, serverUrl: SERVER, now: () => now });
    expect(provider.resource).toBe('https://mcp.example/mcp');
    provider.saveTokens(
      { access_token: 'a1', token_type: 'Bearer', refresh_token: 'r1', expires_in: 60 },
      { issuer: ISSUER },
    );
    now += 1000;
    provider.saveTokens({ access_token: 'a2', token_type: 'Bearer', expires_in: 60 }, { issuer: ISSUER });
    provider.saveTokens({ access_token: 'other', token_type: 'Bearer' }, { issuer: 'https://other.example' });

    expect(file.logins()).toEqual([
      {
        issuer: ISSUER,
        resource: 'https://mcp.example/mcp',
        tokens: { access_token: 'a2', token_type: 'Bearer', expires_in: 60, refresh_token: 'r1' },
        expiresAtMs: 1_061_000,
        savedAtMs: 1_001_000,
      },
      {
        issuer: 'https://other.example',
        resource: 'https://mcp.example/mcp',
        tokens: { access_token: 'other', token_type: 'Bearer' },
        savedAtMs: 1_001_000,
      },
    ]);
    expect(provider.tokens({ issuer: ISSUER })?.access_token).toBe('a2');
    expect(statSync(file.file).mode & 0o777).toBe(0o600);
    expect(statSync(path.dirname(file.file)).mode & 0o777).toBe(0o700);
  });

  it('without onAuthorizationUrl registers no client, and forgets only its own tokens when told', () => {
    const file = store();
    const provider = new StoredOAuthClientProvider({ store: file, serverUrl: SERVER });
    expect(() => provider.saveClientInformation({ client_id: 'c' }, { issuer: ISSUER })).toThrow(
      UnauthorizedError,
    );
    file.saveClient({
      issuer: ISSUER,
      client: { client_id: 'c', redirect_uris: ['http://127.0.0.1:9/callback'] },
    });
    provider.saveTokens({ access_token: 'a', token_type: 'Bearer' }, { issuer: ISSUER });
    expect(String(provider.redirectUrl)).toBe('http://127.0.0.1:9/callback');

    provider.invalidateCredentials('all');

    expect(file.logins()).toEqual([]);
    // The registration serves other resources of the same authorization server.
    expect(file.client(ISSUER)?.client.client_id).toBe('c');
  });

  it('refuses a file it did not write, naming the file and not its contents', () => {
    const file = store();
    file.saveClient({ issuer: ISSUER, client: { client_id: 'c' } });
    writeFileSync(file.file, '{"token": "s3cret-SECRET"');
    const error = (() => {
      try {
        file.logins();
      } catch (thrown) {
        return thrown;
      }
    })();
    expect(error).toBeInstanceOf(OAuthStoreError);
    expect((error as OAuthStoreError).problem).toBe('malformed');
    expect((error as OAuthStoreError).message).toBe(
      `OAuth token file ${file.file}: is not a token file written by agentwire (not JSON, or not version 1); move it away to start over`,
    );
    expect((error as OAuthStoreError).cause).toBeUndefined();
  });
});
