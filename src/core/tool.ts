import type { JsonSchema } from './json.js';

/**
 * Who a run (or one call) is made for, as the host names it: the tenant, the user, whatever its headers
 * function, token supplier and hooks need to choose credentials. agentwire never reads it; it hands it,
 * unchanged, to every request made on the run's behalf (`MCPRequestContext.run`).
 */
export interface RunContext {
  /** The tenant (or user) the run belongs to. */
  readonly tenant?: string;
  /** Anything else the host's headers function or hooks need. */
  readonly [key: string]: unknown;
}

/**
 * What a tool's `execute` receives besides its input.
 *
 * The agent loop creates one per tool call; MCP tools pass `signal` on to the MCP request so that aborting
 * the run cancels the call on the server (`notifications/cancelled`), overriding any default signal set on
 * the client (MCP spec 2025-11-25, "Utilities > Cancellation").
 */
export interface ToolContext {
  /** Aborts the call. When it fires, `execute` rejects promptly and releases what it started. */
  signal?: AbortSignal;
  /** The model's id for this tool call, when the call comes from a model. */
  toolCallId?: string;
  /**
   * Progress reports from a long tool (for MCP tools: `notifications/progress`). `total` is omitted when the
   * server does not know it.
   */
  onProgress?: (progress: ToolProgress) => void;
  /**
   * Set by a caller that can hand images and audio to its model (the agent): the tool may then resolve
   * with a `ToolOutput` (text and media in order) instead of text. MCP tools do when the result has
   * image or audio blocks and the client has no `formatResult`. Default false: text only.
   */
  acceptsMedia?: boolean;
  /**
   * Set by a durable run (agentwire/restate): the same key every time this call is made, on whichever
   * process makes it, so that a tool with side effects can drop a repeat of a call it already did.
   */
  idempotencyKey?: string;
  /**
   * The run's context (`RunOptions.context` of the agent): MCP tools pass it to the client as the call's
   * `context`, so that the request (and a connect it starts) carries the run's credentials.
   */
  runContext?: RunContext;
}

/** One progress report (MCP `notifications/progress` params, minus the token). */
export interface ToolProgress {
  progress: number;
  total?: number;
  message?: string;
}

/**
 * A tool a model can call: MCP tools (see `MCPClient.getTools()`) and built-in tools implement the same
 * interface, so an agent never needs to know where a tool comes from.
 *
 * `execute` resolves with the value handed to the model (usually a string) and rejects when the tool fails;
 * the agent reports a rejection back to the model as a tool result marked as an error.
 */
export interface Tool {
  /** The tool's name, as its source defines it (MCP tools keep the server's name unchanged). */
  readonly name: string;
  /** What the tool does, for the model. May be empty. */
  readonly description: string;
  /** The full JSON Schema of the input object, unreduced. */
  readonly inputSchema: JsonSchema;
  /** Where the tool comes from: `builtin`, or the MCP server's name. Informational (approval hooks, logs). */
  readonly source?: string;
  /**
   * The server prefix `name` already carries (`github` for `github__create_issue`), set by
   * `MCPServers.getTools({ prefix: true })`. An agent never prefixes such a name again. A plain property, so
   * that it survives a wrapper that copies the tool (`{ ...tool, execute }`) and tools from another copy of
   * agentwire.
   */
  readonly namePrefix?: string;
  /** Runs the tool. */
  execute(input: Record<string, unknown>, context?: ToolContext): Promise<unknown>;
}
