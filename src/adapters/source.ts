/**
 * adapters/: agentwire's MCP tools as the tools of other agent frameworks, one module per framework
 * (`agentwire/ai-sdk`, `agentwire/openai-agents`, `agentwire/langchain`, `agentwire/mastra`).
 *
 * What every adapter shares: the tools of an `MCPClient` or an `MCPServers` as they are now, the way to
 * follow their changes (`toolsChanged`, after `notifications/tools/list_changed`, MCP spec 2025-11-25,
 * "Tools > List Changed Notification"), and one call with the framework's abort signal reaching the MCP
 * request (`notifications/cancelled`, "Utilities > Cancellation"), whose result comes back as text and
 * media in order, or as an {@link MCPToolError} for a result with `isError: true` ("Tools > Error
 * Handling"), which each adapter reports the framework's own way.
 */
import type { Tool } from '../core/tool.js';
import { isToolOutput, type ToolOutputMedia, type ToolOutputPart } from '../core/tool-output.js';
import { MCPCallError, type MCPClient, type MCPServers } from '../mcp/index.js';

/** Where an adapter's tools come from: one client, or many servers as one source. */
export type AdapterSource = MCPClient | MCPServers;

/** Options every adapter takes. */
export interface AdapterOptions {
  /**
   * With an `MCPServers`: prefix each tool's name with its server's (`<server>__<tool>`, see
   * `MCPServers.getTools({ prefix })`), so that two servers' tools of the same name stay apart. Default
   * true for an `MCPServers`; an `MCPClient`'s tools keep their names.
   */
  prefix?: boolean;
}

/** The source's tools now: the ones its client can call (a tool the server cannot run is left out). */
export function currentTools(source: AdapterSource, options: AdapterOptions = {}): Tool[] {
  const tools = isServers(source) ? source.getTools({ prefix: options.prefix ?? true }) : source.getTools();
  return tools.filter((tool) => unavailableBecause(tool) === undefined);
}

/**
 * The source's tool named `name` now (a prefixed name with an `MCPServers`, see {@link AdapterOptions}).
 * @throws MCPCallError kind `jsonrpc`, code -32602, when there is none: what a server answers for an
 *   unknown tool (MCP spec 2025-11-25, "Tools > Error Handling").
 */
export function findTool(source: AdapterSource, name: string, options: AdapterOptions = {}): Tool {
  const tool = currentTools(source, options).find((candidate) => candidate.name === name);
  if (tool) return tool;
  throw new MCPCallError('jsonrpc', `Unknown tool: ${name}`, {
    server: isServers(source) ? undefined : source.name,
    method: 'tools/call',
    toolName: name,
    code: -32602,
  });
}

/** Calls `listener` after each change of the source's tool list; returns the function that stops it. */
export function followTools(source: AdapterSource, listener: () => void): () => void {
  const onChange = () => listener();
  // Both emitters are typed per event; the adapters only need to know that the list changed.
  const emitter = source as unknown as {
    on(event: 'toolsChanged', fn: () => void): unknown;
    off(event: 'toolsChanged', fn: () => void): unknown;
  };
  emitter.on('toolsChanged', onChange);
  return () => emitter.off('toolsChanged', onChange);
}

/** One tool result: the whole as text (media as placeholders), and the parts with the media in place. */
export interface AdapterResult {
  text: string;
  parts: ToolOutputPart[];
  /** The images and audio of `parts`. */
  media: ToolOutputMedia[];
}

/**
 * Calls `tool` with `input`; `signal` aborts the MCP request (the server gets `notifications/cancelled`).
 * @throws MCPToolError for a result with `isError: true` (unless the client was made with
 *   `throwOnToolError: false`); MCPCallError when the call does not complete (kind `aborted` after
 *   `signal`, `timeout`, …).
 */
export async function callTool(
  source: AdapterSource,
  tool: Tool,
  input: unknown,
  signal: AbortSignal | undefined,
): Promise<AdapterResult> {
  const args = typeof input === 'object' && input !== null ? (input as Record<string, unknown>) : {};
  const value = await tool.execute(args, { ...(signal && { signal }), acceptsMedia: true }).finally(() =>
    // A server that announced new tools before answering (`tools/list_changed`) is listed again before the
    // framework's next step reads the tools.
    clientOf(source, tool)?.whenToolsSettled(),
  );
  if (isToolOutput(value)) {
    const media = value.parts.filter((part): part is ToolOutputMedia => part.type !== 'text');
    return { text: value.text, parts: value.parts, media };
  }
  const text = typeof value === 'string' ? value : JSON.stringify(value ?? null);
  return { text, parts: [{ type: 'text', text }], media: [] };
}

function clientOf(source: AdapterSource, tool: Tool): MCPClient | undefined {
  return isServers(source) ? (tool.source === undefined ? undefined : source.get(tool.source)) : source;
}

function isServers(source: AdapterSource): source is MCPServers {
  return typeof (source as MCPServers).connectAll === 'function';
}

function unavailableBecause(tool: Tool): string | undefined {
  type Checked = { unavailableBecause?: () => string | undefined; tool?: Checked };
  const checked = tool as Checked;
  return (checked.unavailableBecause ?? checked.tool?.unavailableBecause)?.call(
    checked.unavailableBecause ? checked : checked.tool,
  );
}
