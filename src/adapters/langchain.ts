/**
 * `agentwire/langchain`: the tools of an `MCPClient` or `MCPServers` as LangChain JS (`@langchain/core` 1.4)
 * tools, for `createAgent` (langchain), LangGraph's prebuilt `createReactAgent`, or `model.bindTools()`.
 *
 * - Each tool is a `DynamicStructuredTool` whose `schema` is the server's full input JSON Schema.
 * - The run's `signal` (`agent.invoke(input, { signal })`) reaches the MCP request: the server gets
 *   `notifications/cancelled` (MCP spec 2025-11-25, "Utilities > Cancellation").
 * - A result with `isError: true` ("Tools > Error Handling") becomes a `ToolMessage` with `status:
 *   'error'`, LangChain's mark of a failed tool, holding the server's text.
 * - Images become `image_url` blocks (a `data:` URL) of the `ToolMessage`, audio standard `audio` blocks
 *   (`{ type: 'audio', mimeType, data }`), in their place among the text blocks.
 * - LangChain agents take their tools when they are made: {@link LangChainTools.tools} is the list as it is
 *   when read (after `toolsChanged`, make the agent again, which is cheap).
 */
import { ToolMessage } from '@langchain/core/messages';
import { DynamicStructuredTool, type StructuredToolInterface } from '@langchain/core/tools';
import type { Tool } from '../core/tool.js';
import { MCPToolError } from '../mcp/index.js';
import { type AdapterOptions, type AdapterSource, callTool, currentTools } from './source.js';

export type { AdapterOptions, AdapterSource } from './source.js';

/** What {@link createLangChainTools} returns. */
export interface LangChainTools {
  /** The tools now, for `createAgent({ tools })`, `createReactAgent({ tools })` or `bindTools()`. */
  readonly tools: StructuredToolInterface[];
}

/** The source's tools as LangChain tools (see the module header). Connect the source first. */
export function createLangChainTools(source: AdapterSource, options: AdapterOptions = {}): LangChainTools {
  const made = new WeakMap<Tool, StructuredToolInterface>();
  const convert = (tool: Tool) => {
    let converted = made.get(tool);
    if (!converted) {
      converted = toLangChainTool(source, tool);
      made.set(tool, converted);
    }
    return converted;
  };
  return {
    get tools() {
      return currentTools(source, options).map(convert);
    },
  };
}

function toLangChainTool(source: AdapterSource, tool: Tool): StructuredToolInterface {
  return new DynamicStructuredTool({
    name: tool.name,
    description: tool.description,
    schema: tool.inputSchema as Record<string, unknown>,
    func: async (input: unknown, _runManager, config) => {
      const toolCallId = (config as { toolCall?: { id?: string } } | undefined)?.toolCall?.id;
      try {
        const result = await callTool(source, tool, input, config?.signal);
        if (result.media.length === 0) return result.text;
        return result.parts.map((part) => {
          if (part.type === 'text') return { type: 'text', text: part.text };
          // `image_url` with a data URL: the image block every LangChain chat model converts, also in a
          // tool message (ChatOpenAI sends a tool message's blocks as they are).
          if (part.type === 'image') {
            return { type: 'image_url', image_url: { url: `data:${part.mimeType};base64,${part.data}` } };
          }
          return { type: 'audio', mimeType: part.mimeType, data: part.data };
        });
      } catch (error) {
        if (!(error instanceof MCPToolError) || toolCallId === undefined) throw error;
        return new ToolMessage({
          content: `${error.name}: ${error.message}`,
          tool_call_id: toolCallId,
          name: tool.name,
          status: 'error',
        });
      }
    },
  });
}
