/**
 * `MCPClientOptions.onWireMessage`: every JSON-RPC message of a connection, as it is sent and as it is
 * received, and every request that failed without a response, for tracing (the CLI's `--verbose`). The
 * session's wire (session/wire.ts) taps once, and only when the option is given: without it no work is done.
 */
import type { WireTap } from '../session/wire/wire.js';
import type { MCPWireMessage } from './hooks/wire-message.js';

export type { MCPWireMessage } from './hooks/wire-message.js';

/** The session's wire trace (session/wire.ts) for `onWireMessage`, each event naming `server`. */
export function wireTap(server: string, listener: (message: MCPWireMessage) => void): WireTap {
  return (event) => listener({ server, ...event });
}
