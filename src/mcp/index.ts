/** The MCP client layer: everything a caller needs to reach MCP servers' tools. */

export {
  base64DecodedSize,
  formatBytes,
  renderCallToolResult,
  renderCallToolResultText,
  renderContentBlock,
} from './adapter/content.js';
export { MCPTool } from './adapter/mcp-tool.js';
export {
  DEFAULT_CONNECT_TIMEOUT_MS,
  MCPClient,
  type MCPClientOptions,
  type MCPClientState,
  type MCPFormatResultContext,
  type MCPRequestOptions,
} from './client/client.js';
export { createClient, type MCPCreateClientOptions } from './client/create-client.js';
export { MCPClientEvent, type MCPClientEvents, type MCPClientLogEntry } from './client/events.js';
export type { MCPReconnectOptions } from './client/reconnect.js';
export {
  getServerEntry,
  loadServerConfig,
  type MCPHttpServerEntry,
  type MCPInvalidServerEntry,
  type MCPLoadConfigOptions,
  type MCPServerConfig,
  type MCPServerEntry,
  type MCPServerEntryBase,
  type MCPStdioServerEntry,
  type MCPToolFilter,
  parseServerConfig,
} from './config/load.js';
export { type MCPHttpServer, type MCPStdioServer, parseServerUrl } from './config/server-spec.js';
export { toolFilter } from './config/tool-filter.js';
export {
  MCPCallError,
  type MCPCallErrorChanges,
  type MCPCallErrorDetails,
  type MCPCallErrorKind,
  MCPConfigError,
  type MCPConfigErrorDetails,
  MCPError,
  MCPServerUrlError,
  type MCPServerUrlProblem,
  MCPToolError,
} from './protocol/errors.js';
export type * from './protocol/types.js';
export {
  DEFAULT_PREFIX_SEPARATOR,
  MCPPrefixedTool,
  type MCPServerConnectResult,
  type MCPServerStatus,
  MCPServers,
  type MCPServersEvents,
  type MCPServersToolOptions,
} from './servers/servers.js';
export {
  DEFAULT_CALL_TIMEOUT_MS,
  type MCPCallOptionsContext,
  type MCPCallOptionsSource,
  type MCPToolCallOptions,
} from './session/call-options.js';
export type { MCPServerRequestHandlers, ServerRequestContext } from './session/server-requests.js';
export type { AuthorizationCallback } from './transports/http/auth.js';
