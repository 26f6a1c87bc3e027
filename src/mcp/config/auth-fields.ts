/**
 * The `"auth"` field of a remote server entry: authorization without a browser (`MCPClient.fromUrl`'s
 * `auth` option, auth/auth-grant.ts). Every string is interpolated, so secrets come from the
 * environment (`"clientSecret": "${env:MCP_CLIENT_SECRET}"`) or from files (`privateKeyFile`,
 * `assertionFile`, `idTokenFile`, resolved against the file's folder, checked to be readable at load, and read
 * when a token is requested).
 * Errors name the file, the entry and the field (`auth.clientSecret`), never a value. Unlike the keys of an
 * entry (which may be another tool's), a key `"auth"` does not have is refused: it is agentwire's own
 * field, and a misspelt credential would otherwise be dropped without a word.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { isRecord } from '../../core/json.js';
import { MCPAuthConfigError } from '../auth/auth-config-error.js';
import {
  authProblem,
  type MCPEnterpriseIdp,
  type MCPHttpAuth,
  type MCPTokenEndpointAuthMethod,
  UNSENT_SECRET_FIELDS,
  unsentSecret,
} from '../auth/auth-grant.js';
import { readSigningKey, signingAlgorithm } from '../auth/signing-key.js';
import { type EntryContext, entryError, readNonEmptyString } from './fields.js';
import { nearestKey } from './nearest-key.js';

const GRANTS = ['client_credentials', 'jwt_bearer', 'enterprise'] as const;
const METHODS: readonly MCPTokenEndpointAuthMethod[] = [
  'client_secret_basic',
  'client_secret_post',
  'private_key_jwt',
  'none',
];

/** The string fields of `"auth"`. */
const AUTH_FIELDS = [
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
] as const;
/** Every key of `"auth"`. */
const AUTH_KEYS: readonly string[] = ['grant', ...AUTH_FIELDS, 'idp'];
/** Every key of `"auth.idp"`. */
const IDP_KEYS = ['issuer', 'tokenEndpoint', 'clientId', 'clientSecret'] as const;
/**
 * Refuses a key of `raw` (the object at `prefix`) that is not in `known`: a misspelt field would otherwise be
 * ignored, and the grant sent without it.
 * @throws MCPAuthConfigError (`unknown_field`) naming the first such key and the nearest known one.
 */
function refuseUnknownKeys(
  context: EntryContext,
  raw: Record<string, unknown>,
  prefix: string,
  known: readonly string[],
): void {
  const unknown = Object.keys(raw).find((key) => !known.includes(key));
  if (unknown === undefined) return;
  throw new MCPAuthConfigError({
    problem: 'unknown_field',
    file: context.file,
    entry: context.entry,
    fields: [`${prefix}.${unknown}`],
    suggestion: nearestKey(unknown, known),
  });
}

/** The fields that name a file, read when a token is requested (the last two before each request). */
const FILE_FIELDS = ['privateKeyFile', 'assertionFile', 'idTokenFile'] as const;

/**
 * Refuses a file that cannot be read now, so that a wrong path is reported at load, naming the file, rather
 * than at the first token request. Its content is not kept: the key or token is read again when needed
 * (the platform may rotate it).
 * @throws MCPAuthConfigError (`unreadable_file`) naming the field, the path and the Node error code.
 */
function checkReadable(context: EntryContext, field: string, file: string): void {
  try {
    readFileSync(file);
  } catch (error) {
    throw new MCPAuthConfigError({
      problem: 'unreadable_file',
      file: context.file,
      entry: context.entry,
      fields: [field],
      path: path.resolve(file),
      code: (error as NodeJS.ErrnoException).code ?? 'unknown error',
      cause: error,
    });
  }
}

/**
 * Refuses a private key that is not one, or that `algorithm` cannot sign with, at load. The key file is read
 * for this and not kept (it is read again at the first token request).
 * @throws MCPConfigError naming the key's field when it is not a PEM or JWK private key; MCPAuthConfigError
 *   (`algorithm_mismatch`) naming `auth.algorithm`, the key type and the algorithms that fit.
 */
function checkKey(context: EntryContext, fields: Record<string, string>): void {
  const field = fields.privateKey === undefined ? 'privateKeyFile' : 'privateKey';
  const given = fields[field];
  if (given === undefined) return;
  const key = readSigningKey(field === 'privateKey' ? given : readFileSync(given, 'utf8'));
  if (key === undefined) throw entryError(context, `auth.${field}`, 'is not a PEM or JWK private key');
  signingAlgorithm(key, fields.algorithm, { file: context.file, entry: context.entry });
}

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
 *   lacks what it needs; MCPAuthConfigError for a key `auth` or `auth.idp` does not have (`unknown_field`),
 *   a `clientSecret` with method `none` (`secret_not_sent`), a file that cannot be read (`unreadable_file`),
 *   an `algorithm` that does not fit the private key (`algorithm_mismatch`).
 */
export function readAuth(
  context: EntryContext,
  raw: Record<string, unknown>,
  baseDir: string | undefined,
): MCPHttpAuth | undefined {
  const value = raw.auth;
  if (value === undefined) return undefined;
  if (!isRecord(value)) throw entryError(context, 'auth', 'must be an object');
  refuseUnknownKeys(context, value, 'auth', AUTH_KEYS);
  const grant = value.grant;
  if (typeof grant !== 'string' || !(GRANTS as readonly string[]).includes(grant))
    throw entryError(context, 'auth.grant', `must be ${GRANTS.map((g) => `"${g}"`).join(', ')}`);
  const fields = strings(context, value, 'auth', AUTH_FIELDS);
  const method = fields.tokenEndpointAuthMethod;
  if (method !== undefined && !(METHODS as readonly string[]).includes(method))
    throw entryError(
      context,
      'auth.tokenEndpointAuthMethod',
      `must be ${METHODS.map((m) => `"${m}"`).join(', ')}`,
    );
  for (const file of FILE_FIELDS) {
    const given = fields[file];
    if (given !== undefined && baseDir !== undefined) fields[file] = path.resolve(baseDir, given);
  }
  let idp: MCPEnterpriseIdp | undefined;
  if (value.idp !== undefined) {
    if (!isRecord(value.idp)) throw entryError(context, 'auth.idp', 'must be an object');
    refuseUnknownKeys(context, value.idp, 'auth.idp', IDP_KEYS);
    const read = strings(context, value.idp, 'auth.idp', IDP_KEYS);
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
  for (const file of FILE_FIELDS) {
    const given = fields[file];
    if (given !== undefined) checkReadable(context, `auth.${file}`, given);
  }
  if (grant === 'client_credentials') checkKey(context, fields);
  return auth;
}
