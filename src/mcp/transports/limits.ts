/**
 * The one bound on a message from a server, shared by every transport: `maxMessageBytes`. A server (or
 * anything between it and us) can send a body, a line or an SSE event without end; without a bound it is
 * held whole until memory runs out. MCP puts no size on messages (MCP spec 2025-11-25, "Transports"), so the
 * bound is the client's, and reaching it fails the one exchange it belongs to at once.
 */
import { MCPCallError } from '../protocol/errors.js';

/** Default largest message accepted from a server: 256 MiB (V8 cannot hold a string much past 512 MiB). */
export const DEFAULT_MAX_MESSAGE_BYTES = 256 * 1024 * 1024;

/**
 * The error of a message that reached `limitBytes` (kind `protocol`, as stdio reports it): the exchange it
 * belonged to fails, its bytes are dropped unread.
 * @param what - What was over the limit, e.g. `the JSON answer`, `an SSE event`.
 */
export function oversizedMessageError(
  context: { server: string | undefined; method: string | undefined },
  what: string,
  limitBytes: number,
): MCPCallError {
  return new MCPCallError('protocol', `${what} is over maxMessageBytes (${limitBytes} bytes)`, {
    server: context.server,
    method: context.method ?? 'request',
  });
}
