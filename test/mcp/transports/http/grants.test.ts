/**
 * The `auth` option's client credentials grant (SEP-1046) against a real authorization server: oidc-provider
 * 9.13.3 (test/fixtures/oidc-mcp.ts) in front of an SDK MCP server that introspects every token and checks its
 * audience. Client authentication by `client_secret_basic`, `client_secret_post` and `private_key_jwt` (EC key
 * as PEM inline, Ed25519 key as a JWK file); a refused grant is one token request and a typed error.
 * The JWT-bearer and enterprise grants (SEP-1933, SEP-990), which oidc-provider lacks, run against the
 * conformance suite's authorization servers (conformance/run.sh) and the scripted ones of grants-jwt.test.ts.
 */
import { generateKeyPairSync } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  MCPAuthConfigError,
  MCPCallError,
  MCPClient,
  type MCPHttpAuth,
  MCPOAuthGrantError,
  parseServerConfig,
} from '../../../../src/mcp/index.js';
import { type OidcMcp, startOidcMcp } from '../../../fixtures/oidc-mcp.js';
import { hunt } from '../../protocol/secret-hunter.js';
import { MemoryOAuthProvider } from './memory-provider.js';

const SECRET = 'm2m-client-secret-0123456789';
let fixture: OidcMcp | undefined;
let client: MCPClient | undefined;
let dir: string | undefined;

afterEach(async () => {
  await client?.disconnect();
  await fixture?.close();
  if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
  client = fixture = dir = undefined;
});

/** A client registered for the client credentials grant only. */
function m2mClient(id: string, extra: Record<string, unknown>): Record<string, unknown> {
  return {
    client_id: id,
    grant_types: ['client_credentials'],
    response_types: [],
    redirect_uris: [],
    ...extra,
  };
}

async function whoami(auth: MCPHttpAuth): Promise<string> {
  client = MCPClient.fromUrl(fixture!.url, { name: 'oidc', auth });
  await client.connect();
  const result = await client.callTool('whoami', {});
  return (result.content[0] as { text: string }).text;
}

