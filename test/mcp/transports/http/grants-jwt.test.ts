/**
 * The `auth` option's JWT-bearer grant (workload identity, SEP-1933) and enterprise-managed authorization
 * (SEP-990) against scripted authorization servers: oidc-provider has neither grant, so test/fixtures/
 * oauth-server.ts (an MCP server with its own authorization server) answers them through its `grant` hook,
 * and a second one plays the enterprise IdP. The conformance suite runs both grants against its own servers
 * too (conformance/run.sh: `auth/wif-jwt-bearer`, `auth/enterprise-managed-authorization`).
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
  MCPOAuthGrantError,
} from '../../../../src/mcp/index.js';
import { OAuthFixture } from '../../../fixtures/oauth-server.js';
import { captureConsole, hunt } from '../../protocol/secret-hunter.js';

const JWT_BEARER = 'urn:ietf:params:oauth:grant-type:jwt-bearer';
const TOKEN_EXCHANGE = 'urn:ietf:params:oauth:grant-type:token-exchange';
const WORKLOAD_JWT = 'eyJhbGciOiJFUzI1NiJ9.workload-one.sig-AAAAAAAA';
const ROTATED_JWT = 'eyJhbGciOiJFUzI1NiJ9.workload-two.sig-BBBBBBBB';
const ID_TOKEN = 'eyJhbGciOiJFUzI1NiJ9.id-token.sig-CCCCCCCC';
const ID_JAG = 'eyJhbGciOiJFUzI1NiIsInR5cCI6Im9hdXRoLWlkLWphZytqd3QifQ.jag.sig-DDDDDDDD';
const CLIENT_SECRET = 'mcp-client-secret-EEEEEEEE';

let closeables: { close(): Promise<void> }[] = [];
let client: MCPClient | undefined;
let dir: string | undefined;

afterEach(async () => {
  await client?.disconnect();
  for (const closeable of closeables) await closeable.close();
  if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
  closeables = [];
  client = dir = undefined;
});

/** An MCP server whose authorization server grants JWT bearer for the `accepted` assertions only. */
async function jwtBearerServer(accepted: string[]): Promise<OAuthFixture> {
  let fixture: OAuthFixture | undefined;
  fixture = await OAuthFixture.start({
    grant: (form) => {
      if (form.get('grant_type') !== JWT_BEARER) return [400, { error: 'unsupported_grant_type' }];
      if (!accepted.includes(form.get('assertion') ?? '')) {
        return [400, { error: 'invalid_grant', error_description: `rejected ${form.get('assertion')}` }];
      }
      const { access } = fixture!.issueTokens(form.get('scope') ?? '');
      return [200, { access_token: access, token_type: 'Bearer', expires_in: 3600 }];
    },
  });
  closeables.push(fixture);
  return fixture;
}

async function whoami(): Promise<string> {
  const result = await client!.callTool('whoami', {});
  return (result.content[0] as { text: string }).text;
}

