/**
 * Who is calling the gateway, as the access policy (access-policy.ts), the rate limits and the audit line
 * see it: how the caller was recognised (`static`: the configured bearer token; `jwt`: a token checked as a
 * JWT of the configured OpenID issuer; `oauth`: a token the library user's own verifier accepted; `stdio`:
 * whoever started the gateway on stdio, which carries no token), an id, its scopes and its token's claims.
 */
import type { AuthInfo } from '@modelcontextprotocol/server';

/** A caller of the gateway; see the file header. */
export interface MCPGatewayCaller {
  auth: 'static' | 'jwt' | 'oauth' | 'stdio';
  /** `static-token`, `stdio`, a JWT's `sub` (else its `client_id`), or an OAuth verifier's `clientId`. */
  id: string;
  /** The token's scopes (a JWT's `scope`, space-separated, or `scp`). */
  scopes: readonly string[];
  /** The JWT's claims (`{}` for the other callers). */
  claims: Readonly<Record<string, unknown>>;
}

/** The caller on a stdio connection. */
export const STDIO_CALLER: MCPGatewayCaller = Object.freeze({
  auth: 'stdio',
  id: 'stdio',
  scopes: [],
  claims: {},
});

/** The caller presenting the static bearer token. */
export const STATIC_TOKEN_CALLER: MCPGatewayCaller = Object.freeze({
  auth: 'static',
  id: 'static-token',
  scopes: [],
  claims: {},
});

/** Where the access check leaves the caller in the `AuthInfo` it hands to the MCP SDK's handler. */
const CALLER_KEY = 'agentwireGatewayCaller';

/** `info` carrying `caller`. */
export function withCaller(info: AuthInfo, caller: MCPGatewayCaller): AuthInfo {
  return { ...info, extra: { ...info.extra, [CALLER_KEY]: caller } };
}

/** The caller of a request: the one the access check recognised, else (no `AuthInfo`: stdio) {@link STDIO_CALLER}. */
export function callerOf(info: AuthInfo | undefined): MCPGatewayCaller {
  if (info === undefined) return STDIO_CALLER;
  const caller = info.extra?.[CALLER_KEY] as MCPGatewayCaller | undefined;
  return caller ?? { auth: 'oauth', id: info.clientId, scopes: info.scopes, claims: {} };
}
