/**
 * The shared shape of built-in tools: options every tool takes, and the `Tool` builder.
 */
import type { JsonSchema } from '../core/json.js';
import type { Tool, ToolContext } from '../core/tool.js';
import { BuiltinToolError } from './errors.js';

// Here too, where the other tool helpers are; it lives beside the error class so `workspace.ts` can use it.
export { fsError } from './errors.js';

import type { Workspace } from './workspace.js';

/** Default cap on what a tool returns to the model, in bytes (UTF-8). */
export const DEFAULT_MAX_OUTPUT_BYTES = 50_000;

/** Options shared by every built-in tool. */
export interface BuiltinToolOptions {
  /** The directory the tools are confined to. */
  root: string;
  /** Cap on each result, in bytes; longer output is cut and says so. Default 50,000. */
  maxOutputBytes?: number;
  /**
   * Cap on what `write_file` writes and on the size of an `edit_file` result, in bytes (UTF-8); more is
   * refused (`invalid_input`, reason `too_large`) and nothing is written. Default 10,000,000.
   */
  maxWriteBytes?: number;
}

/** What a built-in tool's body receives. */
export interface BuiltinContext {
  workspace: Workspace;
  maxOutputBytes: number;
  context: ToolContext;
}

/** Builds a `Tool` with source `builtin`. */
export function builtinTool(
  spec: { name: string; description: string; inputSchema: JsonSchema },
  shared: { workspace: Workspace; maxOutputBytes: number },
  run: (input: Record<string, unknown>, ctx: BuiltinContext) => Promise<string>,
): Tool {
  return {
    ...spec,
    source: 'builtin',
    execute: (input, context = {}) => {
      if (context.signal?.aborted) {
        return Promise.reject(new BuiltinToolError('aborted', spec.name, 'aborted before it started'));
      }
      return run(input, { ...shared, context });
    },
  };
}

/**
 * Cuts `text` to at most `maxBytes` UTF-8 bytes, saying how much was left out. `totalBytes` is the size of
 * the whole output when `text` is already only its beginning (default: `text`'s own size).
 */
export function capOutput(text: string, maxBytes: number, totalBytes = Buffer.byteLength(text)): string {
  if (totalBytes <= maxBytes) return text;
  return capBytes(Buffer.from(text), maxBytes, totalBytes);
}

/**
 * {@link capOutput} for raw bytes: decodes at most `maxBytes` of `bytes` (never half a character), and adds
 * `[output truncated: N of totalBytes bytes left out]` when `totalBytes` is more than `maxBytes`.
 */
export function capBytes(bytes: Buffer, maxBytes: number, totalBytes = bytes.length): string {
  const cut = decodeHead(bytes, maxBytes);
  if (totalBytes <= maxBytes) return cut;
  return `${cut}\n[output truncated: ${totalBytes - Buffer.byteLength(cut)} of ${totalBytes} bytes left out]`;
}

/** The first `maxBytes` of `bytes` as text, without the broken character a cut may leave at the end. */
export function decodeHead(bytes: Buffer, maxBytes: number): string {
  const text = bytes.subarray(0, maxBytes).toString('utf8');
  return bytes.length > maxBytes ? text.replace(/\uFFFD$/, '') : text;
}

/** A string argument, or an `invalid_input` error naming it. */
export function stringArg(toolName: string, input: Record<string, unknown>, name: string): string {
  const value = input[name];
  if (typeof value !== 'string')
    throw new BuiltinToolError('invalid_input', toolName, `"${name}" must be a string`);
  return value;
}

/** An optional non-negative integer argument. */
export function intArg(toolName: string, input: Record<string, unknown>, name: string): number | undefined {
  const value = input[name];
  if (value === undefined) return undefined;
  if (!Number.isInteger(value) || (value as number) < 0) {
    throw new BuiltinToolError('invalid_input', toolName, `"${name}" must be a non-negative integer`);
  }
  return value as number;
}
