/**
 * A failed tool's own words, without the client's secrets: a server that echoes a request header, a query
 * token or an environment value into an `isError` result (a stack trace, a debug dump) would otherwise put it
 * into `MCPToolError`'s message, the CLI's error line and the model's context. Only `isError` results are
 * touched: a successful result is the tool's answer and is handed over as the server wrote it.
 */
import type { Redactor } from '../protocol/redact.js';
import type { CallToolResult } from '../protocol/types.js';

/** `result` with `redact` applied to the text of its text blocks when `isError` is set; else `result`. */
export function redactToolErrorText(result: CallToolResult, redact: Redactor): CallToolResult {
  if (result.isError !== true || !Array.isArray(result.content)) return result;
  let changed = false;
  const content = result.content.map((block) => {
    if (block.type !== 'text' || typeof block.text !== 'string') return block;
    const text = redact(block.text);
    if (text === block.text) return block;
    changed = true;
    return { ...block, text };
  });
  return changed ? { ...result, content } : result;
}
