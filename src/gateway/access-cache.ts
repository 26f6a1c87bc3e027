/**
 * The access check's verdicts kept for a short while, per the request headers they depend on (`Host`,
 * `Origin`, `Authorization`): a client sends the same ones on every request, and the check (a web `Request`
 * built from Node's headers, the host and origin rules, the token verifier) costs more than a kept-alive
 * call's own work. Only grants are kept, for at most {@link ACCESS_CACHE_MS} and never past the token's
 * `expiresAt`; a refusal is always checked again. A token revoked at its issuer is thus honoured for up to
 * that long after.
 */
import type { IncomingHttpHeaders } from 'node:http';
import type { AuthInfo } from '@modelcontextprotocol/server';

/** Longest a grant is kept, in ms. */
export const ACCESS_CACHE_MS = 30_000;
// Distinct header sets kept at most; the whole cache is dropped beyond.
const MAX_ENTRIES = 1000;

/** Grants by the headers they were given for; see the file header. */
export class AccessCache {
  readonly #grants = new Map<string, { authInfo: AuthInfo; until: number }>();

  /** The grant kept for these headers, if still valid. */
  get(headers: IncomingHttpHeaders, now = Date.now()): AuthInfo | undefined {
    const key = keyOf(headers);
    const grant = this.#grants.get(key);
    if (!grant) return undefined;
    if (grant.until <= now) {
      this.#grants.delete(key);
      return undefined;
    }
    return grant.authInfo;
  }

  /** Keeps `authInfo`, granted for these headers. */
  set(headers: IncomingHttpHeaders, authInfo: AuthInfo, now = Date.now()): void {
    const expires =
      typeof authInfo.expiresAt === 'number' ? authInfo.expiresAt * 1000 : Number.POSITIVE_INFINITY;
    const until = Math.min(now + ACCESS_CACHE_MS, expires);
    if (until <= now) return;
    if (this.#grants.size >= MAX_ENTRIES) this.#grants.clear();
    this.#grants.set(keyOf(headers), { authInfo, until });
  }
}

function keyOf(headers: IncomingHttpHeaders): string {
  return `${headers.host ?? ''}\n${headers.origin ?? ''}\n${headers.authorization ?? ''}`;
}
