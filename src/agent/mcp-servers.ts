/**
 * MCP servers attached straight to an agent (`addMcpServer`, `withMcpServerStdio`, `withMcpServerHttp`),
 * beside tools handed over as a list (`tools: mcp.getTools()`). The agent reads the client's tool list at
 * every turn, so a `toolsChanged` (MCP spec 2025-11-25, "Tools > List Changed Notification") reaches the
 * model on its next turn.
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
   * given (characters outside `[A-Za-z0-9_-]` become `_` in both cases, as in `MCPServers.getTools({ prefix:
   * true })`). Tools that already carry their server prefix (`MCPPrefixedTool`) keep their names. Default:
   * no fixed prefix (the agent's `toolNamePrefix` policy decides).
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