describe('client credentials against oidc-provider', () => {
  it.each([
    ['client_secret_basic', undefined],
    ['client_secret_post', 'client_secret_post' as const],
  ])('authenticates with %s and calls a tool with the token', async (method, tokenEndpointAuthMethod) => {
    fixture = await startOidcMcp({
      clients: [m2mClient('bot', { client_secret: SECRET, token_endpoint_auth_method: method })],
    });
    const text = await whoami({
      grant: 'client_credentials',
      clientId: 'bot',
      clientSecret: SECRET,
      ...(tokenEndpointAuthMethod && { tokenEndpointAuthMethod }),
    });
    expect(text).toBe('scopes: mcp:tools');
    expect(fixture.grants).toEqual(['client_credentials']);
    // The first request had no token (401 and discovery); every later one carried the same bearer token.
    const [first, ...rest] = fixture.authorizations;
    expect(first).toBeUndefined();
    expect(new Set(rest).size).toBe(1);
    expect(rest[0]).toMatch(/^Bearer \S+$/);
  });

  it('signs a private_key_jwt assertion with an EC key given as PEM (ES256 from the key)', async () => {
    const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    const jwk = { ...publicKey.export({ format: 'jwk' }), alg: 'ES256', use: 'sig' };
    fixture = await startOidcMcp({
      clients: [
        m2mClient('signer', { token_endpoint_auth_method: 'private_key_jwt', jwks: { keys: [jwk] } }),
      ],
    });
    const pem = privateKey.export({ format: 'pem', type: 'pkcs8' }).toString();
    expect(await whoami({ grant: 'client_credentials', clientId: 'signer', privateKey: pem })).toBe(
      'scopes: mcp:tools',
    );
    expect(fixture.grants).toEqual(['client_credentials']);
  });

  it('reads an Ed25519 JWK from privateKeyFile of a configuration entry (EdDSA)', async () => {
    const { privateKey, publicKey } = generateKeyPairSync('ed25519');
    const jwk = { ...publicKey.export({ format: 'jwk' }), alg: 'EdDSA', use: 'sig' };
    fixture = await startOidcMcp({
      clients: [m2mClient('edbot', { token_endpoint_auth_method: 'private_key_jwt', jwks: { keys: [jwk] } })],
    });
    dir = mkdtempSync(path.join(tmpdir(), 'agentwire-grant-'));
    writeFileSync(path.join(dir, 'key.json'), JSON.stringify(privateKey.export({ format: 'jwk' })));
    const config = parseServerConfig(
      {
        mcpServers: {
          oidc: {
            url: fixture.url,
            auth: { grant: 'client_credentials', clientId: 'edbot', privateKeyFile: 'key.json' },
          },
        },
      },
      { baseDir: dir },
    );
    const entry = config.servers[0]!;
    if (entry.kind !== 'http') throw new Error('expected an http entry');
    expect(entry.options.auth).toEqual({
      grant: 'client_credentials',
      clientId: 'edbot',
      privateKeyFile: path.join(dir, 'key.json'),
    });
    expect(await whoami(entry.options.auth!)).toBe('scopes: mcp:tools');
  });

  it('reports a refused secret as an MCPOAuthGrantError after one token request, and again after one more', async () => {
    fixture = await startOidcMcp({
      clients: [
        m2mClient('bot', { client_secret: SECRET, token_endpoint_auth_method: 'client_secret_basic' }),
      ],
    });
    const wrong = 'not-the-secret-9876543210';
    client = MCPClient.fromUrl(fixture.url, {
      name: 'oidc',
      auth: { grant: 'client_credentials', clientId: 'bot', clientSecret: wrong },
    });
    const error = await client.connect().then(
      () => expect.fail('connect should fail'),
      (thrown: unknown) => thrown,
    );
    expect(error).toBeInstanceOf(MCPCallError);
    const call = error as MCPCallError;
    expect([call.kind, call.status, call.server]).toEqual(['http', 401, 'oidc']);
    const cause = call.cause as MCPOAuthGrantError;
    expect(cause).toBeInstanceOf(MCPOAuthGrantError);
    expect([cause.server, cause.grant, cause.oauthError, cause.status, cause.endpoint]).toEqual([
      'oidc',
      'client_credentials',
      'invalid_client',
      401,
      `${fixture.issuer}/token`,
    ]);
    expect(cause.message).toBe(
      `server "oidc": the authorization server refused the client_credentials grant: invalid_client (HTTP 401 from ${fixture.issuer}/token): client authentication failed`,
    );
    expect(fixture.grants).toEqual(['client_credentials']);
    await expect(client.connect()).rejects.toBeInstanceOf(MCPCallError);
    expect(fixture.grants).toEqual(['client_credentials', 'client_credentials']);
    expect(hunt({ error }, [wrong, btoa(`bot:${wrong}`)])).toEqual([]);
  });

  it('refuses a grant without its secret, and authProvider with auth', () => {
    expect(() =>
      MCPClient.fromUrl('http://127.0.0.1:9/mcp', { auth: { grant: 'client_credentials', clientId: 'x' } }),
    ).toThrow('auth.clientSecret needs exactly one of clientSecret, privateKey, privateKeyFile');
    const auth = { grant: 'client_credentials' as const, clientId: 'x', clientSecret: SECRET };
    const authProvider = new MemoryOAuthProvider();
    expect(() => MCPClient.fromUrl('http://127.0.0.1:9/mcp', { auth, authProvider })).toThrow(
      'set one of authProvider and auth, not both',
    );
  });

  it('refuses an algorithm that does not fit the key: at construction for an inline key, at connect for a file', async () => {
    const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    const pem = privateKey.export({ format: 'pem', type: 'pkcs8' }).toString();
    const problem = '"auth.algorithm" is "RS256", which does not fit the private key (EC P-256): use ES256';
    let error: unknown;
    try {
      MCPClient.fromUrl('http://127.0.0.1:9/mcp', {
        name: 'svc',
        auth: { grant: 'client_credentials', clientId: 'signer', privateKey: pem, algorithm: 'RS256' },
      });
    } catch (thrown) {
      error = thrown;
    }
    expect(error).toBeInstanceOf(MCPAuthConfigError);
    const refused = error as MCPAuthConfigError;
    expect([refused.problem, refused.entry, refused.field, refused.keyType, refused.algorithms]).toEqual([
      'algorithm_mismatch',
      'svc',
      'auth.algorithm',
      'EC P-256',
      ['ES256'],
    ]);
    expect(refused.message).toBe(`server "svc": ${problem}`);

    const jwk = { ...publicKey.export({ format: 'jwk' }), alg: 'ES256', use: 'sig' };
    fixture = await startOidcMcp({
      clients: [
        m2mClient('signer', { token_endpoint_auth_method: 'private_key_jwt', jwks: { keys: [jwk] } }),
      ],
    });
    dir = mkdtempSync(path.join(tmpdir(), 'agentwire-grant-'));
    writeFileSync(path.join(dir, 'key.pem'), pem);
    const auth = {
      grant: 'client_credentials' as const,
      clientId: 'signer',
      privateKeyFile: path.join(dir, 'key.pem'),
      algorithm: 'RS256',
    };
    client = MCPClient.fromUrl(fixture.url, { name: 'oidc', auth });
    const failed = (await client.connect().catch((thrown: unknown) => thrown)) as MCPCallError;
    expect(failed).toBeInstanceOf(MCPCallError);
    expect(failed.cause).toBeInstanceOf(MCPAuthConfigError);
    expect((failed.cause as MCPAuthConfigError).message).toBe(`server "oidc": ${problem}`);
    expect(failed.message).toMatch(
      new RegExp(`^MCP server "oidc": \\S+ failed: ${problem.replace(/[()]/g, '\\$&')}$`),
    );
    expect(fixture.grants).toEqual([]);
    expect(hunt({ failed }, [pem.trim()])).toEqual([]);
  });

  it('refuses at construction a clientSecret that tokenEndpointAuthMethod "none" would never send', () => {
    let error: unknown;
    try {
      MCPClient.fromUrl('http://127.0.0.1:9/mcp', {
        name: 'svc',
        auth: {
          grant: 'client_credentials',
          clientId: 'x',
          clientSecret: SECRET,
          tokenEndpointAuthMethod: 'none',
        },
      });
    } catch (thrown) {
      error = thrown;
    }
    expect(error).toBeInstanceOf(MCPAuthConfigError);
    const refused = error as MCPAuthConfigError;
    expect([refused.problem, refused.entry, refused.server, refused.file, refused.fields]).toEqual([
      'secret_not_sent',
      'svc',
      'svc',
      undefined,
      ['auth.clientSecret', 'auth.tokenEndpointAuthMethod'],
    ]);
    expect(refused.message).toBe(
      'server "svc": "auth.clientSecret" is set but "auth.tokenEndpointAuthMethod" is "none", which sends no client secret: remove one of them',
    );
  });
});
