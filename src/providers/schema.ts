/**
 * Tool input schemas adapted to what model vendors accept. MCP servers send any valid JSON Schema (MCP spec
 * 2025-11-25, "Tools": `inputSchema`); vendors reject some of it: Anthropic refuses `oneOf`/`anyOf`/`allOf`
 * at the root, OpenAI-compatible servers trip over `$ref` and `oneOf`, and both need an object root.
 *
 * Below the root, at every depth: Anthropic checks `input_schema` against the JSON Schema 2020-12
 * meta-schema ("JSON schema is invalid. It must match JSON Schema draft 2020-12"), which refuses draft-04
 * and draft-07 forms servers still send (a list under `items`, a boolean `exclusiveMinimum`); OpenAI
 * refuses any array schema without `items` ("Invalid schema for function …: In context=('properties',
 * 'paths'), array schema missing items", code `invalid_function_parameters`). Both are rewritten in every
 * subschema for both vendors, `items` added for OpenAI only.
 */
import { isRecord, type JsonSchema } from '../core/json.js';

/** Which vendor's rules to apply. */
export type SchemaDialect = 'anthropic' | 'openai';

/**
 * A schema that cannot be adapted (external `$ref`, non-object root, too large once inlined, or a keyword of
 * the wrong shape, such as `"required": "a"`).
 */
export class SchemaConversionError extends Error {
  override name = 'SchemaConversionError';
}

/** Keywords whose value is a map of name → schema. */
const SCHEMA_MAPS = new Set(['properties', 'patternProperties', 'dependentSchemas', '$defs', 'definitions']);
/** Keywords whose value is a list of schemas. */
const SCHEMA_LISTS = new Set(['anyOf', 'oneOf', 'allOf', 'prefixItems']);
/** Keywords whose value is one schema (or, for draft-04 `items`, a list). */
const SCHEMA_SINGLES = new Set([
  'items',
  'additionalItems',
  'additionalProperties',
  'unevaluatedItems',
  'unevaluatedProperties',
  'not',
  'if',
  'then',
  'else',
  'contains',
  'propertyNames',
]);

/** Upper bound on schema nodes after inlining, so a diamond of `$ref`s cannot blow up exponentially. */
const MAX_NODES = 20_000;

/**
 * Returns a new schema, the input untouched:
 * - local `$ref`s (`#/$defs/X`, `#/definitions/X`, any `#/…` pointer) inlined, siblings of `$ref` kept;
 *   a reference back into itself (a recursive schema) becomes `{}` (any value) at the point of recursion;
 * - `$defs`, `definitions`, and the root's `$schema` / `$id` dropped;
 * - a root `anyOf`/`oneOf`/`allOf` of object schemas merged into one object (properties united; `required`
 *   united for `allOf`, intersected for the others);
 * - the root forced to `type: "object"` with `properties` present;
 * - for `openai`, `oneOf` rewritten to `anyOf` everywhere (OpenAI's function schemas accept only `anyOf`);
 * - in every subschema, draft-04/07 forms in their 2020-12 spelling: `items: [a, b]` (with `additionalItems:
 *   c`) as `prefixItems: [a, b]` (and `items: c`), `exclusiveMinimum: true` with `minimum: n` as
 *   `exclusiveMinimum: n` (a `false` one dropped), the same for `exclusiveMaximum`;
 * - for `openai`, `items: {}` added to every array schema without `items` (any item, as JSON Schema means).
 *
 * Data keywords (`enum`, `const`, `default`, `examples`) are copied verbatim.
 *
 * @throws {SchemaConversionError} on a `$ref` outside the document, a root that is not an object, a
 *   schema over 20,000 nodes once inlined, or a subschema whose `type`, `properties` or `required` has a
 *   shape JSON Schema does not allow (message names the keyword and its JSON Pointer, e.g.
 *   `"required" at #/ must be an array of strings (got string)`). Servers do send such schemas, and a
 *   vendor would refuse the whole request, or the argument check would trip over it.
 */
