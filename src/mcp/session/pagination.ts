/**
 * Walking a paginated list to its end (MCP spec 2025-11-25 and 2026-07-28, "Server > Utilities >
 * Pagination"): pages are requested with the previous page's `nextCursor` until there is none. A repeated
 * cursor ends the walk (a server that loops), and so does a page limit. Read leniently, as servers write it:
 * `nextCursor: null` ends the list like an absent one; `''` is a cursor in 2026-07-28 (MCP spec 2026-07-28,
 * "Pagination": only an absent cursor ends a list), while 2025 servers send it to mean "no more pages".
 */
import type { ListPage } from './engine/result-checks.js';

/** Pages after which a walk stops whatever the server says (a server that never ends its list). */
export const MAX_LIST_PAGES = 10_000;

/**
 * Every item under `key` of every page `fetchPage` returns.
 * @param fetchPage - requests one page (`cursor` undefined for the first).
 * @param modern - whether the connection speaks 2026-07-28 (then `''` is a cursor like any other).
 * @throws whatever `fetchPage` throws.
 */
export async function walkPages<T>(
  fetchPage: (cursor: string | undefined) => Promise<ListPage<T>>,
  key: string,
  modern: boolean,
): Promise<T[]> {
  const items: T[] = [];
  const seen = new Set<string>();
  let cursor: string | undefined;
  for (let page = 0; page < MAX_LIST_PAGES; page++) {
    const result = await fetchPage(cursor);
    items.push(...(result[key] as T[]));
    cursor = result.nextCursor ?? undefined;
    if (cursor === undefined || (cursor === '' && !modern) || seen.has(cursor)) return items;
    seen.add(cursor);
  }
  return items;
}
