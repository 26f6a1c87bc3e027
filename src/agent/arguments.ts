/**
 * A first check of a model's tool arguments before the tool runs, so an obvious mistake goes back to the
 * model as an error result it can fix, without a round trip to an MCP server. Only what is cheap and
 * certain is checked: a JSON object, required properties present, top-level property types. The tool
 * (and an MCP server's own validation) remains the judge of the rest.
 */
import { isRecord, type JsonSchema } from '../core/json.js';
import { parseToolArguments } from '../providers/json-args.js';

/** Parsed arguments, or why they are unusable (a sentence meant for the model). */
export type ArgumentCheck = { ok: true; input: Record<string, unknown> } | { ok: false; problem: string };

/** Parses and checks `text` against `schema`. */
export function checkToolArguments(text: string, schema: JsonSchema): ArgumentCheck {
  const input = parseToolArguments(text);
  if (input === undefined) {
    const shown = text.length > 200 ? `${text.slice(0, 200)}…` : text;
    return { ok: false, problem: `arguments are not a JSON object: ${shown}` };
  }
  const missing = (schema.required ?? []).filter((name) => !(name in input));
  if (missing.length > 0)
    return { ok: false, problem: `missing required argument(s): ${missing.join(', ')}` };
  for (const [name, value] of Object.entries(input)) {
    const expected = schema.properties?.[name]?.type;
    if (expected === undefined || matchesType(value, expected)) continue;
    return {
      ok: false,
      problem: `argument "${name}" should be ${describe(expected)}, got ${jsonType(value)}`,
    };
  }
  return { ok: true, input };
}

function matchesType(value: unknown, type: string | string[]): boolean {
  const types = Array.isArray(type) ? type : [type];
  return types.some((t) => {
    if (t === 'integer') return Number.isInteger(value);
    if (t === 'number') return typeof value === 'number';
    if (t === 'array') return Array.isArray(value);
    if (t === 'object') return isRecord(value);
    if (t === 'null') return value === null;
    if (t === 'string' || t === 'boolean') return typeof value === t;
    return true;
  });
}

function jsonType(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  return typeof value;
}

function describe(type: string | string[]): string {
  return Array.isArray(type) ? `one of ${type.join(', ')}` : `a ${type}`;
}
