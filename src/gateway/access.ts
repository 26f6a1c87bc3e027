/**
 * Who may call the gateway's HTTP endpoint. In order: the Host header must name an allowed host and an
 * Origin header, when sent, an allowed origin (DNS-rebinding protection; MCP spec 2026-07-28, "Transports >
 * Streamable HTTP > Security Warning": servers MUST validate Origin); then the request must carry a valid
 * bearer token (MCP spec 2026-07-28, "Authorization"): the one configured static token, a JWT of the
 * configured OpenID issuer (jwt-verifier.ts), or any token an OAuth verifier accepts, through the MCP SDK's
 * bearer-auth middleware. A refusal is the SDK's answer: 403 for a host or origin, 401 with a
 * `WWW-Authenticate` challenge for a missing or wrong token; with JWTs the challenge names the gateway's
 * protected resource metadata (RFC 9728), which it serves (MCP spec 2025-11-25, "Authorization >
 * Authorization Server Location": servers MUST, and MUST use `WWW-Authenticate` on 401 to point to it).
 * The caller recognised is left in the `AuthInfo` (caller.ts).
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
import { STATIC_TOKEN_CALLER, withCaller } from './caller.js';
import { jwtTokenVerifier, type MCPGatewayJwtOptions } from './jwt-verifier.js';

/** Options of the HTTP endpoint's access check. */
export interface MCPGatewayAccessOptions {
  /**
   * A bearer token clients may send (`Authorization: Bearer <token>`); compared in constant time, never
   * logged. At least one of `bearerToken` and `jwt`, or a `verifier` alone, is required: the endpoint never
   * serves without one.
   */
  bearerToken?: string;
  /**
   * Accept JWT access tokens of an OpenID issuer (jwt-verifier.ts). With `bearerToken` too, a token equal to
   * it is the static caller and any other is checked as a JWT.
   */
  jwt?: MCPGatewayJwtOptions & {
    /**
     * The gateway's public MCP URL, the `resource` of its protected resource metadata (RFC 9728), served at
     * `/.well-known/oauth-protected-resource<path>` and named in every 401 challenge. Default: `audience`,
     * when it is an http(s) URL.
     */
    resource?: string;
  };
  /** Validates OAuth access tokens as a resource server (MCP SDK `OAuthTokenVerifier`); alone. */
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
 * @throws TypeError when none of `bearerToken`, `jwt` and `verifier` is given, `verifier` with another, or
 *   `jwt` without a `resource` (an `audience` that is not an http(s) URL).
 */
export function createAccessCheck(options: MCPGatewayAccessOptions): MCPGatewayAccessCheck {
  const own = options.bearerToken !== undefined || options.jwt !== undefined;
  if (own === (options.verifier !== undefined))
    throw new TypeError('MCPGateway: give bearerToken and/or jwt, or a verifier alone');
  const hosts = [...localhostAllowedHostnames(), ...(options.allowedHosts ?? [])];
  const verifier = options.verifier ?? ownVerifier(options.bearerToken, options.jwt);
  const resourceMetadataUrl = options.resourceMetadataUrl ?? jwtResourceMetadata(options.jwt)?.url;
  const gate = requireBearerAuth({
    verifier,
    ...(options.requiredScopes && { requiredScopes: options.requiredScopes }),
    ...(resourceMetadataUrl && { resourceMetadataUrl }),
  });
  return async (request) => {
    const refused = hostHeaderValidationResponse(request, hosts) ?? originValidationResponse(request, hosts);
    if (refused) return refused;
    return gate(request);
  };
}

/**
 * The public documents the HTTP endpoint serves without a token: with `jwt`, the protected resource
 * metadata (RFC 9728 §3: `resource`, `authorization_servers`, `bearer_methods_supported`) at its well-known
 * path. Returns the answer for `path`, or undefined.
 */
export function publicDocuments(options: MCPGatewayAccessOptions): (path: string) => Response | undefined {
  const metadata = jwtResourceMetadata(options.jwt);
  return (path) =>
    metadata && path === metadata.path
      ? Response.json({
          resource: metadata.resource,
          authorization_servers: [options.jwt?.issuer],
          bearer_methods_supported: ['header'],
        })
      : undefined;
}

/** The protected resource metadata's resource, URL and path, with `jwt`. @throws TypeError without a resource URL. */
function jwtResourceMetadata(jwt: MCPGatewayAccessOptions['jwt']) {
  if (jwt === undefined) return undefined;
  const resource = jwt.resource ?? jwt.audience;
  let url: URL;
  try {
    url = new URL(resource);
  } catch {
    url = new URL('invalid:');
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:')
    throw new TypeError(
      "MCPGateway: jwt.resource (the gateway's public MCP URL) is required when jwt.audience is not an http(s) URL",
    );
  // RFC 9728 §3.1: the well-known segment goes between the host and the resource's path.
  const path = `/.well-known/oauth-protected-resource${url.pathname === '/' ? '' : url.pathname}`;
  return { resource: url.href, path, url: new URL(path, url).href };
}

/** The static token, the JWT check, or the static token first and a JWT check of any other token. */
function ownVerifier(token: string | undefined, jwt: MCPGatewayAccessOptions['jwt']): OAuthTokenVerifier {
  const jwts = jwt && jwtTokenVerifier(jwt);
  const expected = token === undefined ? undefined : digest(token);
  return {
    verifyAccessToken: async (presented) => {
      // Digests compared in constant time, so length leaks nothing either.
      if (expected && timingSafeEqual(digest(presented), expected))
        return withCaller(
          {
            token: presented,
            clientId: 'gateway-client',
            scopes: [],
            expiresAt: Math.floor(Date.now() / 1000) + STATIC_TOKEN_LIFETIME_S,
          },
          STATIC_TOKEN_CALLER,
        );
      if (jwts) return jwts.verifyAccessToken(presented);
      throw new OAuthError(OAuthErrorCode.InvalidToken, 'Invalid bearer token');
    },
  };
}

function digest(text: string): Buffer {
  return createHash('sha256').update(text).digest();
}
