/**
 * A client's resource subscriptions (`subscribeResource` / `unsubscribeResource`) in both eras:
 * - 2025: `resources/subscribe` and `resources/unsubscribe` on the current session (MCP spec 2025-11-25,
 *   "Server Features > Resources > Subscriptions"), as before; the server holds the subscriptions;
 * - 2026-07-28: the subscribed URIs are the `resourceSubscriptions` of the session's `subscriptions/listen`
 *   (session/listen.ts), which is re-opened when the set changes. The client holds the set, so a reconnect
 *   listens for the same URIs again (MCP spec 2026-07-28, "Subscriptions > Graceful Closure": the server holds
 *   no subscription state across reconnections); `disconnect()` forgets it, as a 2025 server does.
 */

import { anyObjectSchema } from '../session/engine/result-checks.js';
import { type ListenIssue, listenOf } from '../session/listen.js';
import type { RequestOptions } from '../session/request-options.js';
import type { Session } from '../session/session.js';
import type { MCPClientLogEntry } from './events.js';

/** The URIs subscribed to on 2026-07-28 connections; see the file header. */
export class ResourceSubscriptions {
  readonly #uris = new Set<string>();

  /** The subscribed URIs, in subscription order (what a new 2026-07-28 session listens for). */
  list(): string[] {
    return [...this.#uris];
  }

  /** Forgets `uri`, without a request (a server that cannot hold subscriptions holds none). */
  forget(uri: string): void {
    this.#uris.delete(uri);
  }

  /** Forgets every subscription (`disconnect()`). */
  clear(): void {
    this.#uris.clear();
  }

  /**
   * Subscribes to `uri` (`subscribed` true) or unsubscribes, on `session`.
   * @throws MCPCallError naming `resources/subscribe` / `resources/unsubscribe` (2025) or
   *   `subscriptions/listen` (2026-07-28; kind `protocol` when the server does not declare
   *   `resources.subscribe`).
   */
  async set(session: Session, uri: string, subscribed: boolean, options: RequestOptions): Promise<void> {
    const listen = listenOf(session);
    if (listen === undefined) {
      const method = subscribed ? 'resources/subscribe' : 'resources/unsubscribe';
      await session.request(method, { uri }, anyObjectSchema, options);
      return;
    }
    await listen.setSubscribed(uri, subscribed, options);
    if (subscribed) this.#uris.add(uri);
    else this.#uris.delete(uri);
  }
}

/** The `log` entry for a listen stream's trouble on server `server`. */
export function listenLogEntry(server: string, issue: ListenIssue): MCPClientLogEntry {
  const then = issue.willRetry ? '; re-opening it' : '';
  return {
    level: issue.willRetry ? 'info' : 'warn',
    message: `MCP server "${server}": ${issue.reason}${then}`,
  };
}
