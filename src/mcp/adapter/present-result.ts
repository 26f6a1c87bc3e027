/**
 * What an MCP tool's `execute` hands the model: the rendered result, `formatResult`'s value, or an
 * `MCPToolError` for a failed tool (`isError: true`, MCP spec 2025-11-25, "Tools > Error Handling").
 */
import type { JsonSchema } from '../../core/json.js';
import { MCPToolError } from '../protocol/errors.js';
import type { CallToolResult } from '../protocol/types.js';
import { renderCallToolOutput, renderCallToolResult, renderCallToolResultText } from './content.js';
import { outputSchemaMismatch } from './output-schema.js';

/** What `formatResult` receives besides the result. */
export interface MCPFormatResultContext {
  toolName: string;
}

/** How to present one result. */
export interface PresentOptions {
  toolName: string;
  server: string;
  /** The tool's declared output schema, when it is to be checked. */
  outputSchema: JsonSchema | undefined;
  throwOnToolError: boolean;
  formatResult: ((result: CallToolResult, context: MCPFormatResultContext) => unknown) | undefined;
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
  const { toolName, server, formatResult } = options;
  const mismatch = outputSchemaMismatch(options.outputSchema, result);
  const failure = mismatch ?? (result.isError === true ? renderCallToolResultText(result) : undefined);
  if (failure !== undefined && options.throwOnToolError) {
    throw new MCPToolError(`Tool "${toolName}" on MCP server "${server}" failed: ${failure}`, {
      toolName,
      result,
      server,
    });
  }
  if (formatResult) return formatResult(result, { toolName });
  if (mismatch !== undefined) return `${renderCallToolResultText(result)}\n[error: ${mismatch}]`;
  return (options.acceptsMedia && renderCallToolOutput(result)) || renderCallToolResult(result);
}
