/**
 * Anthropic's own tool search (Anthropic docs, "Tool use > Tool search tool"): each tool goes out with
 * `defer_loading: true` beside the server tool `tool_search_tool_bm25` (or `tool_search_tool_regex`), so
 * the API keeps the deferred definitions out of the model's context until the model's search finds them.
 * This file's declarations name the SDK's types, so nothing public imports it (a user without the SDK
 * type-checks against the shipped declarations). The search runs on Anthropic's side within one response: its `server_tool_use` and
 * `tool_search_tool_result` blocks come back in the assistant message, and go back unchanged in the next
 * request (the `tool_reference`s in them are what keeps a found tool loaded).
 */
import type Anthropic from '@anthropic-ai/sdk';
import { parseToolArguments } from './json-args.js';
import type { ProviderContent, TextPart, ToolCallPart } from './model.js';

/** The server tool of each variant (its dated type, as the Messages API names it). */
const SEARCH_TOOLS = {
  bm25: { type: 'tool_search_tool_bm25_20251119', name: 'tool_search_tool_bm25' },
  regex: { type: 'tool_search_tool_regex_20251119', name: 'tool_search_tool_regex' },
} as const;

/**
 * The request's `tools`: the search tool first, then each tool with `defer_loading: true`, except those
 * named in `loaded`, which the model sees from the start.
 */
export function deferredTools(
  tools: readonly Anthropic.Messages.Tool[],
  search: keyof typeof SEARCH_TOOLS,
  loaded: ReadonlySet<string>,
): Anthropic.Messages.ToolUnion[] {
  return [
    { ...SEARCH_TOOLS[search] },
    ...tools.map((tool) => (loaded.has(tool.name) ? tool : { ...tool, defer_loading: true })),
  ];
}

/** A server tool's blocks while they stream: a `server_tool_use` (input JSON in fragments) or a result. */
export type ServerBlock =
  | { type: 'server_tool_use'; block: Anthropic.Messages.ServerToolUseBlock; input: string }
  | { type: 'server_tool_result'; block: Anthropic.Messages.ToolSearchToolResultBlock };

/** The blocks of one response, by index, as readStream accumulates them. */
export type StreamedBlock = TextPart | (ToolCallPart & { kind: 'tool' }) | ServerBlock;

/**
 * The server blocks kept for a streamed `content_block_start`: tool search's `server_tool_use` and its
 * result; `undefined` for any other block.
 */
export function serverBlock(block: Anthropic.Messages.ContentBlock): ServerBlock | undefined {
  if (block.type === 'server_tool_use' && block.name.startsWith('tool_search_tool_'))
    return { type: 'server_tool_use', block, input: '' };
  if (block.type === 'tool_search_tool_result') return { type: 'server_tool_result', block };
  return undefined;
}

/**
 * The whole response as the Messages API's content blocks, in order, when it holds server blocks (which
 * `content` cannot); `undefined` otherwise, so a response without tool search stays as before.
 */
export function providerContent(ordered: readonly StreamedBlock[]): ProviderContent | undefined {
  if (!ordered.some((block) => block.type === 'server_tool_use' || block.type === 'server_tool_result'))
    return undefined;
  const blocks = ordered.map((block): Anthropic.Messages.ContentBlockParam => {
    if (block.type === 'text') return { type: 'text', text: block.text };
    if (block.type === 'tool_call') {
      const input = parseToolArguments(block.arguments) ?? {};
      return { type: 'tool_use', id: block.id, name: block.name, input };
    }
    if (block.type === 'server_tool_use') {
      const { id, name } = block.block;
      return { type: 'server_tool_use', id, name, input: parseToolArguments(block.input) ?? {} };
    }
    const { tool_use_id, content } = block.block;
    return { type: 'tool_search_tool_result', tool_use_id, content };
  });
  return { provider: 'anthropic', blocks };
}

/** The kept blocks of an assistant message, for the next request; `undefined` when it has none. */
export function keptContent(
  content: ProviderContent | undefined,
): Anthropic.Messages.ContentBlockParam[] | undefined {
  if (content?.provider !== 'anthropic') return undefined;
  // Anthropic rejects empty text blocks, which a turn made only of tool calls can leave behind.
  return (content.blocks as Anthropic.Messages.ContentBlockParam[]).filter(
    (block) => block.type !== 'text' || block.text !== '',
  );
}
