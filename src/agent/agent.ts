/**
 * The agent: one provider-neutral loop over any {@link Model}, with built-in and MCP tools side by side.
 */
import type { RunContext, Tool } from '../core/tool.js';
import { MCPClient, type MCPClientOptions, type MCPServers } from '../mcp/index.js';
import type { Message, Model } from '../providers/model.js';
import type { ApproveHook } from './approval.js';
import { DEFAULT_MAX_TURNS } from './defaults.js';
import { AgentAbortError, AgentError } from './errors.js';
import { EventChannel } from './event-channel.js';
import type { AgentEvent, AgentResult } from './events.js';
import {
  type McpServerHandle,
  type McpServerOptions,
  mcpServersToolGroup,
  mcpToolGroup,
} from './mcp-servers.js';
import { maxToolsFor } from './provider-limits.js';
import { DEFAULT_MAX_TOOL_RESULT_BYTES } from './result-budget.js';
import { runAgent } from './run.js';
import { samplingHandler } from './sampling.js';
import { skillsToolGroup } from './skills.js';
import type { AgentSteps } from './steps.js';
import { DEFAULT_MAX_SERVER_INSTRUCTIONS_BYTES } from './system-prompt.js';
import type { AgentTelemetryOptions } from './telemetry.js';
import { type ToolNamePrefixPolicy, ToolRegistry, type ToolWarning } from './tool-registry.js';
import { DEFAULT_TOOL_SEARCH_THRESHOLD, ToolSearchState } from './tool-search.js';

export { DEFAULT_MAX_TURNS } from './defaults.js';

/** Options of `new Agent()`. */
export interface AgentOptions {
  /** The model (`anthropic({...})`, `openai({...})`, `modelFromEnv()`, or any {@link Model}). */
  model: Model;
  systemPrompt?: string;
  /** Tools to start with (built-ins, `mcp.getTools()`, your own). More with `addTools()`. */
  tools?: readonly Tool[];
  /** Model turns per run before the run fails with kind `max_turns`. Default 25. */
  maxTurns?: number;
  /** Output token bound per model response. Default: the adapter's. */
  maxTokens?: number;
  /** Sees every tool call before it runs; may allow, deny with a reason, or rewrite the arguments. */
  approve?: ApproveHook;
  /** When tool names get their source as a prefix. Default `on-collision`. */
  toolNamePrefix?: ToolNamePrefixPolicy;
  /**
   * Called once per distinct tool warning (a tool skipped for a name clash or an unusable schema), besides
   * the `warning` event of the run that found it. Default: none.
   */
  onWarning?: (warning: ToolWarning) => void;
  /**
   * Budget of each tool result the model is given (MCP and built-in tools, results and errors alike), in
   * bytes of UTF-8. Long base64 runs are always replaced by a placeholder; a result still over budget keeps
   * its start and its end, with a notice between saying how many bytes (and lines) were cut and which of
   * the tool's arguments read a part (`offset`, `head`, `cursor`, …), or where the whole result was
   * written ({@link resultSpillDir}). A tool whose definition says how large its results may be (`_meta`
   * `anthropic/maxResultSizeChars`, characters counted as bytes) gets that budget when it is smaller than
   * its own. Default 100 000 ({@link DEFAULT_MAX_TOOL_RESULT_BYTES}, about 25 000 tokens).
   */
  maxToolResultBytes?: number;
  /**
   * Budgets of particular tools, in bytes, by model-facing name (`server__tool`) or the tool's own name;
   * they win over `addMcpServer(client, { maxToolResultBytes })` and {@link maxToolResultBytes}.
   */
  maxToolResultBytesByTool?: Readonly<Record<string, number>>;
  /**
   * A directory (made when missing) where a tool result over its budget is written whole, one new file
   * per result (`<tool>-<call id>.txt`): the model then gets the result's start and end, and between them
   * the file's path and the result's size, so that a tool that reads files can fetch the rest. Default:
   * none (the result is only cut). A tool's `_meta` size hint (`anthropic/maxResultSizeChars`) lowers its
   * budget, never raises it: see `maxToolResultBytes`.
   */
  resultSpillDir?: string;
  /**
   * Longest text taken from one MCP server's `instructions` into the system prompt, in bytes; longer keeps
   * its start and end. Default 8 192 ({@link DEFAULT_MAX_SERVER_INSTRUCTIONS_BYTES}).
   */
  maxServerInstructionsBytes?: number;
  /**
   * Longest wait for the model stream's next event, in ms, before the request fails with a `ModelError`
   * of kind `timeout`. `0` turns it off. Default: the adapter's (120 000 for the built-in ones).
   */
  modelIdleTimeoutMs?: number;
  /**
   * Longest time for one model request (retries and the whole streamed response), in ms, before it fails
   * with a `ModelError` of kind `timeout`. `0` turns it off. Default: the adapter's (600 000).
   */
  modelRequestTimeoutMs?: number;
  /**
   * When the agent has more tools than this, each request offers the model a `search_tools` tool (ranked
   * search over names, descriptions and parameter names) and the tools it loaded with it, instead of every
   * definition; a `warning` says so once. `0` always searches, `Infinity` never. Default 64
   * ({@link DEFAULT_TOOL_SEARCH_THRESHOLD}). Not used with a model that defers tool loading itself
   * (`anthropic({ toolSearch })`, `Model.defersToolLoading`): that model is offered every tool.
   */
  toolSearchThreshold?: number;
  /**
   * Most tools one request carries; beyond it tools are left out with a `warning` naming them (with tool
   * search, the least recently loaded are unloaded). Default: the provider's bound (128 for `openai`,
   * `PROVIDER_MAX_TOOLS`), none for others.
   */
  maxToolsPerRequest?: number;
  /**
   * OpenTelemetry spans of runs, model requests and tool calls (GenAI semantic conventions), recorded when
   * `@opentelemetry/api` is installed and the host registered a tracer provider. Default: on, no agent
   * name.
   */
  telemetry?: AgentTelemetryOptions;
}

