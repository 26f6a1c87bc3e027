/**
 * The `"auth"` field of a remote server entry: authorization without a browser (`MCPClient.fromUrl`'s
 * `auth` option, protocol/auth-grant.ts). Every string is interpolated, so secrets come from the
 * environment (`"clientSecret": "${env:MCP_CLIENT_SECRET}"`) or from files (`privateKeyFile`,
 * `assertionFile`, `idTokenFile`, resolved against the file's folder and read when a token is requested).
 * Errors name the file, the entry and the field (`auth.clientSecret`), never a value.
 */
import path from 'node:path';
import { isRecord } from '../../core/json.js';
import { MCPAuthConfigError } from '../protocol/auth-config-error.js';
import {
  authProblem,
  type MCPEnterpriseIdp,
  type MCPHttpAuth,
  type MCPTokenEndpointAuthMethod,
  UNSENT_SECRET_FIELDS,
  unsentSecret,
} from '../protocol/auth-grant.js';
import { type EntryContext, entryError, readNonEmptyString } from './fields.js';

const GRANTS = ['client_credentials', 'jwt_bearer', 'enterprise'] as const;
const METHODS: readonly MCPTokenEndpointAuthMethod[] = [
  'client_secret_basic',
  'client_secret_post',
  'private_key_jwt',
  'none',
];

/** The strings of `raw` at `prefix.<name>`, interpolated; absent ones left out. */
function strings(
  context: EntryContext,
  raw: Record<string, unknown>,
  prefix: string,
  names: readonly string[],
): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name of names) {
    const field = `${prefix}.${name}`;
    const value = readNonEmptyString(context, { [field]: raw[name] }, field);
    if (value !== undefined) out[name] = value;
  }
  return out;
}

/**
 * Reads `"auth"`; undefined when absent. Files are resolved against `baseDir` (the configuration's folder).
 * @throws MCPConfigError naming the field for a wrong type, an unknown grant or method, or a grant that
 *   lacks what it needs; MCPAuthConfigError (`secret_not_sent`) for a `clientSecret` with method `none`.
 */
export function readAuth(
  context: EntryContext,
  raw: Record<string, unknown>,
  baseDir: string | undefined,
): MCPHttpAuth | undefined {
  const value = raw.auth;
  if (value === undefined) return undefined;
  if (!isRecord(value)) throw entryError(context, 'auth', 'must be an object');
  const grant = value.grant;
  if (typeof grant !== 'string' || !(GRANTS as readonly string[]).includes(grant))
    throw entryError(context, 'auth.grant', `must be ${GRANTS.map((g) => `"${g}"`).join(', ')}`);
  const fields = strings(context, value, 'auth', [
    'clientId',
    'clientSecret',
    'privateKey',
    'privateKeyFile',
    'algorithm',
    'tokenEndpointAuthMethod',
    'scope',
    'issuer',
    'assertion',
    'assertionFile',
    'idToken',
    'idTokenFile',
  ]);
  const method = fields.tokenEndpointAuthMethod;
  if (method !== undefined && !(METHODS as readonly string[]).includes(method))
    throw entryError(
      context,
      'auth.tokenEndpointAuthMethod',
      `must be ${METHODS.map((m) => `"${m}"`).join(', ')}`,
    );
  for (const file of ['privateKeyFile', 'assertionFile', 'idTokenFile']) {
    const given = fields[file];
    if (given !== undefined && baseDir !== undefined) fields[file] = path.resolve(baseDir, given);
  }
  let idp: MCPEnterpriseIdp | undefined;
  if (value.idp !== undefined) {
    if (!isRecord(value.idp)) throw entryError(context, 'auth.idp', 'must be an object');
    const read = strings(context, value.idp, 'auth.idp', [
      'issuer',
      'tokenEndpoint',
      'clientId',
      'clientSecret',
    ]);
    if (read.clientId === undefined) throw entryError(context, 'auth.idp.clientId', 'is required');
    idp = { ...read, clientId: read.clientId };
  }
  const auth = { ...fields, grant, ...(idp && { idp }) } as MCPHttpAuth;
  if (grant !== 'jwt_bearer' && fields.clientId === undefined)
    throw entryError(context, 'auth.clientId', 'is required');
  const problem = authProblem(auth);
  if (problem !== undefined) throw entryError(context, `auth.${problem.field}`, problem.problem);
  if (unsentSecret(auth))
    throw new MCPAuthConfigError({
      problem: 'secret_not_sent',
      file: context.file,
      entry: context.entry,
      fields: UNSENT_SECRET_FIELDS,
    });
  return auth;
}
