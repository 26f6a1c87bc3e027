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

/**
 * Parses and checks `text` against `schema`; `input`, when given, is `text` already parsed by
 * `parseToolArguments` (the agent parses once for its `tool_start` event).
 */
export function checkToolArguments(
  text: string,
  schema: JsonSchema,
  input = parseToolArguments(text),
): ArgumentCheck {
  if (input === undefined) {
    const shown = text.length > 200 ? `${text.slice(0, 200)}…` : text;
    return { ok: false, problem: `arguments are not a JSON object: ${shown}` };
  }
  return checkToolInput(input, schema);
}

/**
 * Checks already parsed arguments (an approval hook's rewrite, say) against `schema`. The schema comes from
 * a server and is typed only by trust: keywords of the wrong shape (`"required": "a"`) are ignored here
 * rather than thrown on, since the registry already refuses such tools and this check is only a first pass.
 */
export function checkToolInput(input: unknown, schema: JsonSchema): ArgumentCheck {
  if (!isRecord(input)) return { ok: false, problem: `arguments are not a JSON object: ${jsonType(input)}` };
  const missing = missingRequired(input, schema);
  if (missing.length > 0)
    return { ok: false, problem: `missing required argument(s): ${missing.join(', ')}` };
  const properties: unknown = schema.properties;
  for (const [name, value] of Object.entries(input)) {
    const property = isRecord(properties) ? properties[name] : undefined;
    const expected = isRecord(property) ? typeOf(property.type) : undefined;
    if (expected === undefined || matchesType(value, expected)) continue;
    return {
      ok: false,
      problem: `argument "${name}" should be ${describe(expected)}, got ${jsonType(value)}`,
    };
  }
  return { ok: true, input };
}

/**
 * The rule for required arguments, the same in `agentwire call` and in a run: the `required` properties
 * absent from `input`, less those whose schema has a `default`. JSON Schema's `default` is an annotation
 * the server applies itself (Playwright's `browser_take_screenshot` requires `scale`, default `css`), so
 * leaving such a property out is the server's to judge, never refused before the server sees the call.
 */
export function missingRequired(input: Record<string, unknown>, schema: JsonSchema): string[] {
  const required: unknown = schema.required;
  const properties: unknown = schema.properties;
  const names = Array.isArray(required) ? required.filter((n): n is string => typeof n === 'string') : [];
  return names.filter((name) => {
    if (Object.hasOwn(input, name)) return false;
    const property = isRecord(properties) && Object.hasOwn(properties, name) ? properties[name] : undefined;
    return !(isRecord(property) && Object.hasOwn(property, 'default'));
  });
}

/** A usable `type` keyword, or undefined for a missing or malformed one. */
function typeOf(type: unknown): string | string[] | undefined {
  if (typeof type === 'string') return type;
  if (Array.isArray(type) && type.every((t) => typeof t === 'string')) return type as string[];
  return undefined;
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
