/**
 * The gateway's status: each upstream's state, tool count, reconnection (attempts, the next one) and last
 * failure, as the resource `agentwire-gateway://status` (for any MCP client) and as `GET /status` of the
 * HTTP endpoint. A failure is described by its kind and a message built from its fields (which never carry
 * upstream credentials), with the time it happened; it is kept after the upstream is back.
 */
import { MCPCallError, MCPConfigError, type MCPServers } from '../mcp/for-gateway.js';
import { describeUpstreamFailure } from './upstream-failure.js';
import type { MCPGatewayUpstreamState, UpstreamHealth } from './upstream-health.js';

/** The URI of the status resource. */
export const STATUS_RESOURCE = 'agentwire-gateway://status';

/** One upstream in the status document. */
export interface MCPGatewayUpstreamStatus {
  name: string;
  /**
   * `connected`, `connecting` (its first connect), `reconnecting` (down, being connected again),
   * `disconnected` (not started, or the gateway closed), or `failed` for a configuration entry that cannot
   * be used (never retried).
   */
  state: MCPGatewayUpstreamState | 'failed';
  /** Tools the gateway lists for it (while it is down, those it last listed). */
  toolCount: number;
  /** Failed connect attempts since it was last connected (0 while connected). */
  attempts: number;
  /** While it is down: when the next attempt starts (ISO 8601), and in how many ms. */
  nextAttempt?: { at: string; inMs: number };
  /** The last failure, kept after a reconnect: its kind, a message, and when (ISO 8601; none for `config`). */
  lastFailure?: { kind: string; message: string; at?: string };
}

/** The status document: `{ upstreams: [...] }`, in configuration order. */
export interface MCPGatewayStatusDocument {
  upstreams: MCPGatewayUpstreamStatus[];
}

/** Reads the status of the gateway's upstreams. */
export class GatewayStatus {
  readonly #servers: MCPServers;
  readonly #health: UpstreamHealth;
  readonly #toolCount: (server: string) => number;

  constructor(servers: MCPServers, health: UpstreamHealth, toolCount: (server: string) => number) {
    this.#servers = servers;
    this.#health = health;
    this.#toolCount = toolCount;
  }

  /** The status document. */
  document(): MCPGatewayStatusDocument {
    const now = Date.now();
    return {
      upstreams: this.#servers.status().map((status): MCPGatewayUpstreamStatus => {
        const client = this.#servers.get(status.name);
        if (!client)
          return {
            name: status.name,
            state: 'failed',
            toolCount: 0,
            attempts: 0,
            ...(status.error && { lastFailure: describe(status.error, status.name) }),
          };
        const view = this.#health.view(client);
        const next = view.nextAttemptAt;
        return {
          name: status.name,
          state: view.state,
          toolCount: this.#toolCount(status.name),
          attempts: view.attempts,
          ...(next !== undefined && {
            nextAttempt: { at: new Date(next).toISOString(), inMs: Math.max(0, Math.ceil(next - now)) },
          }),
          ...(view.lastFailure && {
            lastFailure: {
              ...describe(view.lastFailure.error, status.name),
              at: new Date(view.lastFailure.at).toISOString(),
            },
          }),
        };
      }),
    };
  }

  /** The status resource as `resources/list` lists it. */
  resource(): { uri: string; name: string; mimeType: string; description: string } {
    return {
      uri: STATUS_RESOURCE,
      name: 'gateway-status',
      mimeType: 'application/json',
      description: "Each upstream MCP server's state, tool count, reconnection and last failure.",
    };
  }

  /** The status resource as `resources/read` answers it. */
  read(): { contents: { uri: string; mimeType: string; text: string }[] } {
    const text = JSON.stringify(this.document(), null, 2);
    return { contents: [{ uri: STATUS_RESOURCE, mimeType: 'application/json', text }] };
  }
}

function describe(error: Error, server: string): { kind: string; message: string } {
  // The upstream's stderr is not for the gateway's clients (upstream-failure.ts).
  if (error instanceof MCPCallError)
    return { kind: error.kind, message: describeUpstreamFailure(error, server).message };
  if (error instanceof MCPConfigError) return { kind: 'config', message: error.message };
  return { kind: 'error', message: error.name };
}
