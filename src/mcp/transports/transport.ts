/**
 * transports/: how bytes reach a server (json/, stdio/, http/); they know no session and no client.
 *
 * The contract between agentwire's transports and `MCPClient`.
 *
 * Our transports implement the official SDK's `Transport` interface, so the SDK's protocol layer (`Client`)
 * drives them unchanged; they add what the SDK's interface has no room for: why the connection ended (exit
 * code, signal, stderr tail, HTTP status), so that a pending call can be failed with a useful error.
 */
import type { Transport } from '@modelcontextprotocol/client';
import type { MCPCallErrorDetails, MCPCallErrorKind } from '../protocol/errors.js';

/** Why a transport's connection ended, recorded before it calls `onclose`. */
export interface TransportCloseInfo extends MCPCallErrorDetails {
  /** `connection_closed` for an unexpected end; `not_connected` after a deliberate `close()`. */
  kind: MCPCallErrorKind;
  /** One line, e.g. `server process exited with code 1`. */
  message: string;
}

/** An SDK `Transport` that can say why it closed. */
export interface AgentwireTransport extends Transport {
  /** Set once the connection has ended (before `onclose` fires); `undefined` while open. */
  readonly closeInfo: TransportCloseInfo | undefined;
}
