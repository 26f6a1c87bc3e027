/**
 * How a failed connect reads: both transports of a plan refused, or a token request refused for good (which
 * ends a reconnect: the next attempt would only be refused again).
 */
import { MCPOAuthGrantError } from '../auth/grant-error.js';
import { MCPCallError } from '../protocol/errors.js';

/**
 * Streamable HTTP was refused and the HTTP+SSE fallback failed too: most often a wrong URL. The error keeps
 * the first refusal's kind and status (what the server said to the current transport) and names both.
 */
export function bothFailed(refused: MCPCallError, fallback: unknown): MCPCallError {
  const why =
    fallback instanceof MCPCallError
      ? fallback.reason
      : fallback instanceof Error
        ? fallback.message
        : String(fallback);
  return refused.with({
    reason: `${refused.reason}; the HTTP+SSE fallback failed too: ${why}`,
    cause: refused,
  });
}

/** Whether `error`'s cause chain holds an {@link MCPOAuthGrantError} (a token request that was refused). */
export function grantRefused(error: unknown): boolean {
  const seen = new Set<unknown>();
  for (let at = error; at instanceof Error && !seen.has(at); at = at.cause) {
    if (at instanceof MCPOAuthGrantError) return true;
    seen.add(at);
  }
  return false;
}
