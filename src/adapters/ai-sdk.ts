/**
 * `agentwire/ai-sdk`: the tools of an `MCPClient` or `MCPServers` as a Vercel AI SDK (`ai` 7) `ToolSet`,
 * for `generateText`, `streamText` and `ToolLoopAgent`.
 *
 * - Each tool is a `dynamicTool` with the server's full input JSON Schema (`jsonSchema(...)`, unreduced).
 * - The AI SDK's `abortSignal` reaches the MCP request: aborting the generation cancels the call on the
 *   server (`notifications/cancelled`, MCP spec 2025-11-25, "Utilities > Cancellation").
 * - A result with `isError: true` ("Tools > Error Handling") throws, which the AI SDK reports as a
 *   `tool-error` part and hands the model as an `error-text` tool output.
 * - Images and audio reach the model as `file` parts (base64 data, the server's media type) of a
 *   `content` output (`toModelOutput`), in their place among the text; the provider decides how to send
 *   them (OpenAI's Chat Completions takes none in a tool message: `@ai-sdk/openai` sends the parts as JSON).
 * - `tools` is one object, kept up to date in place on `toolsChanged`: the AI SDK reads it at every step,
 *   so a tool the server adds during a generation is offered from the next step on.
 */
import { type Tool as AITool, dynamicTool, jsonSchema, type ToolSet } from 'ai';
import type { Tool } from '../core/tool.js';
import {
  type AdapterOptions,
  type AdapterResult,
  type AdapterSource,
  callTool,
  currentTools,
  followTools,
} from './source.js';

export type { AdapterOptions, AdapterSource } from './source.js';

/** What {@link createAISDKTools} returns. */
export interface AISDKTools {
  /** The tools by name, for `generateText({ tools })`; updated in place when the source's tools change. */
  readonly tools: ToolSet;
  /** Stops following the source's tool changes (`tools` keeps its last contents). Idempotent. */
  close(): void;
}

/**
 * The source's tools as an AI SDK `ToolSet` (see the module header). Connect the source first; the
 * caller keeps owning it.
 */
export function createAISDKTools(source: AdapterSource, options: AdapterOptions = {}): AISDKTools {
  const tools: ToolSet = {};
  const made = new WeakMap<Tool, AITool>();
  const sync = () => {
    const now = currentTools(source, options);
    const names = new Set(now.map((tool) => tool.name));
    for (const name of Object.keys(tools)) if (!names.has(name)) delete tools[name];
    for (const tool of now) {
      let converted = made.get(tool);
      if (!converted) {
        converted = toAISDKTool(source, tool);
        made.set(tool, converted);
      }
      tools[tool.name] = converted;
    }
  };
  sync();
  const stop = followTools(source, sync);
  return { tools, close: stop };
}

/** One tool of `source` as an AI SDK dynamic tool. */
function toAISDKTool(source: AdapterSource, tool: Tool): AITool {
  return dynamicTool({
    description: tool.description,
    inputSchema: jsonSchema(tool.inputSchema as Parameters<typeof jsonSchema>[0]),
    execute: (input, { abortSignal }) => callTool(source, tool, input, abortSignal),
    // The AI SDK passes `{ output }`; Mastra, which takes AI SDK tools, passes the output itself.
    toModelOutput: (options) => modelOutput(('parts' in options ? options : options.output) as AdapterResult),
  });
}

type ModelOutput = Awaited<ReturnType<NonNullable<Parameters<typeof dynamicTool>[0]['toModelOutput']>>>;

function modelOutput(result: AdapterResult): ModelOutput {
  if (result.media.length === 0) return { type: 'text', value: result.text };
  return {
    type: 'content',
    value: result.parts.map((part) => {
      if (part.type === 'text') return { type: 'text' as const, text: part.text };
      return {
        type: 'file' as const,
        mediaType: part.mimeType,
        data: { type: 'data' as const, data: part.data },
      };
    }),
  };
}
