/**
 * The one door from the gateway (src/gateway/) into the MCP client layer: everything the gateway uses of
 * `mcp/`, and nothing else of it, so that the client layer's rooms can be rearranged behind this file without
 * the gateway noticing. The architecture suite (test/architecture.test.ts) refuses any other import of `mcp/`
 * from the gateway.
 *
 * Beside the public face (index.ts) it offers a few internals the gateway needs as an intermediary: the
 * configuration text parser (its own `gateway` section), the task record readers and raw task pass-through
 * (tasks relayed as the upstream gave them), the tool-name prefix rule, and the request options of a raw
 * upstream request.
 */

export type { MCPClient, MCPConnectOptions } from './client/client.js';
export type { MCPCreateClientOptions } from './client/create-client.js';
export type { MCPReconnectOptions } from './client/reconnect.js';
export type { MCPServerConfig } from './config/load.js';
export { parseConfigText } from './config/text.js';
export { MCPCallError, MCPConfigError } from './protocol/errors.js';
export { isTerminalStatus, type MCPTask, readTask } from './protocol/tasks.js';
export type {
  CreateMessageParams,
  CreateMessageResult,
  ElicitParams,
  ElicitResult,
  MCPToolDefinition,
  Prompt,
  Resource,
  ResourceTemplate,
} from './protocol/types.js';
export { DEFAULT_PREFIX_SEPARATOR, serverPrefix } from './servers/prefix.js';
export { MCPServers } from './servers/servers.js';
export type { MCPToolCallOptions } from './session/call-options.js';
export type { MCPServerRequestHandlers } from './session/engine/server-requests.js';
export type { RequestOptions } from './session/request-options.js';
export type { MCPTaskPassThrough } from './session/tasks/tasks-passthrough.js';
