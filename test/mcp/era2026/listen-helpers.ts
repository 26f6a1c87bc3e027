/**
 * What the listen tests (listen-http.test.ts, listen-stdio.test.ts) share: the events a client emitted, in
 * order, and the JSON-RPC messages it sent, as the fixtures recorded them.
 */
import { VERSION } from '../../../src/core/version.js';
import type { MCPClient } from '../../../src/mcp/client/client.js';

/** The `_meta` envelope every 2026-07-28 message of an unconfigured client carries. */
export const ENVELOPE = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientInfo': { name: 'agentwire', version: VERSION },
  'io.modelcontextprotocol/clientCapabilities': {},
};

/** The change filter the `changes` fixtures' capabilities allow (tools, prompts and resources listChanged). */
export const LIST_CHANGES = { toolsListChanged: true, promptsListChanged: true, resourcesListChanged: true };

/** One event: its name and payload (`toolsChanged` as the names it added, removed and changed). */
export type Seen = [string, unknown];

/** Records the client's change, log and error events, in order. */
export function watch(mcp: MCPClient): Seen[] {
  const seen: Seen[] = [];
  mcp.on('toolsChanged', ({ added, removed, changed }) =>
    seen.push([
      'toolsChanged',
      {
        added: added.map((t) => t.name),
        removed: removed.map((t) => t.name),
        changed: changed.map((t) => t.name),
      },
    ]),
  );
  mcp.on('resourceUpdated', (payload) => seen.push(['resourceUpdated', payload]));
  mcp.on('resourcesChanged', (payload) => seen.push(['resourcesChanged', payload]));
  mcp.on('promptsChanged', (payload) => seen.push(['promptsChanged', payload]));
  mcp.on('log', (payload) => seen.push(['log', payload]));
  mcp.on('error', (payload) => seen.push(['error', payload.message]));
  return seen;
}

/** A JSON-RPC message as sent. */
export interface Sent {
  id?: string | number;
  method?: string;
  params?: Record<string, unknown>;
}

/** The `subscriptions/listen` requests among `messages`, as `[id, notifications]`. */
export function listens(messages: Sent[]): [unknown, unknown][] {
  return messages
    .filter((m) => m.method === 'subscriptions/listen')
    .map((m) => [m.id, m.params?.notifications]);
}

/** The ids named by the `notifications/cancelled` among `messages`. */
export function cancelled(messages: Sent[]): unknown[] {
  return messages.filter((m) => m.method === 'notifications/cancelled').map((m) => m.params?.requestId);
}

/** Resolves with the next `event` of `mcp`. */
export function next(
  mcp: MCPClient,
  event: 'toolsChanged' | 'resourceUpdated' | 'resourcesChanged' | 'promptsChanged',
) {
  return new Promise<void>((resolve) => mcp.once(event, () => resolve()));
}

/** Waits `ms` (to show that something did not happen meanwhile). */
export const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
