/**
 * The lists the catalog merges: each upstream's exposed tools with their wire definitions, and a list
 * request fanned out to every connected upstream, where one upstream's failure costs only its own items.
 *
 * An upstream that is down keeps its place in every list with what it last listed (its last known tools,
 * prompts, resources and templates; none when it never connected): a client's view does not change with an
 * outage, so an outage sends no `list_changed`, and a call to one of its tools is refused at once as
 * `unavailable` with when to try again (upstream-health.ts). When it is back, what it lists replaces what
 * was kept, and a difference is announced as any change is.
 */
import type { MCPClient, MCPServers, MCPToolDefinition } from '../mcp/for-gateway.js';

/** One tool of the gateway's list: its definition under the gateway name, and where it leads. */
export interface UpstreamTool {
  definition: MCPToolDefinition;
  client: MCPClient;
  /** The tool's name at its upstream. */
  upstreamName: string;
}

/** What each upstream last listed, per list (`tools`, `prompts/list`, …), kept while it is down. */
export type KnownLists = Map<string, Map<MCPClient, unknown[]>>;

/**
 * The exposed tools of `servers` (`MCPServers.getTools()`: filters applied), each with its upstream's
 * definition as `tools/list` gave it, renamed by `rename(server, name)`; an upstream that is not connected
 * contributes what it exposed when it last was (`known`).
 */
export function upstreamTools(
  servers: MCPServers,
  rename: (server: string, name: string) => string,
  known: KnownLists,
): UpstreamTool[] {
  const exposed = new Set(servers.getTools());
  const kept = remembered(known, 'tools');
  const tools: UpstreamTool[] = [];
  for (const client of servers.clients()) {
    if (client.getState() !== 'connected') {
      tools.push(...((kept.get(client) ?? []) as UpstreamTool[]));
      continue;
    }
    const own: UpstreamTool[] = [];
    for (const tool of client.getTools()) {
      if (!exposed.has(tool)) continue;
      const definition = { ...tool.definition, name: rename(client.name, tool.name) };
      own.push({ definition, client, upstreamName: tool.name });
    }
    kept.set(client, own);
    tools.push(...own);
  }
  return tools;
}

/**
 * `list(client)` on every connected upstream at once, in configuration order; an upstream that is not
 * connected gives what it last listed under `key` (`known`). An upstream that fails (no such capability,
 * gone mid-request) contributes what it last listed, and `failed` is told: the others' lists still come back.
 */
export async function listOf<T>(
  servers: MCPServers,
  key: string,
  list: (client: MCPClient) => Promise<T[]>,
  known: KnownLists,
  failed?: (client: MCPClient, error: unknown) => void,
): Promise<{ client: MCPClient; items: T[] }[]> {
  const kept = remembered(known, key);
  const clients = servers.clients();
  const settled = await Promise.allSettled(
    clients.map((client) =>
      client.getState() === 'connected' ? list(client) : Promise.resolve((kept.get(client) ?? []) as T[]),
    ),
  );
  return clients.map((client, index) => {
    const outcome = settled[index];
    if (outcome?.status === 'fulfilled') {
      kept.set(client, outcome.value);
      return { client, items: outcome.value };
    }
    failed?.(client, outcome?.reason);
    return { client, items: (kept.get(client) ?? []) as T[] };
  });
}

function remembered(known: KnownLists, key: string): Map<MCPClient, unknown[]> {
  let kept = known.get(key);
  if (!kept) {
    kept = new Map();
    known.set(key, kept);
  }
  return kept;
}
