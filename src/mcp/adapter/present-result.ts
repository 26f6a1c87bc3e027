/**
 * What an MCP tool's `execute` hands the model: the rendered result, the value of the `formatResult` hooks
 * (the option of that name first), or an `MCPToolError` for a failed tool (`isError: true`, MCP spec
 * 2025-11-25, "Tools > Error Handling").
 */
import type { JsonSchema } from '../../core/json.js';
import { MCPToolError } from '../protocol/errors.js';
import type { CallToolResult } from '../protocol/types.js';
import { renderCallToolOutput, renderCallToolResult, renderCallToolResultText } from './content.js';
import { outputSchemaMismatch } from './output-schema.js';

/** What a `formatResult` hook (and the `formatResult` option) receives besides the value to format. */
export interface MCPFormatResultContext {
  toolName: string;
  /** The client's name for the server. */
  server: string;
  /** The result being presented (as the `afterResult` hooks left it). */
  result: CallToolResult;
}

/**
 * Formats a tool's result for the model (`MCPClientHooks.formatResult`): given the value the hook before it
 * returned (the first: the `CallToolResult` itself), returns the value to hand on; the last one's is what
 * a tool's `execute` resolves with. A hook may return a promise: the next is given what it resolves to.
 */
export type MCPFormatResultHook = (value: unknown, context: MCPFormatResultContext) => unknown;

/** Where the `formatResult` hooks come from: the client's options (`MCPClientOptions`). */
export interface FormatSources {
  /** The shorthand for the first hook (`MCPClientOptions.formatResult`). */
  formatResult?: ((result: CallToolResult, context: MCPFormatResultContext) => unknown) | undefined;
  hooks?: { formatResult?: MCPFormatResultHook[] | undefined } | undefined;
}

/** How to present one result. */
export interface PresentOptions {
  toolName: string;
  server: string;
  /** The tool's declared output schema, when it is to be checked. */
  outputSchema: JsonSchema | undefined;
  throwOnToolError: boolean;
  /** The `formatResult` hooks, the option first; without any the result is rendered. */
  format: FormatSources;
  /** The caller takes a `ToolOutput` with the images and audio in place (`ToolContext.acceptsMedia`). */
  acceptsMedia?: boolean;
}

/**
 * Presents `result`. A result with `isError: true`, or whose `structuredContent` does not match the declared
 * output schema, is a tool failure: thrown as `MCPToolError` (default), or, with `throwOnToolError: false`,
 * rendered with the schema mismatch appended.
 * @throws MCPToolError
 */
export function presentResult(result: CallToolResult, options: PresentOptions): unknown {
  const { toolName, server, format } = options;
  const mismatch = outputSchemaMismatch(options.outputSchema, result);
  const failure = mismatch ?? (result.isError === true ? renderCallToolResultText(result) : undefined);
  if (failure !== undefined && options.throwOnToolError) {
    throw new MCPToolError(`Tool "${toolName}" on MCP server "${server}" failed: ${failure}`, {
      toolName,
      result,
      server,
    });
  }
  const hooks = format.hooks?.formatResult;
  if (format.formatResult !== undefined || (hooks !== undefined && hooks.length > 0))
    return formatted(format.formatResult, hooks ?? [], result, { toolName, server, result });
  if (mismatch !== undefined) return `${renderCallToolResultText(result)}\n[error: ${mismatch}]`;
  return (options.acceptsMedia && renderCallToolOutput(result)) || renderCallToolResult(result);
}

/**
 * The `formatResult` option (`shorthand`) and `hooks` over `result`, each given the value of the one before
 * (awaited when it is a promise).
 */
function formatted(
  shorthand: FormatSources['formatResult'],
  hooks: readonly MCPFormatResultHook[],
  result: CallToolResult,
  context: MCPFormatResultContext,
): unknown {
  let value: unknown = shorthand === undefined ? result : shorthand(result, context);
  for (const hook of hooks)
    value =
      value instanceof Promise ? value.then((resolved) => hook(resolved, context)) : hook(value, context);
  return value;
}
