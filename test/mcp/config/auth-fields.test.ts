// biome-ignore-all lint/suspicious/noTemplateCurlyInString: the strings are configuration-file ${…} references.
/**
 * The `"auth"` field of a remote server entry (config/auth-fields.ts): what it reads, and the exact errors,
 * which name the file, the entry and the field and never a value.
 */
import { generateKeyPairSync } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { MCPAuthConfigError, MCPConfigError, parseServerConfig } from '../../../src/mcp/index.js';

let dir: string | undefined;

afterEach(() => {
  if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
  dir = undefined;
});

/** A fresh folder holding `files` (name → content). */
function folder(files: Record<string, string> = {}): string {
  dir = mkdtempSync(path.join(tmpdir(), 'agentwire-auth-fields-'));
  for (const [name, content] of Object.entries(files)) writeFileSync(path.join(dir, name), content);
  return dir;
}

function entryAuth(auth: unknown, env: Record<string, string> = {}, baseDir = '/etc/agentwire') {
  const config = parseServerConfig(
    { mcpServers: { svc: { url: 'https://mcp.example.com/mcp', auth } } },
    { source: 'test.json', env, baseDir },
  );
  const invalid = config.invalid[0];
  if (invalid !== undefined) throw invalid.error;
  const entry = config.servers[0]!;
  return entry.kind === 'http' ? entry.options.auth : undefined;
}

