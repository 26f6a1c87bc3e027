/**
 * What `agentwire servers` prints: one row per configured server, for people (aligned columns) or scripts
 * (`--json`). Enabled servers come first in the file's order, then the invalid entries (failed without
 * being started: their transport may be what is wrong), then the disabled ones (the loader skips a
 * disabled entry unread, so its transport is not known).
 *
 *     everything  stdio  connected  13 tools
 *     files       stdio  connected  3 of 14 tools
 *     broken      stdio  failed     MCP server "broken": initialize failed: cannot start server …
 *     typo        -      failed     config /home/me/mcp.json: server "typo": "url" must be a string
 *     retired     -      disabled
 */
import type { MCPCallErrorKind, MCPServerEntry } from '../mcp/index.js';

/** How an entry is reached: `stdio`, `http` (Streamable HTTP, with SSE fallback), or `sse` (legacy only). */
export type ServerTransportKind = 'stdio' | 'http' | 'sse';

/** One row of `agentwire servers`; the JSON output is `{ config, servers: ServerRow[] }`. */
export type ServerRow =
  | {
      name: string;
      transport: ServerTransportKind;
      state: 'connected';
      /** Tools the agent would get, after `allowTools` / `blockTools`. */
      toolCount: number;
      /** Tools the server offers. */
      totalToolCount: number;
      /** Whether the entry has `allowTools` or `blockTools`. */
      filtered: boolean;
    }
  | {
      name: string;
      transport: ServerTransportKind;
      state: 'failed';
      /** Why connecting failed: the `MCPCallError` kind and its one-line message. */
      error: { kind: MCPCallErrorKind; message: string };
    }
  | {
      name: string;
      state: 'failed';
      /** The entry cannot be used (`MCPServerConfig.invalid`): the `MCPConfigError`'s message. */
      error: { kind: 'config'; message: string };
    }
  | { name: string; state: 'disabled' };

/** The transport kind an entry names (`type: "sse"` → `sse`; `http` and `streamable-http` → `http`). */
export function transportKind(entry: MCPServerEntry): ServerTransportKind {
  if (entry.kind === 'stdio') return 'stdio';
  return entry.options.transport === 'sse' ? 'sse' : 'http';
}

/** The human-readable listing, newline-terminated; `(no servers)` for an empty list. */
export function formatServerRows(rows: readonly ServerRow[]): string {
  if (rows.length === 0) return '(no servers)\n';
  const cells = rows.map((row) => [
    row.name,
    'transport' in row ? row.transport : '-',
    row.state,
    detail(row),
  ]);
  const widths = [0, 1, 2].map((column) => Math.max(...cells.map((cell) => cell[column]!.length)));
  return cells
    .map((cell) => `${cell.map((text, column) => text.padEnd(widths[column] ?? 0)).join('  ')}`.trimEnd())
    .map((line) => `${line}\n`)
    .join('');
}

function detail(row: ServerRow): string {
  if (row.state === 'disabled') return '';
  if (row.state === 'failed') return row.error.message;
  const noun = row.totalToolCount === 1 ? 'tool' : 'tools';
  return row.filtered ? `${row.toolCount} of ${row.totalToolCount} ${noun}` : `${row.toolCount} ${noun}`;
}
