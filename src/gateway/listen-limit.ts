/**
 * The gateway's bound on open `subscriptions/listen` subscriptions (`maxSubscriptions`), told to the client
 * that passes it. MCP spec 2026-07-28, "Subscriptions" defines no error for a server that will not open
 * another subscription; the MCP SDK's routers answer a bare -32603 "Subscription limit reached". The
 * gateway keeps that code (so a client sees the same as from any SDK server) and says what the limit is:
 * the message names it, and `data` carries it for code to switch on.
 */
import type { JSONRPCErrorResponse, RequestId } from '@modelcontextprotocol/server';

/** `data` of the refusal. */
export interface MCPGatewaySubscriptionLimitData {
  kind: 'subscription_limit';
  /** The bound that was reached. */
  maxSubscriptions: number;
}

/** The JSON-RPC error answering listen request `id` when `maxSubscriptions` subscriptions are open. */
export function subscriptionLimitError(id: RequestId, maxSubscriptions: number): JSONRPCErrorResponse {
  const data: MCPGatewaySubscriptionLimitData = { kind: 'subscription_limit', maxSubscriptions };
  return {
    jsonrpc: '2.0',
    id,
    error: {
      code: -32603,
      message: `Too many subscriptions: this gateway keeps at most ${maxSubscriptions} subscriptions/listen subscriptions open (maxSubscriptions); close one or try later`,
      data,
    },
  };
}

/**
 * The `resourceSubscriptions` of a `subscriptions/listen` request or acknowledgement's `notifications`
 * filter (MCP spec 2026-07-28, "Subscriptions"): its string entries, empty when there are none.
 */
export function filterUris(notifications: unknown): string[] {
  const uris = (notifications as { resourceSubscriptions?: unknown } | undefined)?.resourceSubscriptions;
  return Array.isArray(uris) ? uris.filter((uri): uri is string => typeof uri === 'string') : [];
}
