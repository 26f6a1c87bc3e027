/**
 * What `agentwire/openai-agents` uses of OpenAI Agents JS (`@openai/agents-core` 0.20), declared here so that
 * agentwire type-checks and builds without the package (its `openai` 7 needs Node >= 22): tsconfig.json maps
 * `@openai/agents-core` to this file. The built declarations keep importing the package, so a user's code is
 * checked against the real one; frameworks/ checks the adapter and these declarations against it
 * (frameworks/tsconfig.json, frameworks/test/peer-types.ts).
 */

/** Turns a failed MCP tool call into the text the model reads (`null` on the server rethrows). */
export type MCPToolErrorFunction = (args: { context: unknown; error: unknown }) => Promise<string> | string;

/** The options of one `callTool`. */
export interface MCPCallToolOptions {
  signal?: AbortSignal;
}

/** A tool as `MCPServer.listTools()` gives it. */
export interface MCPTool {
  name: string;
  description?: string;
  inputSchema: {
    type: 'object';
    properties: Record<string, unknown>;
    required: string[];
    additionalProperties: boolean;
  };
}

/** The content blocks of a tool result. */
export type CallToolResultContent = (
  | { type: 'text'; text: string }
  | { type: 'image'; data: string; mimeType: string }
)[];

/** The SDK's interface of an MCP server, as `new Agent({ mcpServers })` takes it. */
export interface MCPServer {
  cacheToolsList: boolean;
  errorFunction?: MCPToolErrorFunction | null;
  readonly name: string;
  connect(): Promise<void>;
  close(): Promise<void>;
  listTools(): Promise<MCPTool[]>;
  callTool(
    toolName: string,
    args: Record<string, unknown> | null,
    meta?: Record<string, unknown> | null,
    options?: MCPCallToolOptions,
  ): Promise<CallToolResultContent>;
  invalidateToolsCache(): Promise<void>;
}
