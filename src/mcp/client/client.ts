/**
 * client/: `MCPClient`, one MCP server's tools, resources and prompts for any agent, and its parts.
 *
 * This file is the public API: tools, the call path (options, errors, rendering), resources, prompts, roots,
 * events. Tool discovery and refresh on `notifications/tools/list_changed` are in tool-refresh.ts, the
 * connection's state machine and reconnection in connection.ts, the ways to reach a server in
 * transport-plan.ts, how the parts are wired in client-parts.ts; the wire work is done by a `Session` per
 * connection.
 */

import { UnauthorizedError } from '@modelcontextprotocol/client';
import type { MCPTool, MCPToolHost } from '../adapter/mcp-tool.js';
import { presentResult } from '../adapter/present-result.js';
import type { ToolSet } from '../adapter/tool-set.js';
import type { MCPHttpServer, MCPStdioServer } from '../config/server-spec.js';
import type {
  CallToolResult,
  GetPromptResult,
  LoggingLevel,
  MCPServerCapabilities,
  Prompt,
  ReadResourceResult,
  Resource,
  ResourceTemplate,
  Root,
} from '../protocol/types.js';
import { callOptionsThroughHooks, type MCPToolCallOptions } from '../session/call-options.js';
import type { RequestOptions } from '../session/request-options.js';
import type { Session } from '../session/session.js';
import type { MCPTaskPassThrough } from '../session/tasks/tasks-passthrough.js';
import type { AuthorizationCallback } from '../transports/http/auth.js';
import { CallDefaults } from './call-defaults.js';
import type { CallLimiter } from './call-limiter.js';
import { clientParts } from './client-parts.js';
import type { MCPCompleteParams, MCPCompletion } from './completion.js';
import type { MCPConnectOptions } from './connect-attempt.js';
import type { Connection } from './connection.js';
import { type MCPClientEvents, TypedEmitter } from './events.js';
import { RequestHooks } from './hooks/request-hooks.js';
import type { MCPClientOptions, MCPClientState, MCPRequestOptions } from './options.js';
import type { ResponseCache } from './response-cache.js';
import type { ServerFeatures } from './server-features.js';
import type { MCPSkill } from './skill-entries.js';
import type { MCPSkillFile } from './skill-verify.js';
import { listSkills, loadSkill, type MCPLoadedSkill, readSkillFile } from './skills.js';
import { type MCPTask, type MCPTaskCall, startTaskCall } from './task-calls.js';
import { ConnectionCalls } from './tool-call.js';
import type { ToolRefresh } from './tool-refresh.js';
import { httpTransportPlan, stdioTransportPlan, type TransportPlan } from './transport-plan.js';

/** A tool's arguments. */
type ToolInput = Record<string, unknown>;

export type { MCPConnectOptions } from './connect-attempt.js';
export {
  DEFAULT_CONNECT_TIMEOUT_MS,
  type MCPClientOptions,
  type MCPClientState,
  type MCPFormatResultContext,
  type MCPRequestOptions,
} from './options.js';

/**
 * One MCP server's tools for any agent. Create with {@link MCPClient.fromStdio} or {@link MCPClient.fromUrl};
 * nothing starts until `connect()`. A Node `EventEmitter` with typed events ({@link MCPClientEvents}).
 * Methods that talk to the server throw `MCPCallError` (see its `kind`); tools' `execute` also throws
 * `MCPToolError` for `isError` results.
 *
 * @example
 * ```ts
 * import { MCPCallError, MCPClient } from 'agentwire';
 *
 * const client = MCPClient.fromStdio({
 *   command: 'npx',
 *   args: ['-y', '@modelcontextprotocol/server-everything'],
 * });
 * client.on('toolsChanged', ({ added }) => console.log('new tools:', added.map((tool) => tool.name)));
 * try {
 *   await client.connect();
 *   const echo = client.getTools().find((tool) => tool.name === 'echo');
 *   console.log(await echo?.execute({ message: 'hi' })); // "Echo: hi", rendered for a model
 *   console.log(await client.callTool('get-sum', { a: 2, b: 40 }, { timeoutMs: 5_000 })); // the raw result
 * } catch (error) {
 *   if (error instanceof MCPCallError) console.error(error.kind, error.message); // timeout, spawn, …
 *   else throw error;
 * } finally {
 *   await client.disconnect();
 * }
 * ```
 */
