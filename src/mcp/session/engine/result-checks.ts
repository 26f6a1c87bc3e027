/**
 * Result checks handed to the SDK's protocol layer in place of its zod schemas.
 *
 * Why: the SDK validates every result against a full zod schema, which is most of its per-call cost
 * (SDK-NOTES: v2's per-call cost is about twice v1's). A result that comes from the wire has already been
 * parsed as JSON-RPC; what protects the caller is that the fields we read have the types we read them as.
 * These checks look at exactly those fields and leave everything else as the server sent it.
 */
import type { StandardSchemaV1 } from '@modelcontextprotocol/client';
import { isRecord } from '../../../core/json.js';
import type { CallToolResult, MCPToolDefinition } from '../../protocol/types.js';
import { invalidResult, resultOf } from '../wire/calls.js';

/**
 * One page of a list result (`tools/list`, `resources/list`, …): the items under `key`, and the cursor for the
 * next page (`null`, as some servers send it, ends the list like an absent one).
 */
export type ListPage<T> = { nextCursor?: string | null } & Record<string, T[] | string | null | undefined>;

/** Why `nextCursor` cannot be read as a cursor; a string, `null` and absence can (pagination.ts). */
function cursorProblem(cursor: unknown): string | undefined {
  return cursor === undefined || cursor === null || typeof cursor === 'string'
    ? undefined
    : '"nextCursor" is not a string';
}

/** Checks a page of `resources/list`, `prompts/list`…: `key` is an array of objects. */
export function listPageSchema<T>(key: string): StandardSchemaV1<unknown, ListPage<T>> {
  return schema<ListPage<T>>((value) => {
    if (!isRecord(value)) return 'result is not an object';
    const items = value[key];
    if (!Array.isArray(items)) return `"${key}" is not an array`;
    if (items.some((item) => !isRecord(item))) return `"${key}" holds a non-object`;
    return cursorProblem(value.nextCursor);
  });
}

/** Checks that a result is an object holding an array under `key` (`resources/read`, `prompts/get`). */
export function objectWithArraySchema<T>(key: string): StandardSchemaV1<unknown, T> {
  return schema<T>((value) => {
    if (!isRecord(value)) return 'result is not an object';
    return Array.isArray(value[key]) ? undefined : `"${key}" is not an array`;
  });
}

/** Checks that a result is an object (empty results: `resources/subscribe`, `logging/setLevel`, `ping`). */
export const anyObjectSchema = schema<Record<string, unknown>>((value) =>
  isRecord(value) ? undefined : 'result is not an object',
);

/** A check of the fields read, as a Standard Schema: `check` returns the problem, or undefined. */
export function structuralSchema<T>(
  check: (value: unknown) => string | undefined,
): StandardSchemaV1<unknown, T> {
  return schema(check);
}

function schema<T>(check: (value: unknown) => string | undefined): StandardSchemaV1<unknown, T> {
  return {
    '~standard': {
      version: 1,
      vendor: 'agentwire',
      validate(value: unknown) {
        const problem = check(value);
        return problem === undefined ? { value: value as T } : { issues: [{ message: problem }] };
      },
    },
  };
}

/** Checks a `tools/call` result: `content` an array of objects with a string `type`. */
export const callToolResultSchema = schema<CallToolResult>(callToolProblem);

/** What is wrong with a `tools/call` result, or undefined (see {@link callToolResultSchema}). */
function callToolProblem(value: unknown): string | undefined {
  if (!isRecord(value)) return 'result is not an object';
  const { content, structuredContent, isError } = value;
  // 2025-06-18+ servers may omit content when they return structuredContent; normalise in the caller.
  if (content !== undefined) {
    if (!Array.isArray(content)) return '"content" is not an array';
    for (let index = 0; index < content.length; index++) {
      const block: unknown = content[index];
      if (!isRecord(block) || typeof block.type !== 'string') return `content[${index}] has no string "type"`;
    }
  }
  if (structuredContent !== undefined && !isRecord(structuredContent))
    return '"structuredContent" is not an object';
  if (isError !== undefined && typeof isError !== 'boolean') return '"isError" is not a boolean';
  return undefined;
}

/**
 * A `tools/call` result checked by {@link callToolResultSchema}, synchronously, as the direct path decodes
 * it (one function, not one per call).
 * @throws SdkError `InvalidResult`, worded as the SDK words it (wire/calls.ts `invalidResult`).
 */
export function decodeCallToolResult(result: unknown): CallToolResult {
  const value = resultOf(result);
  const problem = callToolProblem(value);
  if (problem !== undefined) throw invalidResult('tools/call', problem);
  return value as CallToolResult;
}

/** A listed tool left out because its definition cannot be used: its name (or place) and why. */
export interface InvalidToolDefinition {
  /** The tool's name; for a tool without a string name, `#<index>` (its place in the page, from 0). */
  name: string;
  /** What is wrong, e.g. `"inputSchema" is null, not an object`. */
  reason: string;
}

/** What is wrong with one listed tool, or undefined: it needs a string name and an object `inputSchema`. */
function toolProblem(tool: unknown): string | undefined {
  if (!isRecord(tool)) return 'it is not an object';
  if (typeof tool.name !== 'string') return 'it has no string "name"';
  if (!isRecord(tool.inputSchema))
    return `"inputSchema" is ${tool.inputSchema === null ? 'null' : typeof tool.inputSchema}, not an object`;
  return undefined;
}

/**
 * Checks a `tools/list` page, reading leniently: a page that is not an object, or whose `tools` is not an
 * array, fails; a tool whose definition cannot be used (no string `name`, no object `inputSchema`) is left
 * out of the page and given to `onInvalid`, and the others are kept.
 */
export function listToolsPageSchema(
  onInvalid: (tool: InvalidToolDefinition) => void,
): StandardSchemaV1<unknown, ListPage<MCPToolDefinition>> {
  return {
    '~standard': {
      version: 1,
      vendor: 'agentwire',
      validate(value: unknown) {
        const problem = !isRecord(value)
          ? 'result is not an object'
          : !Array.isArray(value.tools)
            ? '"tools" is not an array'
            : cursorProblem(value.nextCursor);
        if (problem !== undefined) return { issues: [{ message: problem }] };
        const page = value as ListPage<MCPToolDefinition> & { tools: MCPToolDefinition[] };
        const kept = page.tools.filter((tool: unknown, index) => {
          const reason = toolProblem(tool);
          if (reason === undefined) return true;
          const name = isRecord(tool) && typeof tool.name === 'string' ? tool.name : `#${index}`;
          onInvalid({ name, reason });
          return false;
        });
        return { value: kept.length === page.tools.length ? page : { ...page, tools: kept } };
      },
    },
  };
}
