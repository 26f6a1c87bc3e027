import { isRecord } from '../core/json.js';

/**
 * Parses a tool call's JSON arguments text into an object. An empty text is `{}` (models send it for
 * tools without parameters); anything else that is not a JSON object yields `undefined`.
 */
export function parseToolArguments(text: string): Record<string, unknown> | undefined {
  if (text.trim() === '') return {};
  try {
    const value: unknown = JSON.parse(text);
    return isRecord(value) ? value : undefined;
  } catch {
    return undefined;
  }
}
