/**
 * A tool result that carries images or audio besides text, for callers that can pass them on to a model
 * (see `ToolContext.acceptsMedia`). Tools that only produce text keep resolving with a string.
 */

/** Text of a result, in its place among the media. */
export interface ToolOutputText {
  type: 'text';
  text: string;
}

/**
 * An image or an audio clip of a result (MCP spec 2025-11-25, "Tools > Tool Result > Image Content / Audio
 * Content"): base64 `data` as the server sent it, its `mimeType`, and `placeholder`, the text that stands
 * for it where it cannot be sent (`[image content: image/png, 24.5 KB]`).
 */
export interface ToolOutputMedia {
  type: 'image' | 'audio';
  data: string;
  mimeType: string;
  placeholder: string;
}

/** One part of a {@link ToolOutput}, in the order the tool produced them. */
export type ToolOutputPart = ToolOutputText | ToolOutputMedia;

/**
 * What a tool resolves with when asked for media and its result has some: `text` is the whole result as
 * text (every medium as its placeholder), what a text-only model or a log sees; `parts` the same result
 * with the media in place.
 */
export interface ToolOutput {
  type: 'tool_output';
  text: string;
  parts: ToolOutputPart[];
}

/** True for a {@link ToolOutput}, from any copy of agentwire (a structural check, not `instanceof`). */
export function isToolOutput(value: unknown): value is ToolOutput {
  if (typeof value !== 'object' || value === null) return false;
  const { type, text, parts } = value as Record<string, unknown>;
  return type === 'tool_output' && typeof text === 'string' && Array.isArray(parts);
}
