/**
 * What the agent of one `agentwire run` is given of each server (the servers themselves are connected and
 * disconnected by `withServers`, in with-servers.ts).
 */
import type { McpServerHandle } from '../agent/index.js';
import { type MCPClient, toolFilter } from '../mcp/index.js';
import type { ServerTarget } from './server-options.js';

/**
 * What the agent is given of `client`: the client itself, except that a `--config` server's tool list is
 * read through its entry's `allowTools` / `blockTools` at every turn (so a `toolsChanged` stays filtered).
 */
export function agentHandle(client: MCPClient, target: ServerTarget): McpServerHandle {
  if (target.kind !== 'config') return client;
  // Compiled once: the agent asks for the tools every turn.
  const accepts = toolFilter(target.entry);
  return {
    name: client.name,
    connect: () => client.connect(),
    disconnect: () => client.disconnect(),
    isConnected: () => client.isConnected(),
    getTools: () => client.getTools().filter((tool) => accepts(tool.name)),
    whenToolsSettled: () => client.whenToolsSettled(),
    getInstructions: () => client.getInstructions(),
  };
}
