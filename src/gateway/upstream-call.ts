/**
 * One request to an upstream as the gateway sends it: refused at once while the upstream is down
 * (`unavailable`, upstream-health.ts), never held for the call timeout; and, when the upstream answers that
 * it forgot the gateway's session (MCP spec 2025-11-25, "Transports > Session Management": the client MUST
 * start a new session), the session renewed at once and the request sent once more on the new one, when
 * sending it twice cannot do twice what it does: a read, or a tool annotated `readOnlyHint` or
 * `idempotentHint`. Any other request fails with the upstream's `session_expired` (the renewal goes on).
 */
import type { ProtocolError } from '@modelcontextprotocol/server';
import { MCPCallError, type MCPClient } from '../mcp/for-gateway.js';
import type { UpstreamHealth } from './upstream-health.js';

/**
 * Sends `send()` to `client` through `health` (see the file header); `mayRepeat` says whether it may be
 * sent again after a session renewal.
 * @throws ProtocolError `unavailable` while the upstream is down (also when a renewal failed); the
 *   upstream's `MCPCallError` otherwise.
 */
export async function callUpstream<T>(
  health: UpstreamHealth,
  client: MCPClient,
  mayRepeat: boolean,
  send: () => Promise<T>,
): Promise<T> {
  const down = health.unavailable(client);
  if (down) throw down;
  try {
    return await send();
  } catch (error) {
    if (!(error instanceof MCPCallError)) throw error;
    // Down between the check and the request: refused as any request to it now is.
    if (error.kind === 'not_connected') throw health.unavailable(client) ?? error;
    if (error.kind !== 'session_expired') throw error;
    const renewed = health.renew(client, error);
    if (!mayRepeat) throw error;
    if (!(await renewed)) throw (health.unavailable(client) as ProtocolError | undefined) ?? error;
    return send();
  }
}
