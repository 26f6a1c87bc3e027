/**
 * A tool of a server connected when needed: known from its tool list (cached or configured) before the
 * server runs. Calling it connects the server first (once, however many calls come), then calls the
 * server's tool of that name as it is after the connect. `prepare()` connects without calling (a tool
 * search that found it); `deferLoading` says whether an agent offers it only through tool search.
 */
import type { JsonSchema } from '../../core/json.js';
import type { RunContext, Tool, ToolContext } from '../../core/tool.js';
import type { MCPTool } from '../adapter/mcp-tool.js';
import { MCPCallError } from '../protocol/errors.js';
import type { MCPToolDefinition } from '../protocol/types.js';

/** What a lazy tool needs from its server set. */
export interface MCPLazyToolHost {
  /**
   * Connects the server if it is not connected (single flight), for `run` (the connect's `context`).
   * @throws MCPCallError
   */
  connect(signal?: AbortSignal, run?: RunContext): Promise<void>;
  /** The server's tool named `name` now, if it has one. */
  current(name: string): MCPTool | undefined;
}

/** A tool of a server that may not be running yet (see the module header). */
export class MCPLazyTool implements Tool {
  readonly name: string;
  readonly description: string;
  readonly inputSchema: JsonSchema;
  /** The server's name. */
  readonly source: string;
  /** The `tools/list` entry this tool is known by (from the server, the cache, or the configuration). */
  readonly definition: MCPToolDefinition;
  /** `false`: always offered; `true`: only through tool search; undefined: the agent's rule. */
  readonly deferLoading: boolean | undefined;
  readonly #host: MCPLazyToolHost;

  constructor(definition: MCPToolDefinition, server: string, host: MCPLazyToolHost, deferLoading?: boolean) {
    this.definition = definition;
    this.name = definition.name;
    this.description = definition.description ?? '';
    this.inputSchema = definition.inputSchema;
    this.source = server;
    this.deferLoading = deferLoading;
    this.#host = host;
  }

  /** Connects the server, if it is not connected, for `run` (the connect's `context`). @throws MCPCallError */
  prepare(signal?: AbortSignal, run?: RunContext): Promise<void> {
    return this.#host.connect(signal, run);
  }

  /**
   * Connects the server if needed, then calls its tool (see `MCPTool.execute`).
   * @throws MCPCallError when the server cannot be connected, or kind `jsonrpc` (code -32602, as a server
   *   answers an unknown tool) when the server no longer has the tool; MCPToolError as `MCPTool.execute`.
   */
  async execute(input: Record<string, unknown>, context: ToolContext = {}): Promise<unknown> {
    await this.#host.connect(context.signal, context.runContext);
    const tool = this.#host.current(this.name);
    if (!tool) {
      throw new MCPCallError('jsonrpc', `Unknown tool: ${this.name}`, {
        server: this.source,
        method: 'tools/call',
        toolName: this.name,
        code: -32602,
      });
    }
    return tool.execute(input, context);
  }
}
