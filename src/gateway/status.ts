/**
 * The gateway's status: each upstream's state, tool counts and last failure, as the resource
 * `agentwire-gateway://status` (for any MCP client) and as `GET /status` of the HTTP endpoint. A failure is
 * described by its kind and a message built from its fields (which never carry upstream credentials).
 */
import { MCPCallError, MCPConfigError, type MCPServers } from '../mcp/for-gateway.js';
import { describeUpstreamFailure } from './upstream-failure.js';

/** The URI of the status resource. */
export const STATUS_RESOURCE = 'agentwire-gateway://status';

/** One upstream in the status document. */
export interface MCPGatewayUpstreamStatus {
  name: string;
  /** `connected`, `connecting`, `reconnecting`, `disconnected` or `failed` (`MCPClientState`). */
  state: string;
  /** Tools exposed through the gateway. */
  toolCount: number;
  /** The last failure, cleared by a successful (re)connect. */
  error?: { kind: string; message: string };
}

/** The status document: `{ upstreams: [...] }`, in configuration order. */
export interface MCPGatewayStatusDocument {
  upstreams: MCPGatewayUpstreamStatus[];
}

/** Reads the status of the gateway's upstreams. */
export class GatewayStatus {
  readonly #servers: MCPServers;
  readonly #rename: (server: string, name: string) => string;

  constructor(servers: MCPServers, rename: (server: string, name: string) => string) {
    this.#servers = servers;
    this.#rename = rename;
  }

  /** The status document. */
  document(): MCPGatewayStatusDocument {
    return {
      upstreams: this.#servers.status().map((status) => ({
        name: status.name,
        state: status.state,
        toolCount: status.state === 'failed' ? 0 : status.toolCount,
        ...(status.error && { error: describe(status.error, status.name) }),
      })),
    };
  }

  /** The status resource as `resources/list` lists it. */
  resource(): { uri: string; name: string; mimeType: string; description: string } {
    return {
      uri: STATUS_RESOURCE,
      name: 'gateway-status',
      mimeType: 'application/json',
      description: "Each upstream MCP server's state, tool count and last failure.",
    };
  }

  /** The status resource as `resources/read` answers it. */
  read(): { contents: { uri: string; mimeType: string; text: string }[] } {
    const text = JSON.stringify(this.document(), null, 2);
    return { contents: [{ uri: STATUS_RESOURCE, mimeType: 'application/json', text }] };
  }

  /**
   * The upstream that has a tool of gateway name `name` it does not expose now because it is not usable
   * (failed), with its state; undefined for a name no upstream knows.
   */
  ownerOfHiddenTool(name: string): { server: string; state: string } | undefined {
    for (const client of this.#servers.clients()) {
      if (client.getState() !== 'failed') continue;
      if (client.getTools().some((tool) => this.#rename(client.name, tool.name) === name))
        return { server: client.name, state: client.getState() };
    }
    return undefined;
  }
}

function describe(error: Error, server: string): { kind: string; message: string } {
  // The upstream's stderr is not for the gateway's clients (upstream-failure.ts).
  if (error instanceof MCPCallError)
    return { kind: error.kind, message: describeUpstreamFailure(error, server).message };
  if (error instanceof MCPConfigError) return { kind: 'config', message: error.message };
  return { kind: 'error', message: error.name };
}
