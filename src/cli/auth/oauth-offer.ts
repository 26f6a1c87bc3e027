/**
 * Whether an HTTP server that answered 401 offers an OAuth login at all (MCP spec 2025-11-25,
 * "Authorization > Authorization Server Discovery": a protected MCP server MUST publish Protected Resource
 * Metadata, RFC 9728, named by its 401's `WWW-Authenticate: … resource_metadata="…"` or at a well-known
 * URI). A gateway that takes a static bearer token publishes none, and `agentwire auth login` cannot help
 * there: the failure should say to give the token instead. Asked without credentials, only after a 401,
 * each request bounded by {@link OAUTH_CHECK_TIMEOUT_MS}.
 */
import { extractWWWAuthenticateParams } from '@modelcontextprotocol/client';

/** Bound on each request of the check, in ms. */
export const OAUTH_CHECK_TIMEOUT_MS = 3000;

/**
 * `true` when the server at `url` names or publishes Protected Resource Metadata, `false` when it does
 * neither (the unauthenticated request's 401 names none, and both well-known URIs answer 4xx), `undefined`
 * when that cannot be told (no answer, an unexpected status). Never throws.
 */
export async function offersOAuth(url: URL): Promise<boolean | undefined> {
  const signal = () => AbortSignal.timeout(OAUTH_CHECK_TIMEOUT_MS);
  try {
    const challenge = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 'agentwire-oauth-check', method: 'ping' }),
      signal: signal(),
    });
    await challenge.body?.cancel();
    if (challenge.status !== 401) return undefined;
    if (extractWWWAuthenticateParams(challenge).resourceMetadataUrl !== undefined) return true;
    // RFC 9728 §3.1: the path-aware URI first, then the root one.
    const path = url.pathname === '/' ? '' : url.pathname.replace(/\/$/, '');
    const wellKnown = [...new Set([path, ''])].map(
      (suffix) => new URL(`/.well-known/oauth-protected-resource${suffix}`, url.origin),
    );
    for (const candidate of wellKnown) {
      const response = await fetch(candidate, { signal: signal() });
      await response.body?.cancel();
      if (response.ok) return true;
      if (response.status < 400 || response.status >= 500) return undefined;
    }
    return false;
  } catch {
    return undefined;
  }
}
