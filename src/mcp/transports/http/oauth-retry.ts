/**
 * When an HTTP request is sent again after OAuth (MCP spec 2025-11-25, "Authorization"): after a 401 the
 * token is refreshed or obtained (auth.ts) and the request retried once; after `403 insufficient_scope` the
 * wider scope is authorized and the request retried, at most `maxStepUpRetries` times ("Authorization > Scope
 * Challenge Handling"); after a DPoP `use_dpop_nonce` challenge (RFC 9449 §9) the request is signed again
 * with the server's nonce and retried once. Any other answer, or one more of them, is final.
 */
import type { HttpAuth } from './auth.js';
import { isNonceChallenge } from './dpop.js';

/** How one request has re-authorized so far. */
export interface AuthRetries {
  /** Whether a 401 was already answered by authorizing. */
  readonly unauthorized: boolean;
  /** How many `403 insufficient_scope` step-ups were made. */
  readonly stepUps: number;
  /** Whether a DPoP `use_dpop_nonce` challenge was already answered with the server's nonce. */
  readonly nonce?: boolean;
}

/** A request's first attempt: nothing re-authorized yet. */
export const FIRST_ATTEMPT: AuthRetries = { unauthorized: false, stepUps: 0 };

/**
 * Re-authorizes after a non-2xx `response` when it asks for it and `retries` allow. Resolves with the
 * retries of the next attempt, or `undefined` when `response` is final (its body left unread).
 * @throws UnauthorizedError (the SDK's) when the user must authorize in a browser; the SDK's OAuth errors
 *   when discovery or a token request fails (see {@link HttpAuth.onUnauthorized}).
 */
export async function reauthorize(
  auth: HttpAuth,
  response: Response,
  retries: AuthRetries,
): Promise<AuthRetries | undefined> {
  // The nonce was noted by the caller (HttpAuth.observe); the next proof carries it. Not a re-authorization.
  if (retries.nonce !== true && auth.signsProofs && isNonceChallenge(response)) {
    await response.body?.cancel().catch(() => {});
    return { ...retries, nonce: true };
  }
  if (response.status === 401 && !retries.unauthorized) {
    await auth.onUnauthorized(response);
    return { ...retries, unauthorized: true };
  }
  if (
    response.status === 403 &&
    retries.stepUps < auth.maxStepUpRetries &&
    (await auth.onForbidden(response))
  ) {
    return { ...retries, stepUps: retries.stepUps + 1 };
  }
  return undefined;
}

/**
 * After a non-2xx `response`: the retries of the next attempt when OAuth re-authorized ({@link reauthorize}),
 * or, without OAuth, when it is a first `401` and headers are asked per request (`asksHeaders`: they are
 * asked again, request-headers.ts); `undefined` when the answer is final (its body left unread).
 */
export async function retryAfter(
  auth: HttpAuth | undefined,
  asksHeaders: boolean,
  response: Response,
  retries: AuthRetries,
): Promise<AuthRetries | undefined> {
  if (auth !== undefined) return reauthorize(auth, response, retries);
  if (!asksHeaders || response.status !== 401 || retries.unauthorized) return undefined;
  await response.body?.cancel().catch(() => {});
  return { ...retries, unauthorized: true };
}
