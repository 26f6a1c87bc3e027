/**
 * The lists the catalog merges: each upstream's exposed tools with their wire definitions, and a list
 * request fanned out to every connected upstream, where one upstream's failure costs only its own items.
 */
import type { MCPClient, MCPServers, MCPToolDefinition } from '../mcp/for-gateway.js';

/** One tool of the gateway's list: its definition under the gateway name, and where it leads. */
export interface UpstreamTool {
  definition: MCPToolDefinition;
  client: MCPClient;
  /** The tool's name at its upstream. */
  upstreamName: string;
}

/**
 * The exposed tools of `servers` (`MCPServers.getTools()`: filters applied, failed servers left out), each
 * with its upstream's definition as `tools/list` gave it, renamed by `rename(server, name)`.
 */
export function upstreamTools(
  servers: MCPServers,
  rename: (server: string, name: string) => string,
): UpstreamTool[] {
  const exposed = new Set(servers.getTools());
  const tools: UpstreamTool[] = [];
  for (const client of servers.clients()) {
    for (const tool of client.getTools()) {
      if (!exposed.has(tool)) continue;
      const definition = { ...tool.definition, name: rename(client.name, tool.name) };
      tools.push({ definition, client, upstreamName: tool.name });
    }
  }
  return tools;
}

/**
 * `list(client)` on every connected upstream at once, in configuration order. An upstream that fails (no
 * such capability, gone mid-request) contributes nothing: the others' lists still come back.
 */
export async function listOf<T>(
  servers: MCPServers,
  list: (client: MCPClient) => Promise<T[]>,
): Promise<{ client: MCPClient; items: T[] }[]> {
  const connected = servers.clients().filter((client) => client.getState() === 'connected');
  const settled = await Promise.allSettled(connected.map((client) => list(client)));
  return connected.map((client, index) => {
    const outcome = settled[index];
    return { client, items: outcome?.status === 'fulfilled' ? outcome.value : [] };
  });
}
