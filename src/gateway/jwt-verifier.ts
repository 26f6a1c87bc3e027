/**
 * Bearer tokens checked as JWTs of an OpenID issuer (MCP spec 2025-11-25, "Authorization > Access Token
 * Usage": the resource server MUST validate the token, and that it was issued for it as the audience), with
 * `jose`: the signature against the issuer's JWKS (its `jwks_uri` from OpenID Connect Discovery unless
 * given; fetched on first use, cached, fetched again for an unknown key id, no more than once every 30 s),
 * then `iss`, `aud`, `exp` (required) and `nbf`, within a clock tolerance. A refusal is an OAuth
 * `invalid_token` error, which the MCP SDK's bearer check answers `401` with a `WWW-Authenticate` challenge;
 * an issuer that cannot be reached is a `server_error` (`500`): the token was not judged.
 */
import { OAuthError, OAuthErrorCode, type OAuthTokenVerifier } from '@modelcontextprotocol/server';
import { createRemoteJWKSet, errors, type JWTPayload, jwtVerify } from 'jose';
import { type MCPGatewayCaller, withCaller } from './caller.js';

/** How the gateway checks JWT access tokens. */
export interface MCPGatewayJwtOptions {
  /** The issuer: the tokens' `iss`, exactly, and where its discovery document is (`/.well-known/openid-configuration`). */
  issuer: string;
  /** The audience the tokens must name in `aud` (one of them): the gateway's own identifier, usually its URL. */
  audience: string;
  /** The JWKS URL. Default: `jwks_uri` of the issuer's discovery document. */
  jwksUri?: string;
  /** Leeway on `exp` and `nbf`, in seconds. Default 30. */
  clockToleranceSeconds?: number;
  /** Signature algorithms accepted. Default: the asymmetric ones (RS*, PS*, ES*, EdDSA). */
  algorithms?: string[];
}

const ASYMMETRIC = ['RS256', 'RS384', 'RS512', 'PS256', 'PS384', 'PS512', 'ES256', 'ES384', 'ES512', 'EdDSA'];

/** A verifier of JWT access tokens for the MCP SDK's bearer check; see the file header. */
export function jwtTokenVerifier(options: MCPGatewayJwtOptions): OAuthTokenVerifier {
  const tolerance = options.clockToleranceSeconds ?? 30;
  let keys: Promise<ReturnType<typeof createRemoteJWKSet>> | undefined;
  const jwks = () => {
    keys ??= jwksUrl(options).then((url) => createRemoteJWKSet(url));
    // A discovery that failed is tried again with the next token.
    keys.catch(() => {
      keys = undefined;
    });
    return keys;
  };
  return {
    verifyAccessToken: async (token) => {
      let payload: JWTPayload;
      try {
        ({ payload } = await jwtVerify(token, await jwks(), {
          issuer: options.issuer,
          audience: options.audience,
          clockTolerance: tolerance,
          algorithms: options.algorithms ?? ASYMMETRIC,
          requiredClaims: ['exp'],
        }));
      } catch (error) {
        throw refusal(error);
      }
      const caller = callerOfClaims(payload);
      return withCaller(
        {
          token,
          clientId: stringClaim(payload.client_id) ?? stringClaim(payload.azp) ?? caller.id,
          scopes: [...caller.scopes],
          // The SDK's own expiry check has no tolerance: the leeway is added here.
          expiresAt: (payload.exp as number) + tolerance,
        },
        caller,
      );
    },
  };
}

/** The caller a verified token's claims name. */
function callerOfClaims(payload: JWTPayload): MCPGatewayCaller {
  const scope = payload.scope;
  const scopes =
    typeof scope === 'string'
      ? scope.split(' ').filter((one) => one !== '')
      : Array.isArray(payload.scp)
        ? payload.scp.filter((one): one is string => typeof one === 'string')
        : [];
  const id = stringClaim(payload.sub) ?? stringClaim(payload.client_id) ?? '';
  return { auth: 'jwt', id, scopes, claims: payload };
}

function stringClaim(value: unknown): string | undefined {
  return typeof value === 'string' && value !== '' ? value : undefined;
}

/** The JWKS URL: given, or the discovery document's `jwks_uri` (OpenID Connect Discovery 1.0, §4). */
async function jwksUrl(options: MCPGatewayJwtOptions): Promise<URL> {
  if (options.jwksUri !== undefined) return new URL(options.jwksUri);
  const discovery = `${options.issuer.replace(/\/$/, '')}/.well-known/openid-configuration`;
  const response = await fetch(discovery, { signal: AbortSignal.timeout(5_000) });
  if (!response.ok) throw new Error(`the issuer's discovery document answered HTTP ${response.status}`);
  const metadata = (await response.json()) as { issuer?: unknown; jwks_uri?: unknown };
  // §4.3: the issuer in the document MUST be the one it was fetched for.
  if (metadata.issuer !== options.issuer || typeof metadata.jwks_uri !== 'string')
    throw new Error("the issuer's discovery document names another issuer, or no jwks_uri");
  return new URL(metadata.jwks_uri);
}

/** The OAuth error for a token `jose` refused (by its class and fields), or for an issuer out of reach. */
function refusal(error: unknown): OAuthError {
  if (error instanceof errors.JWTExpired) return invalid('the token has expired');
  if (error instanceof errors.JWTClaimValidationFailed)
    return invalid(
      error.claim === 'iss'
        ? 'the token is of another issuer'
        : error.claim === 'aud'
          ? 'the token is for another audience'
          : `the token's "${error.claim}" claim is not valid`,
    );
  if (error instanceof errors.JWKSTimeout || !(error instanceof errors.JOSEError))
    return new OAuthError(OAuthErrorCode.ServerError, "the token issuer's keys cannot be fetched");
  // A signature that does not verify, a key id the issuer does not have, a token that is no JWT.
  return invalid('the token is not a valid JWT of the issuer');
}

function invalid(description: string): OAuthError {
  return new OAuthError(OAuthErrorCode.InvalidToken, description);
}
