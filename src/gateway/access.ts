/**
 * Who may call the gateway's HTTP endpoint. In order: the Host header must name an allowed host and an
 * Origin header, when sent, an allowed origin (DNS-rebinding protection; MCP spec 2026-07-28, "Transports >
 * Streamable HTTP > Security Warning": servers MUST validate Origin); then the request must carry a valid
 * bearer token (MCP spec 2026-07-28, "Authorization"): the one configured token, or any token an OAuth
 * verifier accepts, through the MCP SDK's bearer-auth middleware. A refusal is the SDK's answer: 403 for a
 * host or origin, 401 with a `WWW-Authenticate` challenge for a missing or wrong token.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import {
  type AuthInfo,
  hostHeaderValidationResponse,
  localhostAllowedHostnames,
  OAuthError,
  OAuthErrorCode,
  type OAuthTokenVerifier,
  originValidationResponse,
  requireBearerAuth,
} from '@modelcontextprotocol/server';

/** Options of the HTTP endpoint's access check. */
export interface MCPGatewayAccessOptions {
  /**
   * The bearer token clients must send (`Authorization: Bearer <token>`); compared in constant time, never
   * logged. Exactly one of `bearerToken` and `verifier` is required: the endpoint never serves without one.
   */
  bearerToken?: string;
  /** Validates OAuth access tokens as a resource server (MCP SDK `OAuthTokenVerifier`). */
  verifier?: OAuthTokenVerifier;
  /** Scopes every token must have (with `verifier`); a token without them gets 403 `insufficient_scope`. */
  requiredScopes?: string[];
  /** Protected Resource Metadata URL announced in 401 challenges (RFC 9728), with `verifier`. */
  resourceMetadataUrl?: string;
  /** Host names accepted in the Host header (and Origin), besides `localhost`, `127.0.0.1` and `[::1]`. */
  allowedHosts?: string[];
}

/** How long a static token's `AuthInfo` says it is valid, in seconds from now (the SDK requires an expiry). */
const STATIC_TOKEN_LIFETIME_S = 3600;

/** The access check: resolves to the caller's `AuthInfo`, or to the `Response` that refuses the request. */
export type MCPGatewayAccessCheck = (request: Request) => Promise<AuthInfo | Response>;

/**
 * Builds the access check.
 * @throws TypeError when neither or both of `bearerToken` and `verifier` are given.
 */
export function createAccessCheck(options: MCPGatewayAccessOptions): MCPGatewayAccessCheck {
  if ((options.bearerToken === undefined) === (options.verifier === undefined))
    throw new TypeError('MCPGateway: give exactly one of bearerToken and verifier');
  const hosts = [...localhostAllowedHostnames(), ...(options.allowedHosts ?? [])];
  const verifier = options.verifier ?? staticTokenVerifier(options.bearerToken as string);
  const gate = requireBearerAuth({
    verifier,
    ...(options.requiredScopes && { requiredScopes: options.requiredScopes }),
    ...(options.resourceMetadataUrl && { resourceMetadataUrl: options.resourceMetadataUrl }),
  });
  return async (request) => {
    const refused = hostHeaderValidationResponse(request, hosts) ?? originValidationResponse(request, hosts);
    if (refused) return refused;
    return gate(request);
  };
}

/** A verifier accepting exactly `token`: digests compared in constant time, so length leaks nothing either. */
function staticTokenVerifier(token: string): OAuthTokenVerifier {
  const expected = digest(token);
  return {
    verifyAccessToken: async (presented) => {
      if (!timingSafeEqual(digest(presented), expected))
        throw new OAuthError(OAuthErrorCode.InvalidToken, 'Invalid bearer token');
      return {
        token: presented,
        clientId: 'gateway-client',
        scopes: [],
        expiresAt: Math.floor(Date.now() / 1000) + STATIC_TOKEN_LIFETIME_S,
      };
    },
  };
}

function digest(text: string): Buffer {
  return createHash('sha256').update(text).digest();
}
