/**
 * The "Grants without a browser" snippets of docs/authorization.md are examples/auth/*.ts, verbatim (the
 * docs' blocks test type-checks them): this test runs each against real servers (client credentials against
 * oidc-provider; JWT bearer and enterprise against the scripted authorization servers of oauth-server.ts),
 * and parses the section's configuration file.
 */
import { generateKeyPairSync } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { parseServerConfig } from '../../../../src/mcp/index.js';
import { examplePath, exampleText, printedBy } from '../../../docs/examples.js';
import { docBlock } from '../../../docs/markdown.js';
import { OAuthFixture } from '../../../fixtures/oauth-server.js';
import { startOidcMcp } from '../../../fixtures/oidc-mcp.js';

vi.mock('agentwire', () => import('../../../../src/index.js'));

const PAGE = 'docs/authorization.md';
const JWT_BEARER = 'urn:ietf:params:oauth:grant-type:jwt-bearer';
const examples = ['client-credentials', 'workload-identity', 'enterprise'].map((name) =>
  examplePath(`auth/${name}.ts`),
);
let closeables: { close(): Promise<void> }[] = [];
let dir: string | undefined;

afterEach(async () => {
  vi.unstubAllEnvs();
  for (const closeable of closeables) await closeable.close();
  if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
  closeables = [];
  dir = undefined;
});

function tempDir(): string {
  dir = mkdtempSync(path.join(tmpdir(), 'agentwire-readme-auth-'));
  return dir;
}

/** An MCP server whose authorization server grants JWT bearer for `assertion` only. */
async function jwtBearerServer(assertion: string): Promise<OAuthFixture> {
  let fixture: OAuthFixture | undefined;
  fixture = await OAuthFixture.start({
    grant: (form) => {
      if (form.get('grant_type') !== JWT_BEARER || form.get('assertion') !== assertion)
        return [400, { error: 'invalid_grant' }];
      const { access } = fixture!.issueTokens(form.get('scope') ?? '');
      return [200, { access_token: access, token_type: 'Bearer', expires_in: 3600 }];
    },
  });
  closeables.push(fixture);
  return fixture;
}

const whoamiResult = (text: string) => `[ { type: 'text', text: '${text}' } ]`;

describe('docs/authorization.md: grants without a browser', () => {
  it.each([
    ['### Client credentials', 0],
    ['### Workload identity federation', 1],
    ['### Enterprise-managed authorization', 2],
  ])('shows examples/auth/*.ts verbatim under %s', (heading, index) => {
    expect(docBlock(PAGE, heading, 'ts')).toBe(exampleText(examples[index]!));
  });

  it('runs the client credentials example against oidc-provider, with a secret and with a key file', async () => {
    const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    const secret = 'report-bot-secret-0123456789';
    const fixture = await startOidcMcp({
      clients: [
        {
          client_id: 'report-bot',
          client_secret: secret,
          grant_types: ['client_credentials'],
          response_types: [],
          redirect_uris: [],
        },
        {
          client_id: 'report-signer',
          token_endpoint_auth_method: 'private_key_jwt',
          jwks: { keys: [{ ...publicKey.export({ format: 'jwk' }), alg: 'ES256', use: 'sig' }] },
          grant_types: ['client_credentials'],
          response_types: [],
          redirect_uris: [],
        },
      ],
    });
    closeables.push(fixture);
    const keyFile = path.join(tempDir(), 'key.pem');
    writeFileSync(keyFile, privateKey.export({ format: 'pem', type: 'pkcs8' }));
    vi.stubEnv('MCP_SERVER_URL', fixture.url);
    vi.stubEnv('MCP_CLIENT_SECRET', secret);
    vi.stubEnv('MCP_KEY_FILE', keyFile);
    expect(await printedBy(examples[0]!)).toEqual([
      whoamiResult('scopes: mcp:tools'),
      whoamiResult('scopes: mcp:tools'),
    ]);
    expect(fixture.grants).toEqual(['client_credentials', 'client_credentials']);
  });

  it('runs the workload identity example with a token file', async () => {
    const jwt = 'eyJhbGciOiJFUzI1NiJ9.workload.sig-readme';
    const server = await jwtBearerServer(jwt);
    const file = path.join(tempDir(), 'token');
    writeFileSync(file, jwt);
    vi.stubEnv('MCP_SERVER_URL', server.url);
    vi.stubEnv('WORKLOAD_TOKEN_FILE', file);
    expect(await printedBy(examples[1]!)).toEqual([whoamiResult('whoami with scopes: mcp:read')]);
  });

  it('runs the enterprise example: token exchange at the IdP, then JWT bearer', async () => {
    const idToken = 'eyJhbGciOiJFUzI1NiJ9.id-token.sig-readme';
    const jag = 'eyJhbGciOiJFUzI1NiJ9.id-jag.sig-readme';
    const idp = await OAuthFixture.start({
      grant: (form) =>
        form.get('subject_token') === idToken && form.get('client_id') === 'agentwire-at-idp'
          ? [
              200,
              {
                access_token: jag,
                issued_token_type: 'urn:ietf:params:oauth:token-type:id-jag',
                token_type: 'N_A',
              },
            ]
          : [400, { error: 'invalid_grant' }],
    });
    closeables.push(idp);
    const server = await jwtBearerServer(jag);
    vi.stubEnv('MCP_SERVER_URL', server.url);
    vi.stubEnv('IDP_ID_TOKEN', idToken);
    vi.stubEnv('IDP_ISSUER', idp.origin);
    vi.stubEnv('MCP_CLIENT_SECRET', 'wiki-secret-0123456789');
    expect(await printedBy(examples[2]!)).toEqual([whoamiResult('whoami with scopes: mcp:read')]);
    expect(server.tokenRequests[0]!.get('client_id')).toBe('agentwire-at-mcp');
  });

  it("parses the section's configuration file", () => {
    const base = tempDir();
    // The files must exist at load: the ID token beside the file, the projected token at a path of our own.
    writeFileSync(path.join(base, 'id-token.jwt'), 'eyJhbGciOiJFUzI1NiJ9.id.sig');
    const projected = path.join(base, 'mcp-token');
    writeFileSync(projected, 'eyJhbGciOiJFUzI1NiJ9.wl.sig');
    const text = docBlock(PAGE, '### In a configuration file', 'json');
    expect(text).toContain('"/var/run/secrets/tokens/mcp-token"');
    const config = parseServerConfig(
      JSON.parse(text.replace('/var/run/secrets/tokens/mcp-token', projected)),
      {
        env: { REPORTS_SECRET: 'reports-secret-value', WIKI_SECRET: 'wiki-secret-value' },
        baseDir: base,
      },
    );
    expect(config.servers.map((entry) => (entry.kind === 'http' ? entry.options.auth : undefined))).toEqual([
      { grant: 'client_credentials', clientId: 'report-bot', clientSecret: 'reports-secret-value' },
      { grant: 'jwt_bearer', assertionFile: projected },
      {
        grant: 'enterprise',
        idTokenFile: path.join(base, 'id-token.jwt'),
        idp: { issuer: 'https://idp.example.com', clientId: 'agentwire-at-idp' },
        clientId: 'agentwire-at-wiki',
        clientSecret: 'wiki-secret-value',
      },
    ]);
  });
});
