/**
 * Whether a failed HTTP request is evidence that the server is gone, rather than that one exchange failed.
 * It is when no answer began (no response headers) because no connection could be made (refused, no
 * route, no such host, connect timeout) or the socket closed first (the server process died, or closed the
 * connection the request was sent on). A request cut after its answer began (headers came, the body broke
 * off) says nothing of the next one, which is its own exchange (MCP spec 2025-11-25, "Transports >
 * Streamable HTTP": every message is its own POST).
 */
import { MCPCallError } from '../../protocol/errors.js';

/** Error codes of a request that got no answer (Node's `net`/`dns`, undici's). */
const NO_ANSWER = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
  'UND_ERR_CONNECT_TIMEOUT',
  'UND_ERR_SOCKET',
]);

/**
 * True when a request whose answer never began failed for want of a connection: `failure` (what the request
 * fails with) is a `transport` error, we did not abort it (`signal`), and `error` or an error on its `cause`
 * chain (five deep) carries one of those codes.
 */
export function isUnreachable(signal: AbortSignal, failure: unknown, error: unknown): boolean {
  if (signal.aborted || !(failure instanceof MCPCallError) || failure.kind !== 'transport') return false;
  let current = error;
  for (let depth = 0; depth < 5 && current instanceof Error; depth++) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string' && NO_ANSWER.has(code)) return true;
    current = current.cause;
  }
  return false;
}
