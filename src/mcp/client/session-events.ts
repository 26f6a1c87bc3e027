/**
 * How what a session tells its owner becomes the client's events: background errors, late answers, server
 * log messages, resource and list changes (which also make the matching cached results stale: MCP spec
 * 2026-07-28, "Server > Utilities > Caching"), and tools left out of a listing.
 */
import type { SessionHooks } from '../session/session.js';
import type { MCPClientEvents, TypedEmitter } from './events.js';
import { lateMessageLog } from './late-message.js';
import type { ResponseCache } from './response-cache.js';

/** The session hooks that are the client's own (the connection adds those it handles itself). */
export type ClientSessionEvents = Omit<SessionHooks, 'onUnexpectedClose' | 'onToolListChanged'>;

/** The hooks of client `server`, emitting on `events` and invalidating `cache`. */
export function clientSessionEvents(
  server: string,
  events: TypedEmitter<MCPClientEvents>,
  cache: ResponseCache | undefined,
): ClientSessionEvents {
  return {
    onError: (error: Error) => events.emit('error', error),
    onLateMessage: () => events.emit('log', lateMessageLog(server)),
    onServerLog: (message) => events.emit('serverLog', { ...message, server }),
    onResourceUpdated: (uri) => {
      cache?.invalidateResource(uri);
      events.emit('resourceUpdated', { uri });
    },
    onListChanged: (list) => {
      for (const method of list === 'prompts'
        ? ['prompts/list']
        : ['resources/list', 'resources/templates/list'])
        cache?.invalidate(method);
      events.emit(list === 'resources' ? 'resourcesChanged' : 'promptsChanged', {});
    },
    // MCP spec 2026-07-28, "Custom Headers from Tool Parameters > Client Behavior": SHOULD warn.
    onToolExcluded: (tool) =>
      events.emit('log', {
        level: 'warn',
        message: `MCP server "${server}": tool "${tool.name}" is left out of the tool list: its x-mcp-header declaration is invalid (${tool.reason})`,
      }),
  };
}
