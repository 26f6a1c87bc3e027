/**
 * The client's tool list kept current: applying a discovered list (duplicates warned, `toolsChanged`
 * emitted), `refreshTools()` (concurrent calls share one refresh, one asked for meanwhile runs after it), and
 * the debounced refresh that follows `notifications/tools/list_changed` (MCP spec 2025-11-25, "Tools > List
 * Changed Notification"), which also makes the cached `tools/list` stale (MCP spec 2026-07-28, "Server >
 * Utilities > Caching").
 */
import type { MCPTool } from '../adapter/mcp-tool.js';
import type { ToolSet } from '../adapter/tool-set.js';
import type { MCPToolDefinition } from '../protocol/types.js';
import type { Session } from '../session/session.js';
import type { Connection } from './connection.js';
import { DebouncedRefresh } from './debounced-refresh.js';
import type { MCPClientEvents, TypedEmitter } from './events.js';
import {
  DEFAULT_CONNECT_TIMEOUT_MS,
  DEFAULT_LIST_CHANGED_DEBOUNCE_MS,
  type MCPClientOptions,
} from './options.js';
import type { ResponseCache } from './response-cache.js';
import { discoverTools } from './tool-discovery.js';

/** What a {@link ToolRefresh} needs from its client. */
export interface ToolRefreshHost {
  /** The server's name, for logs. */
  name: string;
  options: MCPClientOptions;
  /** The client's tools. */
  tools: ToolSet;
  /** The client's response cache, if it caches. */
  cache: ResponseCache | undefined;
  /** The client, which emits `toolsChanged`, `log`, `error`. */
  events: TypedEmitter<MCPClientEvents>;
  /** The client's connection (read at each use: it is created after this). */
  connection: () => Connection;
}

/** One client's tool discovery after `connect()`; see the file header. */
export class ToolRefresh {
  readonly #host: ToolRefreshHost;
  #refreshing: Promise<MCPTool[]> | undefined;
  #refreshAgain = false;
  readonly #listChanged = new DebouncedRefresh();
  #warnedUnadvertised = false;

  constructor(host: ToolRefreshHost) {
    this.#host = host;
  }

  /** Replaces the tool list with `definitions`: see `MCPClient`'s `toolsChanged` event. */
  apply(definitions: MCPToolDefinition[]): void {
    const { duplicates, ...diff } = this.#host.tools.replace(definitions);
    const { events, name } = this.#host;
    if (duplicates.length > 0) {
      const names = [...new Set(duplicates)].map((tool) => `"${tool}"`).join(', ');
      events.emit('log', {
        level: 'warn',
        message: `MCP server "${name}" lists more than one tool named ${names}; keeping the first of each`,
      });
    }
    const changes = diff.added.length + diff.removed.length + diff.changed.length;
    // The first discovery is reported by `connected`, not as a change.
    if (changes > 0 && this.#host.connection().state !== 'connecting') events.emit('toolsChanged', diff);
  }

  /** See `MCPClient.refreshTools`. */
  refresh(): Promise<MCPTool[]> {
    if (this.#refreshing) {
      this.#refreshAgain = true;
      return this.#refreshing;
    }
    this.#refreshing = this.#refreshOnce().finally(() => {
      this.#refreshing = undefined;
    });
    return this.#refreshing;
  }

  /** See `MCPClient.whenToolsSettled`. */
  async whenSettled(): Promise<void> {
    const next = () => this.#listChanged.pending ?? this.#refreshing;
    for (let p = next(); p; p = next()) await p.catch(() => {});
  }

  /** The session ended: a refresh waiting out the debounce is dropped. */
  cancel(): void {
    this.#listChanged.cancel();
  }

  /** `session`'s server sent `notifications/tools/list_changed`. */
  onListChanged(session: Session): void {
    const { cache, events, name, options } = this.#host;
    cache?.invalidate('tools/list');
    if (session.serverCapabilities?.tools?.listChanged !== true && !this.#warnedUnadvertised) {
      this.#warnedUnadvertised = true;
      events.emit('log', {
        level: 'warn',
        message: `MCP server "${name}" sent notifications/tools/list_changed without advertising tools.listChanged; following it anyway`,
      });
    }
    if (options.refreshToolsOnListChanged === false) return;
    this.#listChanged.schedule(options.listChangedDebounceMs ?? DEFAULT_LIST_CHANGED_DEBOUNCE_MS, () => {
      this.refresh().catch((error: unknown) => {
        events.emit('error', error instanceof Error ? error : new Error(String(error)));
      });
    });
  }

  async #refreshOnce(): Promise<MCPTool[]> {
    const { events, name } = this.#host;
    const connection = this.#host.connection();
    const timeoutMs = this.#host.options.connectTimeoutMs ?? DEFAULT_CONNECT_TIMEOUT_MS;
    do {
      this.#refreshAgain = false;
      const session = connection.connected;
      if (!session) throw connection.notConnected('tools/list', 'not connected');
      const cache = this.#host.cache?.forSession(session, 'refresh');
      const definitions = await discoverTools(session, { timeoutMs, cache }, name, events);
      if (session !== connection.session)
        throw connection.notConnected('tools/list', 'the connection changed');
      this.apply(definitions);
    } while (this.#refreshAgain);
    return this.#host.tools.list();
  }
}