export function normalizeSchema(schema: JsonSchema, dialect: SchemaDialect): JsonSchema {
  const state = { root: schema, nodes: 0, dialect };
  const inlined = walk(schema, state, [], '#');
  const root = isRecord(inlined) ? inlined : {};
  delete root.$schema;
  delete root.$id;
  return forceObjectRoot(mergeRootUnion(root));
}

interface WalkState {
  root: JsonSchema;
  nodes: number;
  dialect: SchemaDialect;
}

/** `at` is the node's JSON Pointer in the document (`#/properties/a`), for error messages. */
function walk(node: unknown, state: WalkState, refStack: readonly string[], at: string): unknown {
  if (!isRecord(node)) return node;
  state.nodes += 1;
  if (state.nodes > MAX_NODES) {
    throw new SchemaConversionError(`schema has more than ${MAX_NODES} nodes once $refs are inlined`);
  }
  if (typeof node.$ref === 'string') return inlineRef(node, node.$ref, state, refStack, at);
  checkShape(node, at);
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(node)) {
    if (key === '$defs' || key === 'definitions') continue;
    const outKey = key === 'oneOf' && state.dialect === 'openai' ? 'anyOf' : key;
    out[outKey] = walkKeyword(key, value, state, refStack, `${at}/${key}`);
  }
  return to202012(out, state.dialect);
}

/** One subschema's draft-04/07 keywords in their JSON Schema 2020-12 form (see {@link normalizeSchema}). */
function to202012(node: Record<string, unknown>, dialect: SchemaDialect): Record<string, unknown> {
  if (Array.isArray(node.items)) {
    const { items, additionalItems, ...rest } = node;
    node = { ...rest, prefixItems: items };
    if (additionalItems !== undefined) node.items = additionalItems;
  }
  for (const [exclusive, bound] of [
    ['exclusiveMinimum', 'minimum'],
    ['exclusiveMaximum', 'maximum'],
  ] as const) {
    if (typeof node[exclusive] !== 'boolean') continue;
    const { [exclusive]: flag, ...rest } = node;
    node = rest;
    if (flag === true && typeof node[bound] === 'number') {
      node[exclusive] = node[bound];
      delete node[bound];
    }
  }
  const type = node.type;
  const isArray = type === 'array' || (Array.isArray(type) && type.includes('array'));
  if (dialect === 'openai' && isArray && node.items === undefined) node.items = {};
  return node;
}

function walkKeyword(
  key: string,
  value: unknown,
  state: WalkState,
  refStack: readonly string[],
  at: string,
): unknown {
  if (SCHEMA_MAPS.has(key) && isRecord(value)) {
    return Object.fromEntries(
      Object.entries(value).map(([k, v]) => [k, walk(v, state, refStack, `${at}/${k}`)]),
    );
  }
  if ((SCHEMA_LISTS.has(key) || SCHEMA_SINGLES.has(key)) && Array.isArray(value)) {
    return value.map((v, i) => walk(v, state, refStack, `${at}/${i}`));
  }
  if (SCHEMA_SINGLES.has(key)) return walk(value, state, refStack, at);
  return value;
}

/**
 * The keywords every consumer reads (the vendors, and agentwire's own argument check) must have the shape
 * JSON Schema 2020-12 gives them: `type` a string or an array of strings, `properties` an object of
 * schemas (objects or booleans), `required` an array of strings.
 */
function checkShape(node: Record<string, unknown>, at: string): void {
  const { type, properties, required } = node;
  if (type !== undefined && typeof type !== 'string' && !isStringArray(type)) {
    throw shapeError('type', at, 'a string or an array of strings', type);
  }
  if (properties !== undefined) {
    if (!isRecord(properties)) throw shapeError('properties', at, 'an object', properties);
    for (const [name, schema] of Object.entries(properties)) {
      if (!isRecord(schema) && typeof schema !== 'boolean') {
        throw shapeError('properties', at, `an object of schemas ("${name}" is not one)`, schema);
      }
    }
  }
  if (required !== undefined && !isStringArray(required)) {
    throw shapeError('required', at, 'an array of strings', required);
  }
}

function isStringArray(value: unknown): value is string[] {
  return Array.isArray(value) && value.every((item) => typeof item === 'string');
}