describe('the "auth" field', () => {
  it('interpolates every string and resolves files against the folder', () => {
    const env = { SECRET: 'from-the-environment', SCOPE: 'reports:read' };
    expect(
      entryAuth(
        { grant: 'client_credentials', clientId: 'bot', clientSecret: '${env:SECRET}', scope: '${SCOPE}' },
        env,
      ),
    ).toEqual({
      grant: 'client_credentials',
      clientId: 'bot',
      clientSecret: 'from-the-environment',
      scope: 'reports:read',
    });
    const base = folder({ 'wl.jwt': 'eyJhbGciOiJFUzI1NiJ9.wl.sig' });
    expect(entryAuth({ grant: 'jwt_bearer', assertionFile: 'wl.jwt', clientId: 'w' }, {}, base)).toEqual({
      grant: 'jwt_bearer',
      assertionFile: path.join(base, 'wl.jwt'),
      clientId: 'w',
    });
  });

  it.each([
    ['not an object', 'x', '"auth" must be an object'],
    [
      'an unknown grant',
      { grant: 'password' },
      '"auth.grant" must be "client_credentials", "jwt_bearer", "enterprise"',
    ],
    ['no client id', { grant: 'client_credentials', clientSecret: 's' }, '"auth.clientId" is required'],
    [
      'both a secret and a key',
      { grant: 'client_credentials', clientId: 'c', clientSecret: 's', privateKeyFile: 'k.pem' },
      '"auth.clientSecret" needs exactly one of clientSecret, privateKey, privateKeyFile',
    ],
    [
      'no assertion',
      { grant: 'jwt_bearer' },
      '"auth.assertion" needs exactly one of assertion, assertionFile',
    ],
    [
      'an unknown method',
      { grant: 'jwt_bearer', assertion: 'a', tokenEndpointAuthMethod: 'tls_client_auth' },
      '"auth.tokenEndpointAuthMethod" must be "client_secret_basic", "client_secret_post", "private_key_jwt", "none"',
    ],
    [
      'an IdP without a client id',
      { grant: 'enterprise', clientId: 'c', idToken: 't', idp: { issuer: 'https://idp' } },
      '"auth.idp.clientId" is required',
    ],
    [
      'an IdP without issuer or endpoint',
      { grant: 'enterprise', clientId: 'c', idToken: 't', idp: { clientId: 'i' } },
      '"auth.idp.issuer" needs exactly one of idp.issuer, idp.tokenEndpoint',
    ],
    [
      'a secret that is not a string',
      { grant: 'client_credentials', clientId: 'c', clientSecret: 7 },
      '"auth.clientSecret" must be a string',
    ],
  ])('rejects %s with an exact message', (_, auth, problem) => {
    let error: unknown;
    try {
      entryAuth(auth);
    } catch (thrown) {
      error = thrown;
    }
    expect(error).toBeInstanceOf(MCPConfigError);
    expect((error as MCPConfigError).message).toBe(`config test.json: server "svc": ${problem}`);
  });

  it.each(['client_credentials', 'jwt_bearer'])(
    'refuses a %s clientSecret that method "none" would never send, naming both fields',
    (grant) => {
      const secret = 'a-secret-never-sent-0123';
      const auth = {
        grant,
        clientId: 'c',
        clientSecret: secret,
        tokenEndpointAuthMethod: 'none',
        assertion: 'a',
      };
      if (grant === 'client_credentials') delete (auth as { assertion?: string }).assertion;
      let error: unknown;
      try {
        entryAuth(auth);
      } catch (thrown) {
        error = thrown;
      }
      expect(error).toBeInstanceOf(MCPAuthConfigError);
      const refused = error as MCPAuthConfigError;
      expect([refused.problem, refused.file, refused.entry, refused.field, refused.fields]).toEqual([
        'secret_not_sent',
        'test.json',
        'svc',
        'auth.clientSecret',
        ['auth.clientSecret', 'auth.tokenEndpointAuthMethod'],
      ]);
      expect(refused.message).toBe(
        'config test.json: server "svc": "auth.clientSecret" is set but "auth.tokenEndpointAuthMethod" is "none", which sends no client secret: remove one of them',
      );
      expect(refused.message).not.toContain(secret);
    },
  );

  it.each([
    [
      { grant: 'client_credentials', clientId: 'c', client_secret: 's' },
      'auth.client_secret',
      'clientSecret',
    ],
    [{ grant: 'jwt_bearer', assertionFlie: 'wl.jwt' }, 'auth.assertionFlie', 'assertionFile'],
    [{ grant: 'jwt_bearer', assertion: 'a', audience: 'x' }, 'auth.audience', undefined],
    [
      { grant: 'enterprise', clientId: 'c', idToken: 't', idp: { issuer: 'https://idp', clientID: 'i' } },
      'auth.idp.clientID',
      'clientId',
    ],
  ])(
    'refuses an unknown key %#, naming it, the server and the file, and the nearest known key',
    (auth, field, suggestion) => {
      let error: unknown;
      try {
        entryAuth(auth);
      } catch (thrown) {
        error = thrown;
      }
      expect(error).toBeInstanceOf(MCPAuthConfigError);
      const refused = error as MCPAuthConfigError;
      expect([refused.problem, refused.file, refused.entry, refused.field, refused.suggestion]).toEqual([
        'unknown_field',
        'test.json',
        'svc',
        field,
        suggestion,
      ]);
      const parent = field.split('.').slice(0, -1).join('.');
      const hint = suggestion === undefined ? '' : ` (did you mean "${suggestion}"?)`;
      expect(refused.message).toBe(
        `config test.json: server "svc": "${field}" is not a field of "${parent}"${hint}`,
      );
    },
  );

  it.each([
    [
      'privateKeyFile',
      { grant: 'client_credentials', clientId: 'c', privateKeyFile: 'missing.pem' },
      'ENOENT',
    ],
    ['assertionFile', { grant: 'jwt_bearer', assertionFile: 'missing.jwt' }, 'ENOENT'],
    [
      'idTokenFile',
      {
        grant: 'enterprise',
        clientId: 'c',
        idTokenFile: 'missing.jwt',
        idp: { issuer: 'https://idp.example.com', clientId: 'i' },
      },
      'ENOENT',
    ],
    ['assertionFile', { grant: 'jwt_bearer', assertionFile: 'a-folder' }, 'EISDIR'],
  ])('refuses at load a %s that cannot be read, naming the file and the error code', (field, auth, code) => {
    const base = folder();
    mkdirSync(path.join(base, 'a-folder'));
    let error: unknown;
    try {
      entryAuth(auth, {}, base);
    } catch (thrown) {
      error = thrown;
    }
    expect(error).toBeInstanceOf(MCPAuthConfigError);
    const refused = error as MCPAuthConfigError;
    const file = path.join(base, (auth as Record<string, string>)[field]!);
    expect([refused.problem, refused.file, refused.entry, refused.field, refused.path, refused.code]).toEqual(
      ['unreadable_file', 'test.json', 'svc', `auth.${field}`, file, code],
    );
    expect(refused.message).toBe(
      `config test.json: server "svc": "auth.${field}" cannot be read: ${file} (${code})`,
    );
  });

  it.each([
    ['an EC P-256 PEM file', 'ec', 'RS256', 'EC P-256', ['ES256']],
    ['an inline RSA PEM', 'rsa', 'ES256', 'RSA', ['RS256', 'RS384', 'RS512', 'PS256', 'PS384', 'PS512']],
    ['an Ed25519 JWK file', 'ed25519', 'ES256', 'Ed25519', ['EdDSA', 'Ed25519']],
  ] as const)(
    'refuses at load an algorithm that does not fit %s, naming the key type and the algorithms that do',
    (_, type, algorithm, keyType, algorithms) => {
      const { privateKey } =
        type === 'ec'
          ? generateKeyPairSync('ec', { namedCurve: 'P-256' })
          : type === 'rsa'
            ? generateKeyPairSync('rsa', { modulusLength: 2048 })
            : generateKeyPairSync('ed25519');
      const pem = privateKey.export({ format: 'pem', type: 'pkcs8' }).toString();
      const base = folder({
        'key.pem': pem,
        'key.json': JSON.stringify(privateKey.export({ format: 'jwk' })),
      });
      const key =
        type === 'rsa' ? { privateKey: pem } : { privateKeyFile: type === 'ec' ? 'key.pem' : 'key.json' };
      let error: unknown;
      try {
        entryAuth({ grant: 'client_credentials', clientId: 'c', algorithm, ...key }, {}, base);
      } catch (thrown) {
        error = thrown;
      }
      expect(error).toBeInstanceOf(MCPAuthConfigError);
      const refused = error as MCPAuthConfigError;
      expect([refused.problem, refused.file, refused.entry, refused.field]).toEqual([
        'algorithm_mismatch',
        'test.json',
        'svc',
        'auth.algorithm',
      ]);
      expect([refused.algorithm, refused.keyType, refused.algorithms]).toEqual([
        algorithm,
        keyType,
        algorithms,
      ]);
      expect(refused.message).toBe(
        `config test.json: server "svc": "auth.algorithm" is "${algorithm}", which does not fit the private key (${keyType}): use ${algorithms.join(' or ')}`,
      );
      expect(refused.message).not.toContain('PRIVATE KEY');
      // A fitting algorithm loads.
      expect(
        entryAuth({ grant: 'client_credentials', clientId: 'c', algorithm: algorithms[0], ...key }, {}, base),
      ).toMatchObject({ algorithm: algorithms[0] });
    },
  );

  it('refuses at load a privateKeyFile that is not a private key', () => {
    const base = folder({ 'key.pem': 'not a key' });
    expect(() =>
      entryAuth({ grant: 'client_credentials', clientId: 'c', privateKeyFile: 'key.pem' }, {}, base),
    ).toThrow('config test.json: server "svc": "auth.privateKeyFile" is not a PEM or JWK private key');
  });

  it('names an unset variable, not a value', () => {
    expect(() => entryAuth({ grant: 'jwt_bearer', assertion: '${env:NOT_SET_ANYWHERE}' })).toThrow(
      'config test.json: server "svc": "auth.assertion" uses ${NOT_SET_ANYWHERE}, which is not set in the environment',
    );
  });
});
