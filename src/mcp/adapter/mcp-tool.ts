/**
 * adapter/: MCP tools as agentwire tools: the tool, the tool set, result rendering, output schemas.
 *
 * One MCP server tool as an agentwire {@link Tool}, called with `tools/call` (MCP spec 2025-11-25, "Tools >
 * Calling Tools"). The instance points at its `MCPClient`, not at a connection, so it keeps working across
 * reconnects; the client replaces an instance only when the server changes the tool's definition.
 */
import type { JsonSchema } from '../../core/json.js';
import type { Tool, ToolContext } from '../../core/tool.js';
import type { CallToolResult, MCPToolDefinition } from '../protocol/types.js';
import type { MCPToolCallOptions } from '../session/call-options.js';
import { IDEMPOTENCY_KEY_META_KEY } from './idempotency-key.js';

/** What an `MCPTool` needs from its client: a way to call, and how to present the result. */
export interface MCPToolHost {
  readonly name: string;
  callTool(
    name: string,
    input: Record<string, unknown>,
    options?: MCPToolCallOptions,
  ): Promise<CallToolResult>;
  /** Renders a result for the model, or throws `MCPToolError` for `isError` results (per client options). */
  presentResult(toolName: string, result: CallToolResult, media?: { acceptsMedia?: boolean }): unknown;
  /** Why the tool cannot be called now, if it cannot (a task-required tool the server cannot run as one). */
  callRefusal?(toolName: string): string | undefined;
}

/** An MCP server's tool, callable by any agent. */
export class MCPTool implements Tool {
  /** The tool's name on the server, unchanged. */
  readonly name: string;
  /** The server's description, or `''`. */
  readonly description: string;
  /** The server's full input JSON Schema, unreduced (`$defs`, `additionalProperties`, … kept). */
  readonly inputSchema: JsonSchema;
  /** The server's name. */
  readonly source: string;
  /** The full `tools/list` entry (title, annotations, outputSchema, _meta …). */
  readonly definition: MCPToolDefinition;
  readonly #host: MCPToolHost;

  constructor(definition: MCPToolDefinition, host: MCPToolHost) {
    this.definition = definition;
    this.name = definition.name;
    this.description = definition.description ?? '';
    this.inputSchema = definition.inputSchema;
    this.source = host.name;
    this.#host = host;
  }

  /**
   * Why this tool cannot be called on the current connection, if it cannot: it must run as a task
   * (`execution.taskSupport` `required`) and the server does not declare task-augmented `tools/call` (MCP
   * spec 2025-11-25, "Basic > Utilities > Tasks > Tool-Level Negotiation"). Agents do not offer it then.
   */
  unavailableBecause(): string | undefined {
    return this.#host.callRefusal?.(this.name);
  }

  /**
   * Calls the tool. `context.signal` reaches the MCP request and overrides the client's default signal;
   * `context.onProgress` receives the server's `notifications/progress` for this call;
   * `context.idempotencyKey` (a durable run's) goes in the request's `_meta` as
   * {@link IDEMPOTENCY_KEY_META_KEY}; `context.runContext` (an agent run's) is the call's `context`.
   *
   * @returns the rendered result (see `renderCallToolResult`; a `ToolOutput` when `context.acceptsMedia` is
   *   set and the result has images or audio) or what the client's `formatResult` returns.
   * @throws MCPToolError when the server reports `isError: true` and `throwOnToolError` is on (default).
   * @throws MCPCallError when the call does not complete (timeout, abort, transport, JSON-RPC error…).
   */
  async execute(input: Record<string, unknown>, context: ToolContext = {}): Promise<unknown> {
    const options: MCPToolCallOptions = {};
    if (context.signal) options.signal = context.signal;
    if (context.onProgress) options.onprogress = context.onProgress;
    if (context.idempotencyKey !== undefined)
      options._meta = { [IDEMPOTENCY_KEY_META_KEY]: context.idempotencyKey };
    if (context.runContext !== undefined) options.context = context.runContext;
    const result = await this.#host.callTool(this.name, input, options);
    return this.#host.presentResult(this.name, result, { acceptsMedia: context.acceptsMedia === true });
  }
}
