/**
 * `agentwire/openai-agents`: an `MCPClient` or `MCPServers` as an OpenAI Agents JS (`@openai/agents` 0.20)
 * MCP server, the SDK's own `MCPServer` interface: `new Agent({ mcpServers: [agentwireMCPServer(client)] })`.
 * The SDK turns its tools into function tools and calls them through it; agentwire does the MCP part
 * (both protocol revisions, OAuth, reconnection, tasks).
 *
 * - `listTools()` gives the tools as they are now, each with the server's full input JSON Schema; the SDK
 *   lists them at every turn (`cacheToolsList` is false), so `toolsChanged` is reflected from the next
 *   turn on (after a call, the list the server announced is awaited first).
 * - The SDK's abort signal (`run(agent, input, { signal })`) reaches the MCP request: the server gets
 *   `notifications/cancelled` (MCP spec 2025-11-25, "Utilities > Cancellation").
 * - A result with `isError: true` ("Tools > Error Handling") throws an `MCPToolError`, which the SDK turns
 *   into the model-visible text of the server's `errorFunction`: the error's name and message unless told
 *   otherwise (the SDK's own default hides them).
 * - Images come back as MCP image blocks, which the SDK makes `input_image` items of the tool output (sent
 *   as such by the Responses API; its Chat Completions model sends only the text); audio, which the SDK has
 *   no input for, as its text placeholder.
 */
import type {
  CallToolResultContent,
  MCPCallToolOptions,
  MCPServer,
  MCPToolErrorFunction,
} from '@openai/agents-core';
import type { MCPClient } from '../mcp/index.js';
import { type AdapterOptions, type AdapterSource, callTool, currentTools, findTool } from './source.js';

export type { AdapterOptions, AdapterSource } from './source.js';

/** Options of {@link agentwireMCPServer}. */
export interface OpenAIAgentsServerOptions extends AdapterOptions {
  /** The server's name for the SDK (traces, tool name clashes). Default: the client's name, or `agentwire`. */
  name?: string;
  /**
   * Disconnect the source on the SDK's `close()` (`MCPClient.disconnect()` / `MCPServers.disconnectAll()`).
   * Default false: the caller keeps owning it.
   */
  closeSource?: boolean;
  /**
   * What the model reads when a call fails (the SDK's `errorFunction`; `null` rethrows, ending the run).
   * Default: the error's name and message (`MCPToolError: Tool "fail" on MCP server "s" failed: disk
   * full`), so that the model sees what the server said.
   */
  errorFunction?: MCPToolErrorFunction | null;
}

/** A tool as the SDK's `MCPServer.listTools()` gives it. */
type MCPTool = Awaited<ReturnType<MCPServer['listTools']>>[number];

/** The SDK's `MCPServer`, backed by an agentwire client or servers. */
export type AgentwireMCPServer = MCPServer;

/**
 * `source` as an OpenAI Agents JS `MCPServer` (see the module header). `connect()` connects a client not
 * yet connected (every server of an `MCPServers`); a source already connected is used as it is.
 */
export function agentwireMCPServer(
  source: AdapterSource,
  options: OpenAIAgentsServerOptions = {},
): AgentwireMCPServer {
  const client = 'connectAll' in source ? undefined : (source as MCPClient);
  return {
    name: options.name ?? client?.name ?? 'agentwire',
    cacheToolsList: false,
    errorFunction: options.errorFunction === undefined ? describeFailure : options.errorFunction,
    async connect() {
      if (client) {
        if (!client.isConnected()) await client.connect();
      } else await (source as { connectAll(): Promise<unknown> }).connectAll();
    },
    async close() {
      if (!options.closeSource) return;
      if (client) await client.disconnect();
      else await (source as { disconnectAll(): Promise<void> }).disconnectAll();
    },
    async listTools(): Promise<MCPTool[]> {
      return currentTools(source, options).map((tool) => ({
        name: tool.name,
        description: tool.description,
        // The SDK's type names the usual keys; the schema goes on whole (`$defs`, `oneOf`, … kept).
        inputSchema: tool.inputSchema as MCPTool['inputSchema'],
      }));
    },
    async callTool(
      toolName: string,
      args: Record<string, unknown> | null,
      _meta?: Record<string, unknown> | null,
      callOptions?: MCPCallToolOptions,
    ): Promise<CallToolResultContent> {
      const tool = findTool(source, toolName, options);
      const result = await callTool(source, tool, args ?? {}, callOptions?.signal);
      return result.parts.map((part) =>
        part.type === 'image'
          ? { type: 'image', data: part.data, mimeType: part.mimeType }
          : { type: 'text', text: part.type === 'text' ? part.text : part.placeholder },
      ) as CallToolResultContent;
    },
    async invalidateToolsCache() {
      // Nothing is cached here: the client keeps its list current (`notifications/tools/list_changed`).
    },
  };
}

/** The failure as the model reads it: `MCPToolError: Tool "x" on MCP server "s" failed: …`. */
function describeFailure({ error }: { error: unknown }): string {
  if (!(error instanceof Error)) return `Tool failed: ${String(error)}`;
  return `${error.name}: ${error.message}`;
}