describe('JWT bearer (workload identity federation)', () => {
  it('sends the workload JWT with the resource and challenged scope, and reads assertionFile again for a new token', async () => {
    const server = await jwtBearerServer([WORKLOAD_JWT, ROTATED_JWT]);
    dir = mkdtempSync(path.join(tmpdir(), 'agentwire-wif-'));
    const file = path.join(dir, 'token');
    writeFileSync(file, `${WORKLOAD_JWT}\n`);
    client = MCPClient.fromUrl(server.url, {
      name: 'wif',
      auth: { grant: 'jwt_bearer', assertionFile: file },
    });
    await client.connect();
    expect(await whoami()).toBe('whoami with scopes: mcp:read');
    const [first] = server.tokenRequests;
    expect(Object.fromEntries(first!)).toEqual({
      grant_type: JWT_BEARER,
      assertion: WORKLOAD_JWT,
      resource: server.url,
      scope: 'mcp:read',
    });
    // The platform rotates the file; the server forgets the token (it expired): the next token uses the new JWT.
    writeFileSync(file, ROTATED_JWT);
    for (const token of [...server.accessTokens.keys()]) server.expire(token);
    expect(await whoami()).toBe('whoami with scopes: mcp:read');
    expect(server.tokenRequests.map((form) => form.get('assertion'))).toEqual([WORKLOAD_JWT, ROTATED_JWT]);
  });

  it('makes one token request for several calls answered 401 at once', async () => {
    const server = await jwtBearerServer([WORKLOAD_JWT]);
    client = MCPClient.fromUrl(server.url, {
      name: 'wif',
      auth: { grant: 'jwt_bearer', assertion: WORKLOAD_JWT },
    });
    await client.connect();
    expect(server.tokenRequests.length).toBe(1);
    // The server forgets the token: four calls in flight together are each answered 401.
    for (const token of [...server.accessTokens.keys()]) server.expire(token);
    const results = await Promise.all([1, 2, 3, 4].map(() => whoami()));
    expect(results).toEqual(Array(4).fill('whoami with scopes: mcp:read'));
    expect(server.tokenRequests.length).toBe(2);
  });

  it('names the assertionFile, not its content, when it cannot be read for a later token', async () => {
    const server = await jwtBearerServer([WORKLOAD_JWT]);
    dir = mkdtempSync(path.join(tmpdir(), 'agentwire-wif-'));
    const file = path.join(dir, 'token');
    writeFileSync(file, WORKLOAD_JWT);
    client = MCPClient.fromUrl(server.url, {
      name: 'wif',
      auth: { grant: 'jwt_bearer', assertionFile: file },
    });
    await client.connect();
    // The platform removed the token; the access token expires: the next token request cannot read it.
    rmSync(file);
    for (const token of [...server.accessTokens.keys()]) server.expire(token);
    const error = (await client.callTool('whoami', {}).catch((thrown: unknown) => thrown)) as MCPCallError;
    expect(error).toBeInstanceOf(MCPCallError);
    expect([error.kind, error.server]).toEqual(['transport', 'wif']);
    expect(error.message).toBe(
      `MCP server "wif": tools/call "whoami" failed: "auth.assertionFile" cannot be read: ${file} (ENOENT)`,
    );
    const cause = error.cause as MCPAuthConfigError;
    expect(cause).toBeInstanceOf(MCPAuthConfigError);
    expect([cause.problem, cause.entry, cause.field, cause.path, cause.code]).toEqual([
      'unreadable_file',
      'wif',
      'auth.assertionFile',
      file,
      'ENOENT',
    ]);
    expect(server.tokenRequests.length).toBe(1);
    expect(hunt({ error }, [WORKLOAD_JWT])).toEqual([]);
  });

  it('surfaces invalid_grant once, with no second token request, and no assertion anywhere', async () => {
    const server = await jwtBearerServer([]);
    const output = captureConsole();
    let calls = 0;
    client = MCPClient.fromUrl(server.url, {
      name: 'wif',
      auth: {
        grant: 'jwt_bearer',
        clientId: 'workload',
        assertion: (context) => {
          calls += 1;
          expect(context).toEqual({
            issuer: server.origin,
            tokenEndpoint: `${server.origin}/token`,
            resource: server.url,
          });
          return WORKLOAD_JWT;
        },
      },
    });
    const events: unknown[] = [];
    client.on('error', (error) => events.push(error));
    const error = (await client.connect().catch((thrown: unknown) => thrown)) as MCPCallError;
    expect(error).toBeInstanceOf(MCPCallError);
    const cause = error.cause as MCPOAuthGrantError;
    expect(cause).toBeInstanceOf(MCPOAuthGrantError);
    expect([cause.grant, cause.oauthError, cause.status, cause.description]).toEqual([
      'jwt_bearer',
      'invalid_grant',
      400,
      'rejected [redacted]',
    ]);
    expect([calls, server.tokenRequests.length]).toEqual([1, 1]);
    expect(server.tokenRequests[0]!.get('client_id')).toBe('workload');
    expect(hunt({ error, events, output }, [WORKLOAD_JWT])).toEqual([]);
  });
});

