/**
 * A cheap structural check that a parsed value is a JSON-RPC 2.0 message, run on every message a server
 * sends (a stdout line; a Streamable HTTP body or SSE event, where it replaced the SDK's zod
 * `parseJSONRPCMessage`, a per-message cost). Deliberately not a schema validation: each message's content
 * is checked where it is used (wire-schemas.ts for results, the SDK for what it dispatches); we only keep
 * out what is plainly not a message (a log line that happens to be JSON).
 */
import type { JSONRPCMessage } from '@modelcontextprotocol/client';
import { isRecord } from '../../core/json.js';

/**
 * True for a request or notification (`method` is a string) or a response (`id` plus `result` or
 * `error`), each with `jsonrpc: "2.0"` (JSON-RPC 2.0, section 4 and 5). Batches (arrays) are not messages:
 * MCP removed JSON-RPC batching in protocol revision 2025-06-18.
 */
export function isJsonRpcMessage(value: unknown): value is JSONRPCMessage {
  if (!isRecord(value) || value.jsonrpc !== '2.0') return false;
  if (typeof value.method === 'string') return true;
  return 'id' in value && ('result' in value || 'error' in value);
}
