/**
 * A JSON-RPC error's `data` (MCP spec 2025-11-25, "Basic > Messages > Responses": "additional information
 * about the error"), for the model and the terminal: servers put the detail that makes the error fixable
 * there (`{"field":"x","hint":"use y"}`), so it must not be dropped, but it is bounded.
 */
import { MCPCallError } from '../mcp/index.js';

/** Longest `data` text shown, in characters; longer is cut with `…`. */
export const MAX_ERROR_DATA_CHARS = 2_000;

/**
 * ` (data: {"field":"x","hint":"use y"})` for an `MCPCallError` carrying JSON-RPC `data` (compact JSON,
 * strings as they are, at most {@link MAX_ERROR_DATA_CHARS} characters); `''` for any other error.
 */
export function errorDataSuffix(error: unknown): string {
  if (!(error instanceof MCPCallError) || error.data === undefined || error.data === null) return '';
  const text = compactJson(error.data);
  if (text === '') return '';
  const shown = text.length > MAX_ERROR_DATA_CHARS ? `${text.slice(0, MAX_ERROR_DATA_CHARS)}…` : text;
  return ` (data: ${shown})`;
}

function compactJson(value: unknown): string {
  if (typeof value === 'string') return value.replace(/\s*\n\s*/g, ' ');
  try {
    return JSON.stringify(value) ?? '';
  } catch {
    return String(value);
  }
}