describe('a refused private_key_jwt client assertion', () => {
  it('keeps the OAuth error code of a refusal that echoes the assertion, the description redacted', async () => {
    let assertion = '';
    const server = await OAuthFixture.start({
      grant: (form) => {
        assertion = form.get('client_assertion') ?? '';
        // An RS256 assertion is longer than an error excerpt: the whole body must still be read as JSON.
        const echoed = `client_assertion ${assertion} rejected (seen: ${assertion.slice(0, 120)}…, other: ${ID_TOKEN})`;
        return [401, { error: 'invalid_client', error_description: echoed }];
      },
    });
    closeables.push(server);
    const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    const pem = privateKey.export({ format: 'pem', type: 'pkcs8' }).toString();
    client = MCPClient.fromUrl(server.url, {
      name: 'signer',
      auth: { grant: 'client_credentials', clientId: 'signer', privateKey: pem },
    });
    const error = (await client.connect().catch((thrown: unknown) => thrown)) as MCPCallError;
    expect(error).toBeInstanceOf(MCPCallError);
    expect(assertion.length).toBeGreaterThan(512);
    const cause = error.cause as MCPOAuthGrantError;
    expect(cause).toBeInstanceOf(MCPOAuthGrantError);
    const description = 'client_assertion [redacted] rejected (seen: [redacted]…, other: [redacted])';
    expect([cause.grant, cause.oauthError, cause.status, cause.description]).toEqual([
      'client_credentials',
      'invalid_client',
      401,
      description,
    ]);
    expect(cause.reason).toBe(
      `the authorization server refused the client_credentials grant: invalid_client (HTTP 401 from ${server.origin}/token): ${description}`,
    );
    expect(error.message).toBe(
      `MCP server "signer": ${error.method} failed: unauthorized (401): ${cause.reason}`,
    );
    expect(server.tokenRequests.length).toBe(1);
    expect(hunt({ error }, [assertion, assertion.slice(0, 120), ID_TOKEN])).toEqual([]);
  });
});

describe('enterprise-managed authorization (SEP-990)', () => {
  async function enterprise(idpAnswer?: [number, object]) {
    const idp = await OAuthFixture.start({
      grant: (form) =>
        idpAnswer ??
        (form.get('grant_type') === TOKEN_EXCHANGE && form.get('subject_token') === ID_TOKEN
          ? [
              200,
              {
                access_token: ID_JAG,
                issued_token_type: 'urn:ietf:params:oauth:token-type:id-jag',
                token_type: 'N_A',
              },
            ]
          : [400, { error: 'invalid_grant' }]),
    });
    closeables.push(idp);
    const server = await jwtBearerServer([ID_JAG]);
    return { idp, server };
  }

  it('exchanges the ID token at the IdP for an ID-JAG, then the ID-JAG for an access token', async () => {
    const { idp, server } = await enterprise();
    client = MCPClient.fromUrl(server.url, {
      name: 'ema',
      auth: {
        grant: 'enterprise',
        idToken: ID_TOKEN,
        idp: { issuer: idp.origin, clientId: 'idp-client' },
        clientId: 'mcp-client',
        clientSecret: CLIENT_SECRET,
      },
    });
    await client.connect();
    expect(await whoami()).toBe('whoami with scopes: mcp:read');
    expect(Object.fromEntries(idp.tokenRequests[0]!)).toEqual({
      grant_type: TOKEN_EXCHANGE,
      requested_token_type: 'urn:ietf:params:oauth:token-type:id-jag',
      audience: server.origin,
      resource: server.url,
      subject_token: ID_TOKEN,
      subject_token_type: 'urn:ietf:params:oauth:token-type:id_token',
      scope: 'mcp:read',
      client_id: 'idp-client',
    });
    // The fixture's metadata lists only client_secret_post, so the client authenticates that way.
    expect(Object.fromEntries(server.tokenRequests[0]!)).toEqual({
      grant_type: JWT_BEARER,
      assertion: ID_JAG,
      resource: server.url,
      scope: 'mcp:read',
      client_id: 'mcp-client',
      client_secret: CLIENT_SECRET,
    });
  });

  it('reports a refused token exchange as grant token_exchange, without a request to the MCP server', async () => {
    const { idp, server } = await enterprise([400, { error: 'invalid_target' }]);
    client = MCPClient.fromUrl(server.url, {
      name: 'ema',
      auth: {
        grant: 'enterprise',
        idToken: ID_TOKEN,
        idp: {
          tokenEndpoint: `${idp.origin}/token`,
          clientId: 'idp-client',
          clientSecret: 'idp-secret-FFFFFFFF',
        },
        clientId: 'mcp-client',
        clientSecret: CLIENT_SECRET,
      },
    });
    const error = (await client.connect().catch((thrown: unknown) => thrown)) as MCPCallError;
    const cause = error.cause as MCPOAuthGrantError;
    expect([cause.grant, cause.oauthError, cause.status]).toEqual(['token_exchange', 'invalid_target', 400]);
    expect(cause.reason).toBe(
      `the identity provider refused the token_exchange grant: invalid_target (HTTP 400 from ${idp.origin}/token)`,
    );
    expect([idp.tokenRequests.length, server.tokenRequests.length]).toEqual([1, 0]);
    expect(hunt({ error }, [ID_TOKEN, CLIENT_SECRET, 'idp-secret-FFFFFFFF'])).toEqual([]);
  });
});
