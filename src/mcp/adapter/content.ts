/**
 * Rendering of `CallToolResult` for a model (content types: MCP spec 2025-11-25, "Tools > Tool Result"):
 * every block is represented, none is dropped.
 *
 * | block                         | rendered as                                             |
 * |-------------------------------|---------------------------------------------------------|
 * | text                          | the text, verbatim                                      |
 * | image / audio                 | `[image content: image/png, 24.5 KB]` (decoded size)    |
 * | resource with `text`          | `[resource: <uri>, <mimeType>]` then the text           |
 * | resource with `blob`          | `[resource: <uri>, <mimeType>, 1.2 KB]`                 |
 * | resource_link                 | `[resource link: <name>, <uri>, <mimeType>]`            |
 * | any other type                | `[unsupported content: <type>]`                         |
 *
 * Blocks are joined with a newline. `structuredContent` is returned as the value itself when there are no
 * content blocks, and appended as JSON when every block is binary (image, audio, blob resource), so
 * structured output is never lost, unless it only mirrors the blocks (`{ content: [...the blocks] }`, as
 * server-filesystem's `read_media_file` sends): that copy would put the base64 before the model as text.
 * {@link renderCallToolOutput} gives the same rendering with the images and audio in place, for models
 * that can take them.
 */
import { isDeepStrictEqual } from 'node:util';
import type { ToolOutput, ToolOutputPart } from '../../core/tool-output.js';
import type { CallToolResult, ContentBlock } from '../protocol/types.js';

/** Formats a byte count as `512 B`, `24.5 KB` or `3.2 MB` (1 KB = 1024 bytes). */
export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}

/** The decoded size in bytes of a base64 string, computed from its length without decoding it. */
export function base64DecodedSize(data: string): number {
  let length = data.length;
  // Servers sometimes wrap base64 at 76 columns; whitespace carries no bytes.
  if (/\s/.test(data)) length = data.replace(/\s+/g, '').length;
  let padding = 0;
  if (length > 0 && data.trimEnd().endsWith('==')) padding = 2;
  else if (length > 0 && data.trimEnd().endsWith('=')) padding = 1;
  return Math.max(0, Math.floor((length * 3) / 4) - padding);
}

function field(block: ContentBlock, key: string): string | undefined {
  const value = (block as Record<string, unknown>)[key];
  return typeof value === 'string' ? value : undefined;
}

function isBinaryBlock(block: ContentBlock): boolean {
  if (block.type === 'image' || block.type === 'audio') return true;
  if (block.type !== 'resource') return false;
  const resource = (block as { resource?: Record<string, unknown> }).resource;
  return typeof resource?.blob === 'string' && typeof resource.text !== 'string';
}

/** Renders one content block as text for a model. Never throws, whatever the block holds. */
export function renderContentBlock(block: ContentBlock): string {
  switch (block.type) {
    case 'text':
      return field(block, 'text') ?? '';
    case 'image':
    case 'audio': {
      const mime = field(block, 'mimeType') ?? 'unknown type';
      return `[${block.type} content: ${mime}, ${formatBytes(base64DecodedSize(field(block, 'data') ?? ''))}]`;
    }
    case 'resource':
      return renderResource((block as { resource?: unknown }).resource);
    case 'resource_link': {
      const parts = [field(block, 'name'), field(block, 'uri'), field(block, 'mimeType')].filter(Boolean);
      return `[resource link: ${parts.join(', ')}]`;
    }
    default:
      return `[unsupported content: ${String(block.type)}]`;
  }
}

function renderResource(resource: unknown): string {
  if (typeof resource !== 'object' || resource === null) return '[resource: (missing contents)]';
  const { uri, mimeType, text, blob } = resource as Record<string, unknown>;
  const head = [typeof uri === 'string' ? uri : '(no uri)'];
  if (typeof mimeType === 'string') head.push(mimeType);
  if (typeof text === 'string') return `[resource: ${head.join(', ')}]\n${text}`;
  if (typeof blob === 'string') head.push(formatBytes(base64DecodedSize(blob)));
  return `[resource: ${head.join(', ')}]`;
}

/**
 * Renders a `CallToolResult` into the value an agent hands to its model: a string, or the
 * `structuredContent` object itself when the result has no content blocks.
 */
export function renderCallToolResult(result: CallToolResult): unknown {
  const blocks = Array.isArray(result.content) ? result.content : [];
  const structured = result.structuredContent;
  if (blocks.length === 0) return structured ?? '';
  const text = blocks.map(renderContentBlock).join('\n');
  const mirror = (value: unknown) => isDeepStrictEqual(value, blocks);
  const mirrors = mirror(structured) || Object.values(structured ?? {}).some(mirror);
  if (structured !== undefined && blocks.every(isBinaryBlock) && !mirrors)
    return `${text}\n${JSON.stringify(structured)}`;
  return text;
}

/**
 * The result with its image and audio blocks in place, for a model that can see them (see
 * `ToolContext.acceptsMedia`); `undefined` when it has none (the rendered text is then all there is).
 * `text` is {@link renderCallToolResult}'s text; every other block becomes a text part rendered as there.
 */
export function renderCallToolOutput(result: CallToolResult): ToolOutput | undefined {
  const blocks = Array.isArray(result.content) ? result.content : [];
  const isMedia = (b: ContentBlock) =>
    (b.type === 'image' || b.type === 'audio') && field(b, 'data') !== undefined && field(b, 'mimeType');
  if (!blocks.some(isMedia)) return undefined;
  const text = renderCallToolResultText(result);
  const parts: ToolOutputPart[] = blocks.map((block) =>
    isMedia(block)
      ? {
          type: block.type as 'image' | 'audio',
          data: field(block, 'data') ?? '',
          mimeType: field(block, 'mimeType') ?? '',
          placeholder: renderContentBlock(block),
        }
      : { type: 'text', text: renderContentBlock(block) },
  );
  // What renderCallToolResult appends after the blocks (structuredContent as JSON) stays at the end.
  const joined = blocks.map(renderContentBlock).join('\n');
  if (text.length > joined.length) parts.push({ type: 'text', text: text.slice(joined.length + 1) });
  return { type: 'tool_output', text, parts };
}

/** The rendered result as text (objects as JSON), for error messages and terminals. */
export function renderCallToolResultText(result: CallToolResult): string {
  const value = renderCallToolResult(result);
  return typeof value === 'string' ? value : JSON.stringify(value);
}