export class MCPClient extends TypedEmitter<MCPClientEvents> implements MCPToolHost {
  /** The server's name, as used in errors, events and prefixes. */
  readonly name: string;
  readonly #plan: TransportPlan;
  readonly #options: MCPClientOptions;
  readonly #tools: ToolSet;
  readonly #connection: Connection;
  readonly #calls: CallLimiter;
  readonly #callDefaults: CallDefaults;
  /** Tool discovery after `connect()`: refreshes, `list_changed` (tool-refresh.ts). */
  readonly #toolRefresh: ToolRefresh;
  #roots: Root[] | undefined;
  /** Cacheable 2026-07-28 results, across connections (`cache` option; response-cache.ts). */
  readonly #cache: ResponseCache | undefined;
  /** Resources, prompts, completion, logging (server-features.ts). */
  readonly #features: ServerFeatures;
  /** Requests through the `hooks` option and its shorthands (hooks/request-hooks.ts). */
  readonly #hooks: RequestHooks;
  /** `tools/call`s on the connection (tool-call.ts). */
  readonly #toolCalls: ConnectionCalls;

  private constructor(plan: TransportPlan, options: MCPClientOptions) {
    super();
    this.name = options.name ?? plan.defaultName;
    this.#plan = plan;
    this.#options = options;
    this.#callDefaults = new CallDefaults(callOptionsThroughHooks(options.callOptions, options.hooks), this);
    this.#roots = options.roots;
    const rounds = options.maxInputRounds;
    // A bound that is not a count (NaN, 1.5, -1) would never stop the rounds, or stop them at once.
    if (rounds !== undefined && !(Number.isInteger(rounds) && rounds >= 0))
      throw new RangeError(`maxInputRounds must be a whole number of at least 0 (got ${rounds})`);
    this.#hooks = new RequestHooks(this.name, plan.transport, options, plan.asksPerRequest === true);
    const parts = clientParts(this, this.name, plan, options, () => this.#roots ?? [], this.#hooks);
    this.#tools = parts.tools;
    this.#cache = parts.cache;
    this.#calls = parts.calls;
    this.#features = parts.features;
    this.#toolRefresh = parts.toolRefresh;
    this.#connection = parts.connection;
    this.#toolCalls = new ConnectionCalls(
      parts.connection,
      parts.calls,
      this.#callDefaults,
      this.#hooks,
      plan.redact,
    );
  }

  /**
   * A client that spawns a local server and speaks newline-delimited JSON-RPC over its stdin/stdout
   * (MCP spec 2025-11-25, "Transports > stdio"). Nothing starts until `connect()`.
   */
  static fromStdio(server: MCPStdioServer, options: MCPClientOptions = {}): MCPClient {
    return new MCPClient(stdioTransportPlan(server, options.name), options);
  }

  /**
   * A client for a remote server over Streamable HTTP (MCP spec 2025-11-25, "Transports > Streamable
   * HTTP"), falling back to the 2024-11-05 HTTP+SSE transport when the server is an old one and
   * `transport` is `'auto'` (default). Nothing is sent until `connect()`.
   */
  static fromUrl(url: string | URL, options: MCPClientOptions & MCPHttpServer = {}): MCPClient {
    return new MCPClient(httpTransportPlan(url, options), options);
  }

  /** Current connection state. */
  getState(): MCPClientState {
    return this.#connection.state;
  }

  /** `getState() === 'connected'`. */
  isConnected(): boolean {
    return this.#connection.state === 'connected';
  }

  /** The server's `clientInfo`-style name and version from the handshake, once connected. */
  getServerInfo(): { name: string; version: string; title?: string } | undefined {
    return this.#connection.session?.serverInfo;
  }

  /**
   * The MCP revision agreed with the server on the current connection (`'2026-07-28'`, `'2025-11-25'`, …),
   * `undefined` when not connected. See the `protocolVersion` option (MCP spec 2026-07-28, "Basic >
   * Versioning"; "Server > Discover").
   */
  getProtocolVersion(): string | undefined {
    return this.#connection.connected?.protocolVersion;
  }

  /** The Streamable HTTP `Mcp-Session-Id` of the current connection, if the server assigned one. */
  get sessionId(): string | undefined {
    return this.#connection.session?.sessionId;
  }

