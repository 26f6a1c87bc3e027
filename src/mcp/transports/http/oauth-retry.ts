/**
 * When an HTTP request is sent again after OAuth (MCP spec 2025-11-25, "Authorization"): after a 401 the
 * token is refreshed or obtained (auth.ts) and the request retried once; after `403 insufficient_scope` the
 * wider scope is authorized and the request retried, at most `maxStepUpRetries` times ("Authorization > Scope
 * Challenge Handling"). Any other answer, or one more of them, is final.
 */
import type { HttpAuth } from './auth.js';

/** How one request has re-authorized so far. */
export interface AuthRetries {
  /** Whether a 401 was already answered by authorizing. */
  readonly unauthorized: boolean;
  /** How many `403 insufficient_scope` step-ups were made. */
  readonly stepUps: number;
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
  if (response.status === 401 && !retries.unauthorized) {
    await auth.onUnauthorized(response);
    return { unauthorized: true, stepUps: retries.stepUps };
  }
  if (
    response.status === 403 &&
    retries.stepUps < auth.maxStepUpRetries &&
    (await auth.onForbidden(response))
  ) {
    return { unauthorized: retries.unauthorized, stepUps: retries.stepUps + 1 };
  }
  return undefined;
}
