/** The MCP client layer: everything a caller needs to reach MCP servers' tools. */

export type { AuthorizationCallback } from './auth.js';
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
  type MCPRequestOptions,
} from './client.js';
export {
  createClient,
  getServerEntry,
  loadServerConfig,
  type MCPCreateClientOptions,
  type MCPHttpServerEntry,
  type MCPInvalidServerEntry,
  type MCPLoadConfigOptions,
  type MCPServerConfig,
  type MCPServerEntry,
  type MCPServerEntryBase,
  type MCPStdioServerEntry,
  type MCPToolFilter,
  parseServerConfig,
} from './config.js';
export { toolFilter } from './config-filter.js';
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
  type MCPConfigErrorDetails,
  MCPError,
  MCPToolError,
} from './errors.js';
export { MCPClientEvent, type MCPClientEvents, type MCPClientLogEntry } from './events.js';
export { MCPTool } from './mcp-tool.js';
export type { MCPReconnectOptions } from './reconnect.js';
export type { MCPServerRequestHandlers, ServerRequestContext } from './server-requests.js';
export {
  DEFAULT_PREFIX_SEPARATOR,
  MCPPrefixedTool,
  type MCPServerConnectResult,
  type MCPServerStatus,
  MCPServers,
  type MCPServersEvents,
  type MCPServersToolOptions,
} from './servers.js';
export type { MCPHttpServer, MCPStdioServer } from './transport-plan.js';
export type * from './types.js';
