/**
 * Where an MCP tool call carries the idempotency key of a durable run (`ToolContext.idempotencyKey`): a
 * `_meta` key of the `tools/call` request.
 */

/**
 * The `params._meta` key of a `tools/call` that holds the call's idempotency key, the same each time a
 * durable run makes that call (`<run id>/turn-<n>/call-<i>`), so that a server can drop a repeat of a call it
 * already did. Sent only when the call has a key (`ToolContext.idempotencyKey`, set by agentwire/restate).
 *
 * A prefixed name, as the MCP spec asks of implementation-defined keys (2025-11-25, "Basic > General fields >
 * _meta"): the reverse-DNS prefix `dev.agentwire/` is agentwire's own, outside the prefixes reserved for MCP
 * (second label `modelcontextprotocol` or `mcp`), and the name `idempotency-key` follows the spec's rule for
 * names (alphanumerics, hyphens inside). It is the same in the 2025-11-25 and 2026-07-28 eras.
 */
export const IDEMPOTENCY_KEY_META_KEY = 'dev.agentwire/idempotency-key';
