import type { MCPClientLogEntry } from './events.js';

/**
 * The log entry for a response or progress that arrived after its request timed out or was cancelled.
 * Normal (MCP spec 2025-11-25, "Cancellation": the receiver may already be answering, and a server may keep
 * sending progress until it notices), so a debug entry, not an error.
 */
export function lateMessageLog(server: string): MCPClientLogEntry {
  return {
    level: 'debug',
    message: `MCP server "${server}": a response or progress arrived after its request ended`,
  };
}
