/**
 * JSON values and JSON Schema as they cross the boundary between MCP servers, agentwire and models.
 * Kept here, below every layer, so that `mcp/`, `providers/`, `tools/` and `agent/` share one shape.
 */

/** Any JSON value. */
export type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue };

/** A JSON object. */
export type JsonObject = { [key: string]: JsonValue };

/**
 * A JSON Schema document, kept whole: `$defs`, `$ref`, `additionalProperties`, `oneOf` and every other
 * keyword a server sends survive untouched. Only `type` is named because tool input schemas are objects
 * (MCP spec 2025-11-25, "Tools": `inputSchema` is a JSON Schema with `type: "object"`).
 */
export interface JsonSchema {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  [keyword: string]: unknown;
}

/** True when `value` is a plain (non-array, non-null) object. */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