/** Options of one run. */
export interface RunOptions {
  /** Stops the model stream and every in-flight tool call; the run rejects with an `AgentAbortError`. */
  signal?: AbortSignal;
  /**
   * Whom the run is made for (a tenant, a user): every tool call of the run gets it (`ToolContext.runContext`),
   * and MCP tools make their requests with it, so the client's `headers` function, token supplier and
   * hooks see it as `MCPRequestContext.run`, also for the connect a call starts (a server connected when
   * needed). Runs of different tenants may share one `MCPServers`. Default: none.
   */
  context?: RunContext;
}

/**
 * What a durable runner (agentwire/restate) sets for one run: the conversation it continues (appended to in
 * place), where the steps happen, the approval hook, and a look at each event as the run emits it. Not
 * part of the package's API.
 */
export interface RunOverrides {
  history: Message[];
  steps: AgentSteps;
  approve: ApproveHook | undefined;
  observe: (event: AgentEvent) => void;
}

let promptWith:
  | ((
      agent: Agent,
      prompt: string,
      options: RunOptions,
      overrides: RunOverrides,
    ) => AsyncIterableIterator<AgentEvent>)
  | undefined;

/** `agent.prompt(prompt, options)` with `overrides`: how agentwire/restate runs an agent's loop. */
export function promptWithOverrides(
  agent: Agent,
  prompt: string,
  options: RunOptions,
  overrides: RunOverrides,
): AsyncIterableIterator<AgentEvent> {
  return promptWith!(agent, prompt, options, overrides);
}

/**
 * An agent. Conversation history is kept across runs (`messages`, `reset()`); one run at a time.
 *
 * @example
 * ```ts
 * import { Agent, defaultTools, modelFromEnv } from 'agentwire';
 *
 * const agent = new Agent({ model: modelFromEnv(), tools: defaultTools({ root: process.cwd() }) });
 * await agent.withMcpServerStdio('npx', ['-y', '@modelcontextprotocol/server-memory']);
 * for await (const event of agent.prompt('Remember that the build is green.')) {
 *   if (event.type === 'tool_start') console.log(`${event.name} ${JSON.stringify(event.input)}`);
 * }
 * const { text } = await agent.execute('List the files here.', { signal: AbortSignal.timeout(60_000) });
 * console.log(text);
 * await agent.close();
 * ```
 */
export class Agent {
  readonly #options: AgentOptions;
  readonly #registry: ToolRegistry;
  readonly #ownTools: Tool[] = [];
  readonly #servers = new Map<McpServerHandle, () => void>();
  readonly #owned = new Set<McpServerHandle>();
  readonly #reported = new Set<string>();
  readonly #search = new ToolSearchState();
  #history: Message[] = [];
  #running = false;

  static {
    promptWith = (agent, prompt, options, overrides) => agent.#prompt(prompt, options, overrides);
  }

  constructor(options: AgentOptions) {
    this.#options = options;
    this.#registry = new ToolRegistry(options.toolNamePrefix);
    this.#registry.add({ list: () => this.#ownTools });
    if (options.tools) this.addTools(options.tools);
  }

  /** The conversation so far, oldest first. */
  get messages(): readonly Message[] {
    return this.#history;
  }

  /** Forgets the conversation. */
  reset(): void {
    this.#history = [];
    this.#search.clear();
  }

