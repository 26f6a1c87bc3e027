/**
 * MCP servers attached straight to an agent (`addMcpServer`, `withMcpServerStdio`, `withMcpServerHttp`),
 * as opposed to a snapshot of their tools (`tools: client.getTools()`). The agent reads the client's tool list at every turn, so a
 * `toolsChanged` (MCP `notifications/tools/list_changed`) reaches the model on its next turn.
 */
import type { Tool } from '../core/tool.js';
import type { MCPClient } from '../mcp/index.js';
import type { ToolGroup } from './tool-registry.js';

/** What the agent uses of an MCP client (an `MCPClient` has it all). */
export type McpServerHandle = Pick<MCPClient, 'name' | 'connect' | 'disconnect' | 'getTools' | 'isConnected'>;

/** Options of `agent.addMcpServer()`. */
export interface McpServerOptions {
  /**
   * Prefix the server's tool names (`prefix__tool`): `true` uses the server's name, a string is used as
   * given. Default: no fixed prefix (the agent's `toolNamePrefix` policy decides).
   */
  prefix?: boolean | string;
}

/** The registry group for a client's live tool list. */
export function mcpToolGroup(client: McpServerHandle, options: McpServerOptions): ToolGroup {
  const prefix =
    options.prefix === true ? client.name : options.prefix === false ? undefined : options.prefix;
  return {
    source: client.name,
    ...(prefix === undefined ? {} : { prefix }),
    list: (): readonly Tool[] => client.getTools(),
  };
}
