/**
 * The request metadata headers of Streamable HTTP in MCP 2026-07-28 (SEP-2243; MCP spec 2026-07-28,
 * "Transports > Streamable HTTP > Request Metadata"): which JSON-RPC body fields a POST mirrors into
 * headers, and how. Pure functions, no transport:
 * - {@link scanMcpHeaderDeclarations}: the `x-mcp-header` declarations of a tool's `inputSchema`, or why the
 *   tool definition is invalid ("Custom Headers from Tool Parameters > Schema Extension");
 * - {@link mcpParamHeaders}: the `Mcp-Param-{Name}` headers of one `tools/call` ("Client Behavior");
 * - {@link encodeMcpHeaderValue}: plain value or Base64 sentinel ("Value Encoding");
 * - {@link standardMcpHeaders}: `MCP-Protocol-Version`, `Mcp-Method`, `Mcp-Name` of one request
 *   ("Protocol Version Header", "Standard Request Headers").
 * Header names are returned lower-cased (HTTP field names are case-insensitive, "Case Sensitivity"), except
 * that the `{Name}` of `Mcp-Param-{Name}` keeps the case it was declared with.
 */

/** The `_meta` key carrying a 2026-era request's protocol version (MCP spec 2026-07-28, "Versioning"). */
export const PROTOCOL_VERSION_META_KEY = 'io.modelcontextprotocol/protocolVersion';

/** The first protocol revision with per-request metadata instead of `initialize`. */
export const FIRST_MODERN_PROTOCOL_VERSION = '2026-07-28';

/** The schema-extension property naming a parameter's header. */
export const X_MCP_HEADER = 'x-mcp-header';

/** One `x-mcp-header` declaration of a tool's `inputSchema`. */
export interface McpHeaderDeclaration {
  /** The chain of `properties` keys from the arguments root to the annotated property. */
  readonly path: readonly string[];
  /** The `{Name}` of `Mcp-Param-{Name}`, as declared (compared case-insensitively). */
  readonly name: string;
  /** The property's JSON Schema `type`. */
  readonly type: 'string' | 'integer' | 'boolean';
}

/** What {@link scanMcpHeaderDeclarations} found: the declarations, or the first violated constraint. */
export type McpHeaderScan =
  | { readonly valid: true; readonly declarations: readonly McpHeaderDeclaration[] }
  | { readonly valid: false; readonly reason: string };

/** RFC 9110 section 5.1 field-name `token` (`1*tchar`): no empty name, space, control character or delimiter. */
const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;

const PRIMITIVE_TYPES: ReadonlySet<string> = new Set(['string', 'integer', 'boolean']);

/**
 * Keywords whose subschemas are not reachable through a chain of `properties` keys: array keywords,
 * composition, conditionals, and `$defs` (where a `$ref` points). An annotation under any of them makes the
 * tool definition invalid ("an `x-mcp-header` annotation anywhere else makes the annotation — and thus the
 * tool definition — invalid"), so they are walked only to find one.
 */
const UNREACHABLE_KEYWORDS = [
  'items',
  'prefixItems',
  'contains',
  'additionalItems',
  'additionalProperties',
  'unevaluatedProperties',
  'unevaluatedItems',
  'propertyNames',
  'patternProperties',
  'dependentSchemas',
  'dependencies',
  'oneOf',
  'anyOf',
  'allOf',
  'not',
  'if',
  'then',
  'else',
  '$defs',
  'definitions',
] as const;

/** Of {@link UNREACHABLE_KEYWORDS}, those whose value maps names to subschemas. */
const MAP_KEYWORDS: ReadonlySet<string> = new Set([
  'patternProperties',
  'dependentSchemas',
  'dependencies',
  '$defs',
  'definitions',
]);

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function where(path: readonly string[]): string {
  return path.length === 0 ? 'the schema root' : `property "${path.join('.')}"`;
}

/**
 * The `x-mcp-header` declarations of `inputSchema`, checked against every constraint of MCP spec 2026-07-28,
 * "Transports > Streamable HTTP > Custom Headers from Tool Parameters > Schema Extension" (and "Server
 * Features > Tools > x-mcp-header"): a non-empty RFC 9110 token (which excludes control characters, CR and
 * LF), case-insensitively unique in the schema, on a property of type `string`, `integer` or `boolean` (not
 * `number`, not a list of types), reached from the root through `properties` keys only (never through
 * `items`, `oneOf`/`anyOf`/`allOf`/`not`, `if`/`then`/`else` or a `$ref` target). A tool whose scan is
 * invalid MUST be left out of `tools/list` by an HTTP client, which SHOULD warn with the tool's name and
 * `reason`. `$ref` is not followed: an annotation in `$defs` is rejected, and an annotated property that is a
 * bare `$ref` has no primitive `type`. Never throws.
 */
