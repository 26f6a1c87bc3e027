/**
 * The client's cache of the results the 2026-07-28 revision marks cacheable (MCP spec 2026-07-28, "Server >
 * Utilities > Caching"): the list results (`tools/list`, `prompts/list`, `resources/list`,
 * `resources/templates/list`) page by page, and `resources/read` per URI. It belongs to one `MCPClient` and
 * outlives its connections, so a reconnect within a result's `ttlMs` sends no request for it.
 *
 * The rules, from that section:
 * - a result is fresh while `now < received + ttlMs`; `ttlMs` 0, negative or absent means stale at once,
 *   so nothing is stored, and a 2025-era server (which sends no `ttlMs`) is never served from the cache;
 * - the key is the method and the parameters that shape the result (`cursor`, `uri`), never `_meta`;
 * - results of requests carrying `inputResponses` or `requestState` (multi round-trip retries) are not
 *   stored;
 * - `notifications/*\/list_changed` makes that list stale, `notifications/resources/updated` that URI;
 * - a failed page request discards the method's pages (its cursor may have become invalid);
 * - `cacheScope: 'private'` results may be reused within one authorization context only: the cache is
 *   never shared between clients, and `MCPClient.finishAuth()` (a new authorization) drops them;
 *   `'public'` ones survive it;
 * - entries are partitioned by server identity (`serverInfo` name and version): a connection to a server
 *   that reports another identity starts from an empty cache.
 * TTLs above {@link MAX_CACHE_TTL_MS} are capped to it.
 */
import type { Implementation } from '../protocol/types.js';
import { MAX_CACHE_TTL_MS, type RequestCache } from '../session/request-options.js';

/** The methods whose results are cacheable (MCP spec 2026-07-28, "Caching > Cacheable Results"). */
const CACHEABLE = new Set([
  'tools/list',
  'prompts/list',
  'resources/list',
  'resources/templates/list',
  'resources/read',
]);

/** What the cache needs to know of a connection. */
export interface CacheSubject {
  /** `'modern'` for 2026-07-28; anything else is served as before, uncached. */
  readonly era: 'modern' | 'legacy' | undefined;
  readonly serverInfo: Implementation | undefined;
}

interface Entry {
  result: unknown;
  /** `performance.now()` after which the entry is stale. */
  staleAt: number;
  scope: 'public' | 'private';
}

/** See the file header. */
export class ResponseCache {
  readonly #entries = new Map<string, Entry>();
  #identity: string | undefined;

  /**
   * The cache as one session's requests see it (pass it as `RequestOptions.cache`); `undefined` for a
   * connection that does not speak 2026-07-28. `'refresh'` fetches whatever is stored and stores the answer
   * (`MCPClient.refreshTools()`).
   */
  forSession(session: CacheSubject, mode: 'use' | 'refresh' = 'use'): RequestCache | undefined {
    if (session.era !== 'modern') return undefined;
    const identity = `${session.serverInfo?.name ?? ''}@${session.serverInfo?.version ?? ''}`;
    if (identity !== this.#identity) {
      this.#entries.clear();
      this.#identity = identity;
    }
    return { through: (method, params, send) => this.#through(mode, method, params, send) };
  }

  async #through<T>(
    mode: 'use' | 'refresh',
    method: string,
    params: Record<string, unknown>,
    send: () => Promise<T>,
  ): Promise<T> {
    if (!CACHEABLE.has(method) || 'inputResponses' in params || 'requestState' in params) return send();
    const key = keyOf(method, params);
    const entry = this.#entries.get(key);
    if (mode === 'use' && entry && performance.now() < entry.staleAt)
      return structuredClone(entry.result as T);
    let result: T;
    try {
      result = await send();
    } catch (error) {
      // MCP spec 2026-07-28, "Caching > Interaction with Pagination": an error for a cursor discards the pages.
      if (params.cursor !== undefined) this.invalidate(method);
      throw error;
    }
    this.#store(key, result);
    return result;
  }

  #store(key: string, result: unknown): void {
    const hints = (typeof result === 'object' && result !== null ? result : {}) as Record<string, unknown>;
    const ttlMs = typeof hints.ttlMs === 'number' && Number.isFinite(hints.ttlMs) ? hints.ttlMs : 0;
    const complete = hints.resultType === undefined || hints.resultType === 'complete';
    if (ttlMs <= 0 || !complete) {
      this.#entries.delete(key);
      return;
    }
    this.#entries.set(key, {
      result: structuredClone(result),
      staleAt: performance.now() + Math.min(ttlMs, MAX_CACHE_TTL_MS),
      scope: hints.cacheScope === 'public' ? 'public' : 'private',
    });
  }

  /** Makes every stored page of `method` stale (`notifications/tools/list_changed` → `'tools/list'`). */
  invalidate(method: string): void {
    for (const key of this.#entries.keys()) if (key.startsWith(`${method}\n`)) this.#entries.delete(key);
  }

  /** Makes the stored `resources/read` of `uri` stale (`notifications/resources/updated`). */
  invalidateResource(uri: string): void {
    this.#entries.delete(keyOf('resources/read', { uri }));
  }

  /** Drops the `'private'` entries: the authorization context changed. */
  dropPrivate(): void {
    for (const [key, entry] of this.#entries) if (entry.scope === 'private') this.#entries.delete(key);
  }
}

/** The method and the parameters that shape the result, without `_meta` (MCP spec 2026-07-28, "Cache Key"). */
function keyOf(method: string, params: Record<string, unknown>): string {
  const { _meta, ...shaping } = params;
  return `${method}\n${JSON.stringify(shaping)}`;
}
