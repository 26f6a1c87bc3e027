/** The MCP client layer: everything a caller needs to reach MCP servers' tools. */
export {
  DEFAULT_CALL_TIMEOUT_MS,
  type MCPCallOptionsContext,
  type MCPCallOptionsSource,
  type MCPToolCallOptions,
} from './call-options.js';
export {
  MCPClient,
  type MCPClientOptions,
  type MCPClientState,
  type MCPFormatResultContext,
} from './client.js';
export {
  base64DecodedSize,
  formatBytes,
  renderCallToolResult,
  renderCallToolResultText,
  renderContentBlock,
} from './content.js';
export {
  MCPCallError,
  type MCPCallErrorDetails,
  type MCPCallErrorKind,
  MCPConfigError,
  MCPError,
  MCPToolError,
} from './errors.js';
export { MCPClientEvent, type MCPClientEvents, type MCPClientLogEntry } from './events.js';
export { MCPTool } from './mcp-tool.js';
export type { MCPReconnectOptions } from './reconnect.js';
export type { MCPHttpServer, MCPStdioServer } from './transport-plan.js';
export type * from './types.js';
