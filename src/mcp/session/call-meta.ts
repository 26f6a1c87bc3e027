/**
 * The caller's `_meta` on a `tools/call` (`MCPToolCallOptions._meta`), kept under the keys agentwire puts
 * there itself. The progress token and every key under an MCP-reserved prefix (the 2026-07-28 envelope, the
 * log level, the tasks extension) are agentwire's alone and dropped from it; W3C trace context is layered
 * over it (request-extras.ts `outboundParams`), so a caller's `traceparent` goes out only outside a span.
 * MCP spec 2025-11-25, "Basic > General fields > _meta": a prefix whose second label is
 * `modelcontextprotocol` or `mcp` is reserved for MCP itself.
 */

/** The unprefixed `_meta` key agentwire alone sets: it ties progress to the request ("Utilities > Progress"). */
const OWN_KEYS: ReadonlySet<string> = new Set(['progressToken']);

/** Second labels of a reserved `_meta` prefix (`io.modelcontextprotocol/`, `dev.mcp/`, …). */
const RESERVED_LABELS: ReadonlySet<string> = new Set(['modelcontextprotocol', 'mcp']);

/** Whether `key` is under a prefix the MCP spec reserves for itself. */
function reserved(key: string): boolean {
  const slash = key.indexOf('/');
  if (slash < 0) return false;
  return RESERVED_LABELS.has(key.slice(0, slash).split('.')[1] ?? '');
}

/**
 * `params` with the caller's `meta` as its `_meta`, less the keys agentwire owns (file comment), which the
 * request's later layers set; `params` itself when nothing is left.
 */
export function withCallerMeta<P extends Record<string, unknown>>(
  params: P,
  meta: Readonly<Record<string, unknown>> | undefined,
): P & { _meta?: Record<string, unknown> } {
  if (meta === undefined) return params;
  const kept = Object.entries(meta).filter(([key]) => !OWN_KEYS.has(key) && !reserved(key));
  if (kept.length === 0) return params;
  return { ...params, _meta: Object.fromEntries(kept) };
}
