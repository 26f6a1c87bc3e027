/**
 * Following an HTTP server's redirects without handing the caller's credentials to another origin.
 *
 * `fetch` follows redirects by the Fetch standard (section 4.4, "HTTP-redirect fetch"), which drops only
 * `Authorization` on a cross-origin hop: a custom credential header (`X-Api-Key`, a `--header` of the CLI)
 * would reach whatever origin the server names. So requests are sent with `redirect: 'manual'` and each
 * hop is followed here, by the same rules (at most 20 hops, `303` and a `301`/`302` after a POST become a
 * GET without body), except that a hop to another origin (another scheme, host or port) keeps only the
 * protocol's own headers ({@link PROTOCOL_HEADERS}): every caller header, `Authorization` (static or OAuth)
 * and `Mcp-Session-Id` stay with the origin they were meant for.
 */
import type { FetchLike } from '@modelcontextprotocol/client';

/** Most hops followed for one request, as `fetch` (Fetch standard, "HTTP-redirect fetch" step 5). */
export const MAX_REDIRECTS = 20;

const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);

/**
 * Headers that describe the message, not who sends it (MCP spec 2026-07-28, "Transports > Streamable
 * HTTP"): kept on a hop to another origin. Names lower-case.
 */
const PROTOCOL_HEADERS = new Set([
  'accept',
  'content-type',
  'mcp-protocol-version',
  'mcp-method',
  'mcp-name',
]);

/** Headers of a request body, dropped when a redirect turns the request into a GET (Fetch standard). */
const BODY_HEADERS = ['content-type', 'content-encoding', 'content-language', 'content-location'];

/** A redirect that cannot be followed: too many hops, or to a URL that is not http(s). */
export class RedirectError extends Error {
  override name = 'RedirectError';
  /** Why: `too_many` (over {@link MAX_REDIRECTS} hops) or `not_http` (a `Location` of another scheme). */
  readonly problem: 'too_many' | 'not_http';

  constructor(problem: 'too_many' | 'not_http') {
    super(
      problem === 'too_many'
        ? `redirect count exceeded: the server redirected more than ${MAX_REDIRECTS} times`
        : 'the server redirected to a URL that is not http: or https:',
    );
    this.problem = problem;
  }
}

function isProtocolHeader(name: string): boolean {
  return PROTOCOL_HEADERS.has(name) || name.startsWith('mcp-param-');
}

/**
 * Sends `init` to `url` through `fetchFn`, following redirects as the module comment says. Resolves with
 * the final answer: a non-redirect, a redirect without a usable `Location` (returned as it came), or what a
 * `fetch` that cannot expose redirects answers for `redirect: 'manual'` (an `opaqueredirect` response).
 * @throws RedirectError for too many hops or a hop to another scheme; whatever `fetchFn` throws.
 */
export async function fetchFollowingRedirects(
  fetchFn: FetchLike,
  url: string | URL,
  init: RequestInit,
): Promise<Response> {
  const { method: firstMethod = 'GET', headers: firstHeaders, body: firstBody, ...rest } = init;
  let target = new URL(url);
  let method = firstMethod;
  let body = firstBody;
  let headers = new Headers(firstHeaders);
  for (let hop = 0; ; hop++) {
    const hopInit = { ...rest, method, headers, redirect: 'manual' as const };
    const response = await fetchFn(target.href, body == null ? hopInit : { ...hopInit, body });
    const location = REDIRECT_STATUSES.has(response.status) ? response.headers.get('location') : null;
    if (location === null) return response;
    let next: URL;
    try {
      next = new URL(location, target);
    } catch {
      return response; // An unusable Location: the 3xx is the answer (an HTTP error for the transport).
    }
    await response.body?.cancel().catch(() => {});
    if (next.protocol !== 'http:' && next.protocol !== 'https:') throw new RedirectError('not_http');
    if (hop >= MAX_REDIRECTS) throw new RedirectError('too_many');
    if (
      (response.status === 303 && method !== 'GET' && method !== 'HEAD') ||
      ((response.status === 301 || response.status === 302) && method === 'POST')
    ) {
      method = 'GET';
      body = undefined;
      for (const name of BODY_HEADERS) headers.delete(name);
    }
    if (next.origin !== target.origin) {
      const kept = new Headers();
      for (const [name, value] of headers) if (isProtocolHeader(name)) kept.set(name, value);
      headers = kept;
    }
    target = next;
  }
}
