/**
 * The private key of a `private_key_jwt` client assertion (RFC 7523 §2.2; the `auth` option's
 * `privateKey` / `privateKeyFile`, auth-grant.ts) read as a JWK, with the JWS algorithms that can sign with
 * it (RFC 7518 §3.1, RFC 8037 §3.1; those the MCP SDK's JOSE library implements). Used where the key is
 * first known: a configuration's load, `MCPClient.fromUrl` for an inline key, the first token request for a
 * key file, so that a wrong `algorithm` is refused with the algorithms that fit rather than the JOSE
 * library's words at signing time.
 */
import { createPrivateKey, type JsonWebKey } from 'node:crypto';
import { MCPConfigError } from '../protocol/errors.js';
import { MCPAuthConfigError } from './auth-config-error.js';

/** A private key read: the JWK, its type as a person names it, and the algorithms that sign with it. */
export interface SigningKeyInfo {
  jwk: JsonWebKey;
  /** `RSA`, `EC P-256`, `EC P-384`, `EC P-521`, `Ed25519`, or the JWK `kty` (and `crv`) of another key. */
  keyType: string;
  /** The JWS algorithms that sign with this key, the default first; empty for a key that cannot sign. */
  algorithms: readonly string[];
}

const RSA = ['RS256', 'RS384', 'RS512', 'PS256', 'PS384', 'PS512'];
const CURVES: Record<string, readonly string[]> = {
  'P-256': ['ES256'],
  'P-384': ['ES384'],
  'P-521': ['ES512'],
  Ed25519: ['EdDSA', 'Ed25519'],
};

/**
 * Reads `text` (PEM PKCS#8 or a JWK as JSON text). Returns undefined when it is not a private key; Node's
 * error is not returned, since it may quote the key material.
 */
export function readSigningKey(text: string): SigningKeyInfo | undefined {
  let jwk: JsonWebKey;
  try {
    const trimmed = text.trim();
    const key = trimmed.startsWith('{')
      ? createPrivateKey({ key: JSON.parse(trimmed) as JsonWebKey, format: 'jwk' })
      : createPrivateKey(trimmed);
    jwk = key.export({ format: 'jwk' });
  } catch {
    return undefined;
  }
  if (jwk.kty === 'RSA') return { jwk, keyType: 'RSA', algorithms: RSA };
  const curve = jwk.crv ?? '';
  const keyType = jwk.kty === 'EC' ? `EC ${curve}` : curve || (jwk.kty ?? 'unknown');
  return { jwk, keyType, algorithms: CURVES[curve] ?? [] };
}

/**
 * The algorithm to sign with: `algorithm` when it fits the key, else the key's default.
 * @throws MCPAuthConfigError (`algorithm_mismatch`) naming `auth.algorithm`, the key type and the algorithms
 *   that fit, when `algorithm` cannot sign with the key; MCPConfigError (`auth.algorithm`) when none is given
 *   and the key has no default (it cannot sign).
 */
export function signingAlgorithm(
  key: SigningKeyInfo,
  algorithm: string | undefined,
  where: { file?: string | undefined; entry?: string | undefined },
): string {
  const fallback = key.algorithms[0];
  if (algorithm === undefined) {
    if (fallback !== undefined) return fallback;
    const prefix =
      (where.file === undefined ? '' : `config ${where.file}: `) +
      (where.entry === undefined ? '' : `server "${where.entry}": `);
    throw new MCPConfigError(
      `${prefix}"auth.algorithm" is required: no JWS algorithm signs with this key (${key.keyType})`,
      { ...where, field: 'auth.algorithm' },
    );
  }
  if (key.algorithms.includes(algorithm)) return algorithm;
  throw new MCPAuthConfigError({
    problem: 'algorithm_mismatch',
    ...where,
    fields: ['auth.algorithm'],
    algorithm,
    keyType: key.keyType,
    algorithms: key.algorithms,
  });
}