function shapeError(keyword: string, at: string, expected: string, got: unknown): SchemaConversionError {
  const kind = got === null ? 'null' : Array.isArray(got) ? 'an array' : typeof got;
  const where = at === '#' ? '#/' : at;
  return new SchemaConversionError(`"${keyword}" at ${where} must be ${expected} (got ${kind})`);
}

function inlineRef(
  node: Record<string, unknown>,
  ref: string,
  state: WalkState,
  refStack: readonly string[],
  at: string,
) {
  const { $ref: _ref, ...siblings } = node;
  if (refStack.includes(ref)) return walk(siblings, state, refStack, at);
  const target = resolvePointer(state.root, ref);
  const resolved = walk(target, state, [...refStack, ref], ref);
  const walkedSiblings = walk(siblings, state, refStack, at);
  return isRecord(resolved) && isRecord(walkedSiblings) ? { ...resolved, ...walkedSiblings } : resolved;
}

/** Resolves a local JSON Pointer reference (RFC 6901) against the document root. */
function resolvePointer(root: JsonSchema, ref: string): unknown {
  if (ref !== '#' && !ref.startsWith('#/')) {
    throw new SchemaConversionError(
      `cannot resolve $ref "${ref}": only local references (#/...) are supported`,
    );
  }
  let current: unknown = root;
  const tokens = ref === '#' ? [] : ref.slice(2).split('/');
  for (const raw of tokens) {
    const token = decodeURIComponent(raw).replace(/~1/g, '/').replace(/~0/g, '~');
    current = isRecord(current)
      ? current[token]
      : Array.isArray(current)
        ? current[Number(token)]
        : undefined;
    if (current === undefined) throw new SchemaConversionError(`$ref "${ref}" points at nothing`);
  }
  return current;
}

function mergeRootUnion(root: Record<string, unknown>): Record<string, unknown> {
  for (const keyword of ['allOf', 'anyOf', 'oneOf'] as const) {
    const branches = root[keyword];
    if (!Array.isArray(branches)) continue;
    if (!branches.every(isObjectSchema)) {
      throw new SchemaConversionError(`root ${keyword} has a branch that is not an object schema`);
    }
    const { [keyword]: _removed, ...rest } = root;
    return mergeRootUnion(mergeObjects(rest, branches, keyword === 'allOf'));
  }
  return root;
}

function isObjectSchema(value: unknown): value is Record<string, unknown> {
  return isRecord(value) && (value.type === 'object' || (value.type === undefined && 'properties' in value));
}

function mergeObjects(base: Record<string, unknown>, branches: Record<string, unknown>[], all: boolean) {
  const properties: Record<string, unknown> = isRecord(base.properties) ? { ...base.properties } : {};
  const requiredSets = branches.map((b) => new Set(stringList(b.required)));
  for (const branch of branches) {
    if (!isRecord(branch.properties)) continue;
    for (const [name, schema] of Object.entries(branch.properties)) {
      if (!(name in properties)) properties[name] = schema;
    }
  }
  const branchRequired = all
    ? requiredSets.flatMap((s) => [...s])
    : [...(requiredSets[0] ?? [])].filter((name) => requiredSets.every((s) => s.has(name)));
  const required = [...new Set([...stringList(base.required), ...branchRequired])];
  const merged: Record<string, unknown> = { ...base, type: 'object', properties };
  if (required.length > 0) merged.required = required;
  else delete merged.required;
  return merged;
}

function stringList(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
}

function forceObjectRoot(root: Record<string, unknown>): JsonSchema {
  const type = root.type;
  const objectType =
    type === undefined || type === 'object' || (Array.isArray(type) && type.includes('object'));
  if (!objectType) {
    throw new SchemaConversionError(`root schema has type ${JSON.stringify(type)}; tools take an object`);
  }
  // Every value under `properties` went through `walk`, so it is a schema (or was garbage kept as is).
  const properties = (isRecord(root.properties) ? root.properties : {}) as Record<string, JsonSchema>;
  return { ...root, type: 'object', properties };
}