  /**
   * Adds tools.
   * @throws {AgentError} kind `tool_name_collision` when `toolNamePrefix` is `none` and a name clashes
   *   (nothing is added then).
   */
  addTools(tools: Tool | readonly Tool[]): this {
    const list = Array.isArray(tools) ? (tools as readonly Tool[]) : [tools as Tool];
    const before = this.#ownTools.length;
    this.#ownTools.push(...list);
    this.#checkCollisions(() => this.#ownTools.splice(before));
    return this;
  }

  /** The same as {@link addTools}, named to chain with the `withMcpServer*` methods. */
  withTools(tools: Tool | readonly Tool[]): this {
    return this.addTools(tools);
  }

  /**
   * Attaches an MCP server: connects it if needed, offers its tools, and follows its `toolsChanged`.
   * The caller still owns the client (disconnect it yourself; `close()` does not).
   * @throws what `client.connect()` throws (`MCPCallError`), or {@link AgentError} `tool_name_collision`.
   */
  async addMcpServer(client: McpServerHandle, options: McpServerOptions = {}): Promise<this> {
    if (this.#servers.has(client)) return this;
    if (!client.isConnected()) await client.connect();
    const skills = options.skills === true ? await skillsToolGroup(client) : undefined;
    const removeTools = this.#registry.add(mcpToolGroup(client, options));
    const removeSkills = skills && this.#registry.add(skills);
    this.#servers.set(client, () => {
      removeTools();
      removeSkills?.();
    });
    this.#checkCollisions(() => this.removeMcpServer(client));
    return this;
  }

  /**
   * Offers the tools of every server of `servers`, following their changes, without connecting any: call
   * `servers.connectAll()` first (it connects the eager servers and reads the cached tool lists of the
   * lazy ones). A lazy server's tools are found through tool search (unless `deferLoading: false`) and
   * start their server on their first call or search hit. `options.prefix: true` names every tool
   * `<server>__<tool>`; else the `toolNamePrefix` policy applies. Returns a function that detaches them;
   * the caller keeps owning `servers`.
   */
  addMcpServers(
    servers: MCPServers,
    options: Pick<McpServerOptions, 'prefix' | 'maxToolResultBytes'> = {},
  ): () => void {
    const remove = this.#registry.add(mcpServersToolGroup(servers, options));
    this.#checkCollisions(remove);
    return remove;
  }

  /** Detaches a server's tools (does not disconnect it). */
  removeMcpServer(client: McpServerHandle): void {
    this.#servers.get(client)?.();
    this.#servers.delete(client);
  }

  /**
   * Starts a stdio MCP server the agent owns (`close()` stops it) and attaches it: `command` run with
   * `args`, `env` added to its environment (MCP spec 2025-11-25, "Transports > stdio").
   */
  async withMcpServerStdio(
    command: string,
    args: string[] = [],
    env?: Record<string, string>,
    options: MCPClientOptions & McpServerOptions = {},
  ): Promise<this> {
    const client = MCPClient.fromStdio(
      { command, args, ...(env ? { env } : {}) },
      this.#withSampling(options),
    );
    return this.#attachOwned(client, options);
  }

  /** Connects to an HTTP MCP server the agent owns (`close()` disconnects it) and attaches it. */
  async withMcpServerHttp(
    url: string | URL,
    options: Parameters<typeof MCPClient.fromUrl>[1] & McpServerOptions = {},
  ): Promise<this> {
    return this.#attachOwned(MCPClient.fromUrl(url, this.#withSampling(options)), options);
  }

  /** Servers the agent starts may ask its model for completions (`sampling/createMessage`), unless told otherwise. */
  #withSampling<O extends MCPClientOptions>(options: O): O {
    return options.onSampling ? options : { ...options, onSampling: samplingHandler(this.#options.model) };
  }

  /** The tools the model would see now: model-facing name → tool. */
  getTools(): Map<string, Tool> {
    const table = this.#registry.build(this.#options.model);
    return new Map([...table.byModelName].map(([name, entry]) => [name, entry.tool]));
  }

  /**
   * Runs `prompt` as a stream of events ({@link AgentEvent}). The stream ends after `agent_end`, or
   * after an `error` event by throwing that error. Leaving the loop early aborts the run.
   */
  prompt(prompt: string, options: RunOptions = {}): AsyncIterableIterator<AgentEvent> {
    return this.#prompt(prompt, options, undefined);
  }

  #prompt(
    prompt: string,
    options: RunOptions,
    overrides: RunOverrides | undefined,
  ): AsyncIterableIterator<AgentEvent> {
    const controller = new AbortController();
    // Settles (never rejects) once the run has stopped; a consumer's early `break` waits for it.
    let finished: Promise<void> = Promise.resolve();
    const channel = new EventChannel<AgentEvent>(() => {
      controller.abort(new Error('the event stream was closed early'));
      return finished;
    });
    if (this.#running) {
      channel.fail(
        new AgentError('busy', 'the agent is already running; wait for the current run to finish'),
      );
      return channel;
    }
    this.#running = true;
    const signal = options.signal ? AbortSignal.any([options.signal, controller.signal]) : controller.signal;
    const emit = (event: AgentEvent) => {
      overrides?.observe(event);
      channel.push(event);
    };
    const settings = this.#options;
    finished = runAgent(prompt, {
      model: this.#options.model,
      system: this.#options.systemPrompt,
      maxTurns: this.#options.maxTurns ?? DEFAULT_MAX_TURNS,
      maxTokens: this.#options.maxTokens,
      modelTimeouts: {
        ...(settings.modelIdleTimeoutMs === undefined ? {} : { idleTimeoutMs: settings.modelIdleTimeoutMs }),
        ...(settings.modelRequestTimeoutMs === undefined
          ? {}
          : { requestTimeoutMs: settings.modelRequestTimeoutMs }),
      },
      resultBudget: {
        maxBytes: settings.maxToolResultBytes ?? DEFAULT_MAX_TOOL_RESULT_BYTES,
        byTool: settings.maxToolResultBytesByTool ?? {},
        spillDir: settings.resultSpillDir,
      },
      maxServerInstructionsBytes:
        settings.maxServerInstructionsBytes ?? DEFAULT_MAX_SERVER_INSTRUCTIONS_BYTES,
      registry: this.#registry,
      toolOffer: {
        // A model that defers tool definitions itself (Anthropic's tool search) is offered every tool.
        threshold: settings.model.defersToolLoading
          ? Number.POSITIVE_INFINITY
          : (settings.toolSearchThreshold ?? DEFAULT_TOOL_SEARCH_THRESHOLD),
        maxTools: maxToolsFor(settings.model, settings.maxToolsPerRequest),
      },
      toolSearch: this.#search,
      approve: overrides ? overrides.approve : this.#options.approve,
      history: overrides?.history ?? this.#history,
      signal,
      emit,
      warn: (warnings) => this.#warn(warnings, emit),
      telemetry: settings.telemetry,
      steps: overrides?.steps,
      runContext: options.context,
    }).then(
      () => {
        // Free the agent before the consumer can see the end, so a next run may start right away.
        this.#running = false;
        channel.close();
      },
      (error: unknown) => {
        this.#running = false;
        const failure =
          signal.aborted && !(error instanceof AgentAbortError) ? new AgentAbortError(signal.reason) : error;
        emit({ type: 'error', error: failure instanceof Error ? failure : new Error(String(failure)) });
        channel.fail(failure);
      },
    );
    return channel;
  }

  /**
   * Runs `prompt` and resolves with the final result, without the events in between.
   * @throws {AgentAbortError} when `signal` fires; {@link AgentError} `max_turns` / `busy`; the
   *   provider's `ModelError`.
   */
  async execute(prompt: string, options: RunOptions = {}): Promise<AgentResult> {
    let result: AgentResult | undefined;
    // Drained to the end rather than left at `agent_end`: leaving early would abort the run.
    for await (const event of this.prompt(prompt, options)) {
      if (event.type === 'agent_end') result = event.result;
    }
    if (result === undefined) throw new AgentError('aborted', 'the run ended without a result');
    return result;
  }

  /** Disconnects the MCP servers this agent started (`withMcpServerStdio` / `withMcpServerHttp`). */
  async close(): Promise<void> {
    const owned = [...this.#owned];
    this.#owned.clear();
    for (const client of owned) this.removeMcpServer(client);
    await Promise.all(owned.map((client) => client.disconnect()));
  }

  async #attachOwned(client: MCPClient, options: McpServerOptions): Promise<this> {
    this.#owned.add(client);
    try {
      return await this.addMcpServer(client, {
        ...(options.prefix === undefined ? {} : { prefix: options.prefix }),
        ...(options.maxToolResultBytes === undefined
          ? {}
          : { maxToolResultBytes: options.maxToolResultBytes }),
        ...(options.skills === undefined ? {} : { skills: options.skills }),
      });
    } catch (error) {
      this.#owned.delete(client);
      await client.disconnect();
      throw error;
    }
  }

  #checkCollisions(undo: () => void): void {
    if (this.#options.toolNamePrefix !== 'none') return;
    const clash = this.#registry.collisions()[0];
    if (clash === undefined) return;
    undo();
    throw new AgentError('tool_name_collision', clash.message);
  }

  #warn(warnings: ToolWarning[], emit: (event: AgentEvent) => void): void {
    for (const warning of warnings) {
      if (this.#reported.has(warning.message)) continue;
      this.#reported.add(warning.message);
      emit({ type: 'warning', message: warning.message, tool: warning.tool });
      this.#options.onWarning?.(warning);
    }
  }
}
