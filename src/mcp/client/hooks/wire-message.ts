/**
 * The shape of one JSON-RPC message as the `onWire` hooks (and their shorthand `onWireMessage`) see it;
 * client/wire-tap.ts makes them from the session's wire trace.
 */
import type { JSONRPCMessage } from '@modelcontextprotocol/client';

/** One JSON-RPC message seen by `onWireMessage`. */
export interface MCPWireMessage {
  /** The client's name for the server. */
  server: string;
  /**
   * `send`: to the server; `receive`: from it; `fail`: a request of ours that the transport failed without a
   * response (over HTTP an answer with an error status, or one that held no JSON-RPC response; over stdio
   * the `server/discover` probe unanswered within its bound): `message` is that request, `failure` says what
   * came instead.
   */
  direction: 'send' | 'receive' | 'fail';
  /** The message as sent or received (MCP spec 2025-11-25, "Basic > Messages"); do not modify it. */
  message: JSONRPCMessage;
  /**
   * With `fail`: what came instead of a response, in a few words (`HTTP 500, error -32603`, `HTTP 404`,
   * `the server ended the response stream before the response`, `no answer within 5000 ms`).
   */
  failure?: string;
}
