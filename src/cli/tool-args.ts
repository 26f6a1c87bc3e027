/**
 * The arguments of `agentwire call <tool> …` as people type them: `key=value` words, each value typed by
 * the tool's input schema (a number, a boolean, JSON for an object or array, else the text itself); `-`
 * for a JSON object on stdin; or one JSON object word, as scripts write it. Tool input is always an object
 * (MCP spec 2025-11-25, "Server Features > Tools", `arguments`).
 */
import { isRecord } from '../core/json.js';
import type { CliIo } from './io.js';
import { parseJsonArgs } from './json-args.js';
import { UsageError } from './usage-error.js';

/** The arguments as given, checked for shape before any server is started. */
export type ToolArgs =
  | { kind: 'object'; value: Record<string, unknown> }
  | { kind: 'stdin' }
  | { kind: 'pairs'; pairs: readonly (readonly [string, string])[] };

/**
 * Reads the words after the tool's name: none → `{}`; `-` → JSON on stdin; `key=value` words; or a single
 * word that is a JSON object.
 * @throws UsageError for a word that is neither `key=value` nor the lone JSON object (or `-`), an empty
 *   key, a key given twice, or a JSON word that does not parse or is not an object.
 */
export function parseToolArgs(words: readonly string[]): ToolArgs {
  if (words.length === 0) return { kind: 'object', value: {} };
  if (words.length === 1 && words[0] === '-') return { kind: 'stdin' };
  const first = words[0]!;
  if (words.length === 1 && /^\s*[[{]/.test(first)) return { kind: 'object', value: parseJsonArgs(first) };
  return { kind: 'pairs', pairs: parsePairs(words, 'the tool arguments') };
}

/**
 * `key=value` words as pairs, in order.
 * @param what names the words in errors (`the tool arguments`, `the prompt arguments`).
 * @throws UsageError as {@link parseToolArgs} says.
 */
export function parsePairs(words: readonly string[], what: string): [string, string][] {
  const seen = new Set<string>();
  return words.map((word) => {
    const eq = word.indexOf('=');
    if (eq < 0 || word.trimStart().startsWith('{')) {
      throw new UsageError(
        `${what}: expected key=value words, a JSON object or "-" for JSON on stdin, got "${clip(word)}"`,
      );
    }
    const key = word.slice(0, eq);
    if (key === '') throw new UsageError(`${what}: "${clip(word)}" has no key before "="`);
    if (seen.has(key)) throw new UsageError(`${what}: "${key}" is given twice`);
    seen.add(key);
    return [key, word.slice(eq + 1)] as [string, string];
  });
}

/**
 * All of stdin, for `-`.
 * @throws UsageError when the CLI has no stdin to read (`CliIo.stdin` absent).
 */
export function readStdin(io: CliIo): Promise<string> {
  if (!io.stdin) throw new UsageError('"-" reads the tool arguments from stdin, and there is none here');
  return io.stdin();
}

/** Parses the JSON read from stdin for `-`, with the same checks as the JSON word. */
export function stdinArgs(text: string): Record<string, unknown> {
  if (text.trim() === '') throw new UsageError('the tool arguments on stdin ("-") are empty');
  return parseJsonArgs(text);
}

/**
 * The pairs as the tool's input, each value typed by its property's schema: `string` keeps the text;
 * `number` / `integer` / `boolean` / `null` parse it; `object` / `array` read it as JSON; a property
 * without a type takes JSON when the text is JSON, else the text.
 * @throws UsageError naming the argument and the type expected when the text is not of it, and for a key
 *   the schema does not know when it allows no other (`additionalProperties: false`).
 */
export function typedArgs(
  pairs: readonly (readonly [string, string])[],
  schema: Record<string, unknown>,
  tool: string,
): Record<string, unknown> {
  const properties = isRecord(schema.properties) ? schema.properties : {};
  const input: Record<string, unknown> = {};
  for (const [key, text] of pairs) {
    const property = Object.hasOwn(properties, key) ? properties[key] : undefined;
    if (property === undefined && schema.additionalProperties === false) {
      const known = Object.keys(properties).join(', ') || 'none';
      throw new UsageError(`tool "${tool}" has no parameter "${key}" (parameters: ${known})`);
    }
    input[key] = typedValue(text, typesOf(property), () => `argument "${key}" of tool "${tool}"`);
  }
  return input;
}

/**
 * A JSON object given as the tool's input (the `{…}` word or `-`), checked against the tool's schema as
 * key=value words are: a key the schema does not know when it allows no other (`additionalProperties:
 * false`), and a value not of its property's type, are refused with the same messages. Required
 * properties are not checked here (`missingRequired` does, leaving those with a `default` to the server).
 * @throws UsageError as {@link typedArgs} does.
 */
export function checkedArgs(
  input: Record<string, unknown>,
  schema: Record<string, unknown>,
  tool: string,
): Record<string, unknown> {
  const properties = isRecord(schema.properties) ? schema.properties : {};
  for (const [key, value] of Object.entries(input)) {
    const property = Object.hasOwn(properties, key) ? properties[key] : undefined;
    if (property === undefined && schema.additionalProperties === false) {
      const known = Object.keys(properties).join(', ') || 'none';
      throw new UsageError(`tool "${tool}" has no parameter "${key}" (parameters: ${known})`);
    }
    const types = typesOf(property);
    if (
      types.size > 0 &&
      !types.has(jsonTypeOf(value)) &&
      !(types.has('number') && typeof value === 'number')
    ) {
      const text = typeof value === 'string' ? value : JSON.stringify(value);
      throw new UsageError(
        `argument "${key}" of tool "${tool}" expects ${describeTypes(types)}, got "${clip(text)}"`,
      );
    }
  }
  return input;
}

/** The JSON type of a parsed value (`integer` for a whole number). */
function jsonTypeOf(value: unknown): JsonType {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
  if (typeof value === 'boolean') return 'boolean';
  if (typeof value === 'string') return 'string';
  return 'object';
}

type JsonType = 'string' | 'number' | 'integer' | 'boolean' | 'null' | 'object' | 'array';
const JSON_TYPES = new Set<string>(['string', 'number', 'integer', 'boolean', 'null', 'object', 'array']);

/** The JSON types a property schema allows; empty when it does not say (any value). */
function typesOf(schema: unknown): Set<JsonType> {
  const types = new Set<JsonType>();
  if (!isRecord(schema)) return types;
  const add = (type: unknown) => {
    if (typeof type === 'string' && JSON_TYPES.has(type)) types.add(type as JsonType);
  };
  if (Array.isArray(schema.type)) schema.type.forEach(add);
  else add(schema.type);
  const values = Array.isArray(schema.enum) ? schema.enum : 'const' in schema ? [schema.const] : [];
  for (const value of values) add(value === null ? 'null' : Array.isArray(value) ? 'array' : typeof value);
  for (const branch of [schema.anyOf, schema.oneOf].filter(Array.isArray).flat()) {
    for (const type of typesOf(branch)) types.add(type);
  }
  return types;
}

function typedValue(text: string, types: Set<JsonType>, name: () => string): unknown {
  if (types.size === 0) return parsedOr(text, text);
  if (types.has('string')) return text;
  const number = Number(text);
  const numeric = text.trim() !== '' && Number.isFinite(number);
  if (types.has('integer') && numeric && Number.isInteger(number)) return number;
  if (types.has('number') && numeric) return number;
  if (types.has('boolean') && (text === 'true' || text === 'false')) return text === 'true';
  if (types.has('null') && text === 'null') return null;
  if (types.has('object') || types.has('array')) {
    const value = parsedOr(text, undefined);
    if (types.has('object') && isRecord(value)) return value;
    if (types.has('array') && Array.isArray(value)) return value;
  }
  throw new UsageError(`${name()} expects ${describeTypes(types)}, got "${clip(text)}"`);
}

function parsedOr<T>(text: string, fallback: T): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return fallback;
  }
}

const TYPE_NAMES: Record<JsonType, string> = {
  string: 'a string',
  number: 'a number',
  integer: 'a whole number',
  boolean: 'true or false',
  null: 'null',
  object: 'a JSON object',
  array: 'a JSON array',
};

function describeTypes(types: Set<JsonType>): string {
  const names = [...types].map((type) => TYPE_NAMES[type]);
  return names.length === 1 ? names[0]! : `${names.slice(0, -1).join(', ')} or ${names.at(-1)}`;
}

/** A word quoted in a message, cut to 60 characters. */
function clip(word: string): string {
  return word.length > 60 ? `${word.slice(0, 59)}…` : word;
}