export function scanMcpHeaderDeclarations(inputSchema: unknown): McpHeaderScan {
  const declarations: McpHeaderDeclaration[] = [];
  const seen = new Map<string, string>();

  const visit = (node: unknown, path: readonly string[], reachable: boolean): string | undefined => {
    if (!isObject(node)) return undefined;
    if (X_MCP_HEADER in node) {
      const fault = declaration(node, path, reachable);
      if (fault !== undefined) return fault;
    }
    if (isObject(node.properties)) {
      for (const [key, child] of Object.entries(node.properties)) {
        const fault = visit(child, [...path, key], reachable);
        if (fault !== undefined) return fault;
      }
    }
    for (const keyword of UNREACHABLE_KEYWORDS) {
      const sub = node[keyword];
      if (sub === undefined) continue;
      const branches = Array.isArray(sub)
        ? sub
        : MAP_KEYWORDS.has(keyword) && isObject(sub)
          ? Object.values(sub)
          : [sub];
      for (const branch of branches) {
        const fault = visit(branch, [...path, keyword], false);
        if (fault !== undefined) return fault;
      }
    }
    return undefined;
  };

  const declaration = (
    node: Record<string, unknown>,
    path: readonly string[],
    reachable: boolean,
  ): string | undefined => {
    if (!reachable || path.length === 0) {
      return `x-mcp-header at ${where(path)} is not on a property reached through "properties" keys only`;
    }
    const name = node[X_MCP_HEADER];
    if (typeof name !== 'string' || name === '') {
      return `x-mcp-header of ${where(path)} must be a non-empty string`;
    }
    if (!TOKEN.test(name)) {
      return `x-mcp-header ${JSON.stringify(name)} of ${where(path)} is not an HTTP field-name token (RFC 9110)`;
    }
    const type = node.type;
    if (typeof type !== 'string' || !PRIMITIVE_TYPES.has(type)) {
      const got = typeof type === 'string' ? type : JSON.stringify(type ?? null);
      return `x-mcp-header "${name}" is on ${where(path)} of type ${got}; only string, integer and boolean are allowed`;
    }
    const lower = name.toLowerCase();
    const earlier = seen.get(lower);
    if (earlier !== undefined) {
      return `x-mcp-header "${name}" of ${where(path)} duplicates "${earlier}" (names are case-insensitive)`;
    }
    seen.set(lower, name);
    declarations.push({ path, name, type: type as McpHeaderDeclaration['type'] });
    return undefined;
  };

  const fault = visit(inputSchema, [], true);
  return fault === undefined ? { valid: true, declarations } : { valid: false, reason: fault };
}

/**
 * A primitive argument as a header string (MCP spec 2026-07-28, "Value Encoding > Type conversion"): a
 * string as-is, an integer in decimal (`42`, `-7`), a boolean as `true` / `false`. `undefined` for anything
 * else, which sends no header: `null`, absent, objects, arrays, non-integer numbers, and integers outside
 * JavaScript's safe range (-2^53+1 to 2^53-1, "Schema Extension").
 */
export function mcpHeaderString(value: unknown): string | undefined {
  if (typeof value === 'string') return value;
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  if (typeof value === 'number' && Number.isSafeInteger(value)) return String(value);
  return undefined;
}

const SENTINEL_PREFIX = '=?base64?';
const SENTINEL_SUFFIX = '?=';

/**
 * Whether `value` needs the Base64 sentinel: it is empty (an empty field value would not survive), has
 * leading or trailing whitespace (field parsing strips it), holds a character outside visible ASCII, space
 * and interior horizontal tab (RFC 9110 field values: non-ASCII, control characters, CR, LF), or already
 * looks like the sentinel (spec: "to avoid ambiguity").
 */
function needsBase64(value: string): boolean {
  if (value === '' || value !== value.trim()) return true;
  if (value.startsWith(SENTINEL_PREFIX) && value.endsWith(SENTINEL_SUFFIX)) return true;
  for (let index = 0; index < value.length; index++) {
    const code = value.charCodeAt(index);
    if (code !== 0x09 && (code < 0x20 || code > 0x7e)) return true;
  }
  return false;
}

