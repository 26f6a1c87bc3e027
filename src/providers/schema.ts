/**
 * Tool input schemas adapted to what model vendors accept. MCP servers send any valid JSON Schema (MCP spec
 * 2025-11-25, "Tools": `inputSchema`); vendors reject some of it: Anthropic refuses `oneOf`/`anyOf`/`allOf`
 * at the root, OpenAI-compatible servers trip over `$ref` and `oneOf`, and both need an object root.
 */
import { isRecord, type JsonSchema } from '../core/json.js';

/** Which vendor's rules to apply. */
export type SchemaDialect = 'anthropic' | 'openai';

/** A schema that cannot be adapted (external `$ref`, non-object root, too large once inlined). */
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
 * - for `openai`, `oneOf` rewritten to `anyOf` everywhere (OpenAI's function schemas accept only `anyOf`).
 *
 * Data keywords (`enum`, `const`, `default`, `examples`) are copied verbatim.
 *
 * @throws {SchemaConversionError} on a `$ref` outside the document, a root that is not an object, or a
 *   schema over 20,000 nodes once inlined.
 */
export function normalizeSchema(schema: JsonSchema, dialect: SchemaDialect): JsonSchema {
  const state = { root: schema, nodes: 0, dialect };
  const inlined = walk(schema, state, []);
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

function walk(node: unknown, state: WalkState, refStack: readonly string[]): unknown {
  if (!isRecord(node)) return node;
  state.nodes += 1;
  if (state.nodes > MAX_NODES) {
    throw new SchemaConversionError(`schema has more than ${MAX_NODES} nodes once $refs are inlined`);
  }
  if (typeof node.$ref === 'string') return inlineRef(node, node.$ref, state, refStack);
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(node)) {
    if (key === '$defs' || key === 'definitions') continue;
    const outKey = key === 'oneOf' && state.dialect === 'openai' ? 'anyOf' : key;
    out[outKey] = walkKeyword(key, value, state, refStack);
  }
  return out;
}

function walkKeyword(key: string, value: unknown, state: WalkState, refStack: readonly string[]): unknown {
  if (SCHEMA_MAPS.has(key) && isRecord(value)) {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, walk(v, state, refStack)]));
  }
  if ((SCHEMA_LISTS.has(key) || SCHEMA_SINGLES.has(key)) && Array.isArray(value)) {
    return value.map((v) => walk(v, state, refStack));
  }
  if (SCHEMA_SINGLES.has(key)) return walk(value, state, refStack);
  return value;
}

function inlineRef(
  node: Record<string, unknown>,
  ref: string,
  state: WalkState,
  refStack: readonly string[],
) {
  const { $ref: _ref, ...siblings } = node;
  if (refStack.includes(ref)) return walk(siblings, state, refStack);
  const target = resolvePointer(state.root, ref);
  const resolved = walk(target, state, [...refStack, ref]);
  const walkedSiblings = walk(siblings, state, refStack);
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
