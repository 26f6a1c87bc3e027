/**
 * MCP servers attached straight to an agent (`addMcpServer`, `withMcpServerStdio`, `withMcpServerHttp`),
 * beside tools handed over as a list (`tools: mcp.getTools()`). The agent reads the client's tool list at
 * every turn, after waiting for any refresh the server asked for with `notifications/tools/list_changed`
 * (MCP spec 2025-11-25, "Tools > List Changed Notification"), so a tool the server announces before
 * answering a call is offered on the very next turn. The server's `instructions` (MCP spec 2025-11-25,
 * "Lifecycle > Initialization") go into the system prompt.
 */
import type { Tool } from '../core/tool.js';
import type { MCPClient, MCPServers } from '../mcp/index.js';
import type { ToolGroup } from './tool-registry.js';

/**
 * What the agent uses of an MCP client (an `MCPClient` has it all). `whenToolsSettled` and
 * `getInstructions` are optional, for handles that wrap something else.
 */
export type McpServerHandle = Pick<
  MCPClient,
  'name' | 'connect' | 'disconnect' | 'getTools' | 'isConnected'
> &
  Partial<Pick<MCPClient, 'whenToolsSettled' | 'getInstructions' | 'listSkills' | 'readSkillFile'>>;

/** Options of `agent.addMcpServer()`. */
export interface McpServerOptions {
  /**
   * Prefix the server's tool names (`prefix__tool`): `true` uses the server's name, a string is used as
   * given (characters outside `[A-Za-z0-9_-]` become `_` in both cases, as in `MCPServers.getTools({ prefix:
   * true })`). Tools that already carry their server prefix (`MCPPrefixedTool`) keep their names. Default:
   * no fixed prefix (the agent's `toolNamePrefix` policy decides).
   */
  prefix?: boolean | string;
  /**
   * Budget of each of this server's tool results, in bytes of UTF-8 (see `AgentOptions.maxToolResultBytes`).
   * Default: the agent's.
   */
  maxToolResultBytes?: number;
  /**
   * Offer the server's skills (MCP Skills extension, SEP-2640) to the model: the system prompt lists each
   * skill's name and description, and a `load_skill` tool returns a skill's verified files on demand
   * (agent/skills.ts). Needs a handle with `listSkills` and `readSkillFile` (an `MCPClient`). Default false.
   */
  skills?: boolean;
}

/** The registry group for a client's live tool list. */
export function mcpToolGroup(client: McpServerHandle, options: McpServerOptions): ToolGroup {
  const prefix =
    options.prefix === true ? client.name : options.prefix === false ? undefined : options.prefix;
  return {
    source: client.name,
    ...(prefix === undefined ? {} : { prefix }),
    ...(options.maxToolResultBytes === undefined ? {} : { maxResultBytes: options.maxToolResultBytes }),
    list: (): readonly Tool[] => client.getTools(),
    settled: async () => {
      await client.whenToolsSettled?.();
    },
    instructions: () => client.getInstructions?.(),
  };
}

/**
 * The registry group for an `MCPServers`' live tool list (`agent.addMcpServers(servers)`): its servers'
 * tools under their own names (the agent's `toolNamePrefix` policy prefixes them), those of servers
 * connected when needed included before they start (`MCPLazyTool`s, started on their first call or tool
 * search hit).
 */
export function mcpServersToolGroup(servers: MCPServers, options: McpServerOptions): ToolGroup {
  return {
    ...(options.maxToolResultBytes === undefined ? {} : { maxResultBytes: options.maxToolResultBytes }),
    list: (): readonly Tool[] =>
      typeof options.prefix === 'string' || options.prefix === true
        ? servers.getTools({ prefix: true })
        : servers.getTools(),
    settled: async () => {
      await Promise.all(
        servers.clients().map((client) => (client.isConnected() ? client.whenToolsSettled() : undefined)),
      );
    },
    instructions: () => {
      const texts = servers.clients().flatMap((client) => {
        const text = client.isConnected() ? client.getInstructions()?.trim() : undefined;
        return text ? [`${client.name}: ${text}`] : [];
      });
      return texts.length > 0 ? texts.join('\n\n') : undefined;
    },
  };
}