  /** The server's `instructions` from the handshake, if it sent any. */
  getInstructions(): string | undefined {
    return this.#connection.session?.instructions;
  }

  /** One `Tool` per server tool, in the server's order; `[]` before `connect()`. */
  getTools(): MCPTool[] {
    return this.#tools.list();
  }

  /**
   * Completes an OAuth authorization the user granted in a browser (MCP spec 2025-11-25, "Authorization"):
   * exchanges the code for tokens, which the `authProvider` saves; then call `connect()` again. Takes the
   * redirect URL (or its query: the code and the RFC 9207 `iss` are read from it), or the bare code.
   * @throws UnauthorizedError (the SDK's) when the client has no `authProvider`, the callback carries an
   *   OAuth error or no code, or the code does not yield tokens; the SDK's OAuth errors when a request fails.
   */
  async finishAuth(callback: AuthorizationCallback): Promise<void> {
    if (this.#plan.auth === undefined) throw new UnauthorizedError('finishAuth needs an authProvider');
    await this.#plan.auth.finishAuth(callback);
    // A new authorization may be another user's: "private" results are not theirs (spec "Caching").
    this.#cache?.dropPrivate();
  }

  /** Replaces the default call options given as `callOptions` (`undefined`: none); `hooks.callOptions` stay. */
  setCallOptions(options: MCPClientOptions['callOptions']): void {
    this.#callDefaults.source = callOptionsThroughHooks(options, this.#options.hooks);
  }

  /**
   * Connects: `initialize` handshake (MCP spec 2025-11-25, "Lifecycle > Initialization"), then `tools/list`
   * through every page when the server declares `tools` (none otherwise: its tool list is empty).
   * Idempotent; concurrent calls share one attempt; a failure after the handshake closes what was opened.
   * Emits `connected`.
   *
   * `options.signal` stops this caller's wait: the call rejects with `MCPCallError` kind `aborted` (method
   * `connect`, `cause` the signal's reason). When no other caller waits for the attempt (every concurrent
   * caller passed a signal, and each has fired), the attempt is aborted too: the stdio server's process tree
   * is stopped, or the HTTP requests aborted, before the last caller's rejection, and the client is left
   * `disconnected` (not `failed`: nothing is wrong with the server), with no event. A caller without a
   * signal keeps the attempt going. An already-aborted signal rejects at once, starting nothing. While a
   * reconnect is under way the signal only ends the wait; the reconnect goes on.
   * @throws MCPCallError (kind `spawn`, `transport`, `http`, `timeout`, `protocol`, `aborted`, …) naming
   *   the server; kind `not_connected` when `disconnect()` is called meanwhile.
   */
  connect(options: MCPConnectOptions = {}): Promise<void> {
    const state = this.getState();
    const starts = state === 'disconnected' || state === 'failed';
    return this.#hooks.connect(options.context, starts, () => this.#connection.connect(options.signal));
  }

  /**
   * Disconnects: cancels a pending connect or reconnect, ends the connection (HTTP DELETE of the session,
   * or the stdio server's whole process tree), clears the tool list, and fails calls waiting for a
   * reconnect with kind `not_connected`. Idempotent; never throws. Emits `disconnected` (deliberate).
   */
  disconnect(): Promise<void> {
    return this.#connection.disconnect();
  }

  /**
   * Calls a tool and returns the raw `CallToolResult` (every content block, `structuredContent`, `isError`).
   * Does not render the result and does not throw on `isError`. `options` are layered over the client's
   * `callOptions`. While a reconnect is in flight the call waits for it, bounded by its own timeout.
   * @throws MCPCallError — kind `timeout`, `aborted`, `jsonrpc`, `connection_closed`, `session_expired`,
   *   `not_connected`, `transport`, `http`, `protocol`; `may_have_run` for a call lost before its response (a
   *   forgotten session, a broken 2026-07-28 stream, a lost connection) to a tool not annotated `readOnlyHint` or
   *   `idempotentHint`, which is not sent again (docs/client.md, "Lost connections and reconnection").
   */
  callTool(name: string, input: ToolInput = {}, options?: MCPToolCallOptions): Promise<CallToolResult> {
    return this.#toolCalls.callTool(name, input, options);
  }

  /**
   * Calls a tool as a task (`task: true`, see `MCPToolCallOptions.task`) and returns a handle at once: the
   * task's last status and progress, `cancel()`, and the final `result` (what `callTool` resolves with).
   * Input the task asks for goes to the client's handlers (`onElicitation`, `onSampling`, `roots`).
   */
  callToolAsTask(name: string, input: ToolInput = {}, options?: MCPToolCallOptions): MCPTaskCall {
    return startTaskCall((merged) => this.callTool(name, input, merged), options);
  }

  /** This client's tasks (`tasks/list`, every page). @throws MCPCallError (`protocol`: no `tasks.list`) */
  listTasks(options?: MCPRequestOptions): Promise<MCPTask[]> {
    return this.#features.through('tasks/list', options, (session, o) => session.tasks.list(o));
  }

  /** Any task by id, whoever created it (`tasks/get`). @throws MCPCallError (`protocol`: no tasks) */
  getTask(taskId: string, options?: MCPRequestOptions): Promise<MCPTask> {
    return this.#features.through('tasks/get', options, (session, o) => session.tasks.get(taskId, o));
  }

  /** The server's tasks, raw, for an intermediary to pass on (the gateway). @throws MCPCallError */
  taskPassThrough(method: string): MCPTaskPassThrough {
    return this.#features.session(method).tasks.passThrough();
  }

  /** `tasks/cancel` of any task id; the task, when the answer has it. @throws MCPCallError (`protocol`) */
  cancelTask(taskId: string, options?: MCPRequestOptions): Promise<MCPTask | undefined> {
    return this.#features.through('tasks/cancel', options, (session, o) => session.tasks.cancel(taskId, o));
  }

  /** Why the tool cannot be called on the current connection, if it cannot (see `Session.tasks`). */
  callRefusal(toolName: string): string | undefined {
    return this.#connection.connected?.tasks.refusal(toolName);
  }

  /**
   * What a tool's `execute` hands the model: the `formatResult` hooks' value, or the rendered result.
   * @throws MCPToolError when `isError` is set and `throwOnToolError` is on (default).
   */
  presentResult(toolName: string, result: CallToolResult, media: { acceptsMedia?: boolean } = {}): unknown {
    return presentResult(result, {
      acceptsMedia: media.acceptsMedia === true,
      toolName,
      server: this.name,
      outputSchema:
        this.#options.validateOutput === false
          ? undefined
          : this.#tools.get(toolName)?.definition.outputSchema,
      throwOnToolError: this.#options.throwOnToolError !== false,
      format: this.#options,
    });
  }

  /**
   * Re-runs discovery (`tools/list`, every page, never from the response cache: see the `cache` option) and
   * returns the refreshed list; `[]`, without a request, when the server does not declare `tools`. Emits
   * `toolsChanged` when it differs. Concurrent calls share one refresh.
   * @throws MCPCallError
   */
  refreshTools(options: Pick<MCPConnectOptions, 'context'> = {}): Promise<MCPTool[]> {
    return this.#hooks.inRun(options.context, () => this.#toolRefresh.refresh());
  }

  /**
   * Resolves once no tool-list refresh is pending: none waiting out the `list_changed` debounce, none in
   * flight. Agents await it before each model turn. Never rejects (a failed refresh is an `error` event).
   */
  whenToolsSettled(): Promise<void> {
    return this.#toolRefresh.whenSettled();
  }

  /**
   * The capabilities the server declared on the current connection (MCP spec 2025-11-25 and 2026-07-28,
   * "Lifecycle > Capability Negotiation"); `undefined` when not connected. The client sends only what they
   * allow: a list the server does not offer is `[]`, another request fails with kind `unsupported`.
   */
  getServerCapabilities(): MCPServerCapabilities | undefined {
    return this.#connection.connected?.serverCapabilities;
  }

  /**
   * `resources/list`, every page (MCP spec 2025-11-25, "Resources"); `[]`, without a request, when the
   * server does not declare `resources`. @throws MCPCallError
   */
  listResources(options?: MCPRequestOptions): Promise<Resource[]> {
    return this.#features.list('resources/list', 'resources', options);
  }

  /** `resources/templates/list`, every page; `[]` without `resources`. @throws MCPCallError */
  listResourceTemplates(options?: MCPRequestOptions): Promise<ResourceTemplate[]> {
    return this.#features.list('resources/templates/list', 'resourceTemplates', options);
  }

  /**
   * `resources/read` of one URI: its text or blob contents.
   * @throws MCPCallError (kind `unsupported`, `capability` `resources`, when the server does not declare it)
   */
  readResource(uri: string, options?: MCPRequestOptions): Promise<ReadResourceResult> {
    return this.#features.read(uri, options);
  }

  /**
   * `resourceUpdated` events follow for `uri` (2026-07-28: client/subscriptions.ts).
   * @throws MCPCallError (kind `unsupported`, `capability` `resources.subscribe`, when not declared)
   */
  subscribeResource(uri: string, options?: MCPRequestOptions): Promise<void> {
    return this.#features.subscribe(uri, true, options);
  }

  /**
   * `resources/unsubscribe` (2026-07-28: client/subscriptions.ts); resolves without a request when the
   * server does not declare `resources.subscribe` (it holds no subscription). @throws MCPCallError
   */
  unsubscribeResource(uri: string, options?: MCPRequestOptions): Promise<void> {
    return this.#features.subscribe(uri, false, options);
  }

  /** `prompts/list`, every page (spec "Prompts"); `[]` without `prompts`. @throws MCPCallError */
  listPrompts(options?: MCPRequestOptions): Promise<Prompt[]> {
    return this.#features.list('prompts/list', 'prompts', options);
  }

  /**
   * `prompts/get` with string arguments.
   * @throws MCPCallError (kind `unsupported`, `capability` `prompts`, when the server does not declare it)
   */
  getPrompt(
    name: string,
    args: Record<string, string> = {},
    options?: MCPRequestOptions,
  ): Promise<GetPromptResult> {
    return this.#features.getPrompt(name, args, options);
  }

  /**
   * `completion/complete` (MCP spec 2025-11-25, "Completion"): see `completeArgument`.
   * @throws MCPCallError (kind `unsupported`, `capability` `completions`, when the server does not declare it)
   */
  complete(params: MCPCompleteParams, options?: MCPRequestOptions): Promise<MCPCompletion> {
    return this.#features.complete(params, options);
  }

  /** The server's skills (SEP-2640; `[]` when it does not offer the extension): see {@link listSkills}. */
  listSkills(options?: MCPRequestOptions): Promise<MCPSkill[]> {
    return this.#features.through('skills/list', options, (session, o) => listSkills(session, this.name, o));
  }

  /** Loads a skill by name or `SKILL.md` URI, every file verified: see {@link loadSkill}. */
  loadSkill(skill: string, options?: MCPRequestOptions): Promise<MCPLoadedSkill> {
    const load = (session: Session, o: RequestOptions) => loadSkill(session, this.name, skill, o);
    return this.#features.through('skills/list', options, load);
  }

  /** One verified file of a skill (`path` below its directory): see {@link readSkillFile}. */
  readSkillFile(skill: string, path = 'SKILL.md', options?: MCPRequestOptions): Promise<MCPSkillFile> {
    const read = (session: Session, o: RequestOptions) => readSkillFile(session, this.name, skill, path, o);
    return this.#features.through('resources/read', options, read);
  }

  /**
   * `logging/setLevel`: the server sends `notifications/message` at `level` and above (`serverLog` events);
   * in 2026-07-28 the level goes in each later request's `_meta` instead.
   * @throws MCPCallError (kind `unsupported`, `capability` `logging`, when the server does not declare it)
   */
  setLoggingLevel(level: LoggingLevel, options?: MCPRequestOptions): Promise<void> {
    return this.#features.setLoggingLevel(level, options);
  }

  /** `ping`: resolves when the server answers. @throws MCPCallError */
  async ping(options?: MCPRequestOptions): Promise<void> {
    await this.#features.ping(options);
  }

  /**
   * Replaces the roots offered to the server and sends `notifications/roots/list_changed` when connected.
   * Only meaningful when the client was created with a `roots` option (which declares the capability).
   */
  async setRoots(roots: Root[]): Promise<void> {
    this.#roots = roots;
    if (this.#options.roots && this.#connection.state === 'connected')
      await this.#connection.session?.rootsChanged();
  }
}
