/**
 * What a session registers on the SDK's protocol layer: the server's notifications routed to the session's
 * hooks, and the server's requests (sampling, elicitation, roots) answered through the client's handlers
 * (MCP spec 2025-11-25, "Client Features"). In the 2026-07-28 era the SDK's funnel also fulfils
 * `input_required` rounds through these same registrations.
 */
import { Client } from '@modelcontextprotocol/client';
import type { CreateMessageParams, Implementation, Root, ServerLogMessage } from '../../protocol/types.js';
import type { Elicitations } from './elicitations.js';
import type { MCPServerRequestHandlers } from './server-requests.js';

/** The notification hooks of a session (`SessionHooks` in session.ts has them all). */
export interface NotificationHooks {
  onToolListChanged(): void;
  onServerLog?(message: ServerLogMessage): void;
  onResourceUpdated?(uri: string): void;
  onListChanged?(list: 'resources' | 'prompts'): void;
}

/** The client's handlers for server requests, and the current roots (`SessionClientFeatures`). */
export interface RequestAnswerers extends MCPServerRequestHandlers {
  currentRoots?: () => Root[];
}

/** Routes the server's notifications to `hooks`. */
export function routeNotifications(sdk: Client, hooks: NotificationHooks): void {
  sdk.setNotificationHandler('notifications/tools/list_changed', () => hooks.onToolListChanged());
  sdk.setNotificationHandler('notifications/message', (n) =>
    hooks.onServerLog?.(n.params as ServerLogMessage),
  );
  sdk.setNotificationHandler('notifications/resources/updated', (n) =>
    hooks.onResourceUpdated?.(n.params.uri),
  );
  sdk.setNotificationHandler('notifications/resources/list_changed', () =>
    hooks.onListChanged?.('resources'),
  );
  sdk.setNotificationHandler('notifications/prompts/list_changed', () => hooks.onListChanged?.('prompts'));
}

/**
 * Answers the server's requests with the handlers in `features`; none is registered without a handler.
 * Elicitation (form and URL modes) is `elicitations`' (elicitations.ts).
 */
export function answerServerRequests(
  sdk: Client,
  server: string,
  features: RequestAnswerers,
  elicitations: Elicitations,
): void {
  const { onSampling, currentRoots } = features;
  if (onSampling) {
    sdk.setRequestHandler('sampling/createMessage', async (request, ctx) => {
      const result = await onSampling(request.params as CreateMessageParams, {
        server,
        signal: ctx.mcpReq.signal,
      });
      return result as never;
    });
  }
  elicitations.register(sdk);
  if (features.roots) {
    sdk.setRequestHandler('roots/list', () => ({ roots: currentRoots?.() ?? features.roots ?? [] }));
  }
}

/**
 * The SDK's protocol layer for one connection, declaring `capabilities` and answering up to `maxRounds`
 * `input_required` rounds (2026-07-28). A pinned revision speaks only itself; `'auto'` keeps the SDK's own
 * list, so the 2025 handshake is the SDK's unchanged.
 */
export function sdkClient(
  clientInfo: Implementation,
  capabilities: Record<string, object>,
  protocolVersion: string,
  maxRounds: number,
): Client {
  return new Client(clientInfo, {
    capabilities,
    ...(protocolVersion !== 'auto' && { supportedProtocolVersions: [protocolVersion] }),
    inputRequired: { maxRounds },
  });
}