/**
 * A header value for `value` (MCP spec 2026-07-28, "Transports > Streamable HTTP > Value Encoding"): as-is
 * when it is a safe plain ASCII field value, else `=?base64?{Base64 of its UTF-8}?=` (markers lowercase).
 * Applies to `Mcp-Name` and `Mcp-Param-{Name}`. E.g. `us-west1` → `us-west1`, `Hello, 世界` →
 * `=?base64?SGVsbG8sIOS4lueVjA==?=`.
 */
export function encodeMcpHeaderValue(value: string): string {
  if (!needsBase64(value)) return value;
  return `${SENTINEL_PREFIX}${Buffer.from(value, 'utf8').toString('base64')}${SENTINEL_SUFFIX}`;
}

function valueAt(root: unknown, path: readonly string[]): unknown {
  let node = root;
  for (const key of path) {
    if (!isObject(node) || !Object.hasOwn(node, key)) return undefined;
    node = node[key];
  }
  return node;
}

/**
 * The `Mcp-Param-{Name}` headers of one `tools/call` (MCP spec 2026-07-28, "Custom Headers from Tool
 * Parameters > Client Behavior", steps 3 to 5): for each declaration of a valid scan, the argument at its
 * exact property path, converted ({@link mcpHeaderString}) and encoded ({@link encodeMcpHeaderValue}). A
 * `null` or absent value gives no header (the spec's "Client MUST omit the header" rows), as does one that
 * cannot be converted. Keys are `mcp-param-{Name}`, `{Name}` as declared.
 */
export function mcpParamHeaders(
  declarations: readonly McpHeaderDeclaration[],
  args: Readonly<Record<string, unknown>> | undefined,
): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const declaration of declarations) {
    const text = mcpHeaderString(valueAt(args, declaration.path));
    if (text !== undefined) headers[`mcp-param-${declaration.name}`] = encodeMcpHeaderValue(text);
  }
  return headers;
}

/**
 * The body field `Mcp-Name` mirrors, per method: `params.name` for `tools/call` and `prompts/get`,
 * `params.uri` for `resources/read` (MCP spec 2026-07-28, "Standard Request Headers"), and `params.taskId`
 * for `tasks/get`, `tasks/update` and `tasks/cancel` (the tasks extension's Streamable HTTP binding,
 * SEP-2663; servers built with the official SDK check it).
 */
export const MCP_NAME_SOURCE: Readonly<Record<string, 'name' | 'uri' | 'taskId'>> = {
  'tools/call': 'name',
  'prompts/get': 'name',
  'resources/read': 'uri',
  'tasks/get': 'taskId',
  'tasks/update': 'taskId',
  'tasks/cancel': 'taskId',
};

/**
 * The protocol version a request's `_meta` envelope names when it is a 2026-era one
 * (`io.modelcontextprotocol/protocolVersion`, at or after {@link FIRST_MODERN_PROTOCOL_VERSION}; revisions
 * are dates, so they compare as strings); `undefined` for a 2025-era request, which has no envelope.
 */
export function modernEnvelopeVersion(params: unknown): string | undefined {
  const meta = isObject(params) ? params._meta : undefined;
  const version = isObject(meta) ? meta[PROTOCOL_VERSION_META_KEY] : undefined;
  return typeof version === 'string' && version >= FIRST_MODERN_PROTOCOL_VERSION ? version : undefined;
}

/**
 * The standard headers of one 2026-era request (MCP spec 2026-07-28, "Transports > Streamable HTTP >
 * Request Metadata"): `mcp-protocol-version` from the body's envelope (it MUST match it), `mcp-method`, and
 * `mcp-name` from {@link MCP_NAME_SOURCE} (encoded; none when the field is not a string). `undefined` when
 * the request carries no 2026-era envelope.
 */
export function standardMcpHeaders(method: string, params: unknown): Record<string, string> | undefined {
  const version = modernEnvelopeVersion(params);
  if (version === undefined) return undefined;
  const headers: Record<string, string> = { 'mcp-protocol-version': version, 'mcp-method': method };
  const field = Object.hasOwn(MCP_NAME_SOURCE, method) ? MCP_NAME_SOURCE[method] : undefined;
  const name = field !== undefined && isObject(params) ? params[field] : undefined;
  if (typeof name === 'string') headers['mcp-name'] = encodeMcpHeaderValue(name);
  return headers;
}
