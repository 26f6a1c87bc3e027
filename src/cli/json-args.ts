import { isRecord } from '../core/json.js';
import { UsageError } from './usage-error.js';

/**
 * Parses the `[json-args]` argument of `agentwire call` into the tool's input object. Absent means `{}`.
 * @throws UsageError when the text is not JSON or not a JSON object (tool input is always an object:
 *   MCP spec 2025-11-25, "Tools", `arguments`).
 */
export function parseJsonArgs(text: string | undefined): Record<string, unknown> {
  if (text === undefined || text.trim() === '') return {};
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new UsageError(`the tool arguments are not valid JSON: ${reason}`);
  }
  if (!isRecord(value)) {
    const got = value === null ? 'null' : Array.isArray(value) ? 'an array' : `a ${typeof value}`;
    throw new UsageError(`the tool arguments must be a JSON object such as '{"message":"hi"}', got ${got}`);
  }
  return value;
}
