/**
 * `tools/list` as the client reads it: only from a server that declares `tools` (MCP spec 2025-11-25 and
 * 2026-07-28, "Server Features > Tools > Capabilities"; a server without it has no tools, and none is asked
 * for), and leniently: a tool whose definition cannot be used is left out with a warning naming it and why,
 * and the others are kept, where one bad definition would otherwise cost the whole list.
 */
import type { MCPToolDefinition } from '../protocol/types.js';
import type { RequestOptions } from '../session/request-options.js';
import type { Session } from '../session/session.js';
import { offers } from './capabilities.js';
import type { MCPClientEvents, TypedEmitter } from './events.js';

/**
 * Every tool `session`'s server lists; `[]` without a request when it does not declare `tools`. Each tool
 * left out is a `log` event (level `warn`) of client `server` on `events`.
 * @throws MCPCallError
 */
export function discoverTools(
  session: Session,
  options: RequestOptions,
  server: string,
  events: TypedEmitter<MCPClientEvents>,
): Promise<MCPToolDefinition[]> {
  if (!offers(session, 'tools/list')) return Promise.resolve([]);
  return session.listTools(options, (tool) =>
    events.emit('log', {
      level: 'warn',
      message: `MCP server "${server}": tool "${tool.name}" is left out of the tool list: its definition is invalid (${tool.reason})`,
    }),
  );
}
