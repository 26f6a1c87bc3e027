/**
 * client/: `MCPClient`, one MCP server's tools, resources and prompts for any agent, and its parts.
 *
 * This file is the public API: tool discovery and refresh on `notifications/tools/list_changed`, the call
 * path (options, errors, rendering), resources, prompts, roots, events. The connection's state machine and
 * reconnection are in connection.ts, the ways to reach a server in transport-plan.ts; the wire work is done
 * by a {@link Session} per connection.
 */

import { UnauthorizedError } from '@modelcontextprotocol/client';
import type { MCPTool, MCPToolHost } from '../adapter/mcp-tool.js';
import { presentResult } from '../adapter/present-result.js';
import { ToolSet } from '../adapter/tool-set.js';
import type { MCPHttpServer, MCPStdioServer } from '../config/server-spec.js';
import { MCPCallError } from '../protocol/errors.js';
import type {
  CallToolResult,
  GetPromptResult,
  LoggingLevel,
  Prompt,
  ReadResourceResult,
  Resource,
  ResourceTemplate,
  Root,
} from '../protocol/types.js';
import {
  DEFAULT_CALL_TIMEOUT_MS,
  type MCPCallOptionsSource,
  type MCPToolCallOptions,
  resolveCallOptions,
} from '../session/call-options.js';
import type { RequestOptions } from '../session/request-options.js';
import { anyObjectSchema, objectWithArraySchema } from '../session/result-checks.js';
import type { Session } from '../session/session.js';
import type { AuthorizationCallback } from '../transports/http/auth.js';
import { completeArgument, type MCPCompleteParams, type MCPCompletion } from './completion.js';
import type { MCPConnectOptions } from './connect-attempt.js';
import { Connection } from './connection.js';
import { DebouncedRefresh } from './debounced-refresh.js';
import { type MCPClientEvents, TypedEmitter } from './events.js';
import { lateMessageLog } from './late-message.js';
import {
  DEFAULT_CONNECT_TIMEOUT_MS,
  DEFAULT_LIST_CHANGED_DEBOUNCE_MS,
  type MCPClientOptions,
  type MCPClientState,
  type MCPRequestOptions,
} from './options.js';
import { httpTransportPlan, stdioTransportPlan, type TransportPlan } from './transport-plan.js';

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
 */
export class MCPClient extends TypedEmitter<MCPClientEvents> implements MCPToolHost {
  /** The server's name, as used in errors, events and prefixes. */
  readonly name: string;
  readonly #plan: TransportPlan;
  readonly #options: MCPClientOptions;
  readonly #tools: ToolSet;
  readonly #connection: Connection;
  #callDefaults: MCPCallOptionsSource | undefined;
  #refreshing: Promise<MCPTool[]> | undefined;
  #refreshAgain = false;
  readonly #listChanged = new DebouncedRefresh();
  #warnedUnadvertised = false;
  #roots: Root[] | undefined;

  private constructor(plan: TransportPlan, options: MCPClientOptions) {
    super();
    this.name = options.name ?? plan.defaultName;
    this.#plan = plan;
    this.#options = options;
    this.#callDefaults = options.callOptions;
    this.#roots = options.roots;
    this.#tools = new ToolSet(this);
    this.#connection = new Connection({
      name: this.name,
      plan,
      options,
      events: this,
      tools: () => this.getTools(),
      toolsListed: (definitions) => this.#applyTools(this.#tools.replace(definitions)),
      toolListChanged: (session) => this.#onToolListChanged(session),
      sessionEnded: (deliberate) => {
        this.#listChanged.cancel();
        if (deliberate) this.#tools.clear();
      },
      sessionEvents: {
        onError: (error: Error) => this.emit('error', error),
        onLateMessage: () => this.emit('log', lateMessageLog(this.name)),
        onServerLog: (message) => this.emit('serverLog', { ...message, server: this.name }),
        onResourceUpdated: (uri) => this.emit('resourceUpdated', { uri }),
        onListChanged: (list) => this.emit(list === 'resources' ? 'resourcesChanged' : 'promptsChanged', {}),
        // MCP spec 2026-07-28, "Custom Headers from Tool Parameters > Client Behavior": SHOULD warn.
        onToolExcluded: (tool) =>
          this.emit('log', {
            level: 'warn',
            message: `MCP server "${this.name}": tool "${tool.name}" is left out of the tool list: its x-mcp-header declaration is invalid (${tool.reason})`,
          }),
      },
      features: () => ({ ...this.#options, currentRoots: () => this.#roots ?? [], redact: plan.redact }),
    });
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
  }

  /** Replaces the default call options given as `callOptions` (`undefined`: none). */
  setCallOptions(options: MCPCallOptionsSource | undefined): void {
    this.#callDefaults = options;
  }

  /**
   * Connects: `initialize` handshake (MCP spec 2025-11-25, "Lifecycle > Initialization"), then `tools/list`
   * through every page. Idempotent; concurrent calls share one attempt; a failure after the handshake
   * closes what was opened. Emits `connected`.
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
    return this.#connection.connect(options.signal);
  }

  #applyTools({ duplicates, ...diff }: ReturnType<ToolSet['replace']>): void {
    if (duplicates.length > 0) {
      const names = [...new Set(duplicates)].map((name) => `"${name}"`).join(', ');
      this.emit('log', {
        level: 'warn',
        message: `MCP server "${this.name}" lists more than one tool named ${names}; keeping the first of each`,
      });
    }
    const changes = diff.added.length + diff.removed.length + diff.changed.length;
    // The first discovery is reported by `connected`, not as a change.
    if (changes > 0 && this.#connection.state !== 'connecting') this.emit('toolsChanged', diff);
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
   *   `not_connected`, `transport`, `http`, `protocol`.
   */
  async callTool(
    name: string,
    input: Record<string, unknown> = {},
    options?: MCPToolCallOptions,
  ): Promise<CallToolResult> {
    const resolved = resolveCallOptions(this.#callDefaults, name, options);
    const timeout = resolved.timeoutMs ?? DEFAULT_CALL_TIMEOUT_MS;
    const deadline = Date.now() + timeout;
    // The timeout bounds the whole call, waiting for a reconnect included: a later attempt gets what is left.
    const request = (session: Session, budget: number) =>
      session.callTool(name, input, { ...resolved, timeoutMs: Math.max(1, budget) });
    // Connected (the common case): no await before the request, and the configured timeout as given.
    const connection = this.#connection;
    const ready = connection.connected;
    const session = ready ?? (await connection.sessionForCall(name, resolved, deadline));
    try {
      return await request(session, ready ? timeout : deadline - Date.now());
    } catch (error) {
      if (error instanceof MCPCallError && connection.meansConnectionLost(error))
        connection.lost(session, error);
      if (!connection.shouldRetry(error, resolved)) throw error;
      // The server lost this call with its connection (crash, expired session): once reconnected, send it again.
      return request(await connection.sessionForCall(name, resolved, deadline), deadline - Date.now());
    }
  }

  /**
   * What a tool's `execute` hands the model: `formatResult`'s value, or the rendered result.
   * @throws MCPToolError when `isError` is set and `throwOnToolError` is on (default).
   */
  presentResult(toolName: string, result: CallToolResult): unknown {
    return presentResult(result, {
      toolName,
      server: this.name,
      outputSchema:
        this.#options.validateOutput === false
          ? undefined
          : this.#tools.get(toolName)?.definition.outputSchema,
      throwOnToolError: this.#options.throwOnToolError !== false,
      formatResult: this.#options.formatResult,
    });
  }

  /**
   * Re-runs discovery (`tools/list`, every page) and returns the refreshed list. Emits `toolsChanged`
   * when it differs. Concurrent calls share one refresh.
   * @throws MCPCallError
   */
  refreshTools(): Promise<MCPTool[]> {
    if (this.#refreshing) {
      this.#refreshAgain = true;
      return this.#refreshing;
    }
    this.#refreshing = this.#refreshOnce().finally(() => {
      this.#refreshing = undefined;
    });
    return this.#refreshing;
  }

  /**
   * Resolves once no tool-list refresh is pending: none waiting out the `list_changed` debounce, none in
   * flight. Agents await it before each model turn. Never rejects (a failed refresh is an `error` event).
   */
  async whenToolsSettled(): Promise<void> {
    const next = () => this.#listChanged.pending ?? this.#refreshing;
    for (let p = next(); p; p = next()) await p.catch(() => {});
  }

  async #refreshOnce(): Promise<MCPTool[]> {
    do {
      this.#refreshAgain = false;
      const session = this.#connection.connected;
      if (!session) throw this.#connection.notConnected('tools/list', 'not connected');
      const definitions = await session.listTools({ timeoutMs: this.#connectTimeoutMs });
      if (session !== this.#connection.session)
        throw this.#connection.notConnected('tools/list', 'the connection changed');
      this.#applyTools(this.#tools.replace(definitions));
    } while (this.#refreshAgain);
    return this.getTools();
  }

  /** The current session, or a `not_connected` error for `method`. */
  #requireSession(method: string): Session {
    return this.#connection.requireSession(method);
  }

  /** The bound on requests other than tool calls, in ms. */
  get #connectTimeoutMs(): number {
    return this.#options.connectTimeoutMs ?? DEFAULT_CONNECT_TIMEOUT_MS;
  }

  #requestOptions(options: MCPRequestOptions = {}): RequestOptions {
    return { timeoutMs: options.timeoutMs ?? this.#connectTimeoutMs, signal: options.signal };
  }

  /**
   * `resources/list`, every page (MCP spec 2025-11-25, "Resources").
   * @throws MCPCallError (kind `jsonrpc` when the server has no resources capability)
   */
  listResources(options?: MCPRequestOptions): Promise<Resource[]> {
    return this.#requireSession('resources/list').listAll(
      'resources/list',
      'resources',
      this.#requestOptions(options),
    );
  }

  /** `resources/templates/list`, every page. @throws MCPCallError */
  listResourceTemplates(options?: MCPRequestOptions): Promise<ResourceTemplate[]> {
    const session = this.#requireSession('resources/templates/list');
    return session.listAll('resources/templates/list', 'resourceTemplates', this.#requestOptions(options));
  }

  /** `resources/read` of one URI: its text or blob contents. @throws MCPCallError */
  readResource(uri: string, options?: MCPRequestOptions): Promise<ReadResourceResult> {
    const schema = objectWithArraySchema<ReadResourceResult>('contents');
    return this.#requireSession('resources/read').request(
      'resources/read',
      { uri },
      schema,
      this.#requestOptions(options),
    );
  }

  /** `resources/subscribe`: `resourceUpdated` events follow for `uri`. @throws MCPCallError */
  async subscribeResource(uri: string, options?: MCPRequestOptions): Promise<void> {
    const session = this.#requireSession('resources/subscribe');
    await session.request('resources/subscribe', { uri }, anyObjectSchema, this.#requestOptions(options));
  }

  /** `resources/unsubscribe`. @throws MCPCallError */
  async unsubscribeResource(uri: string, options?: MCPRequestOptions): Promise<void> {
    const session = this.#requireSession('resources/unsubscribe');
    await session.request('resources/unsubscribe', { uri }, anyObjectSchema, this.#requestOptions(options));
  }

  /** `prompts/list`, every page (MCP spec 2025-11-25, "Prompts"). @throws MCPCallError */
  listPrompts(options?: MCPRequestOptions): Promise<Prompt[]> {
    return this.#requireSession('prompts/list').listAll(
      'prompts/list',
      'prompts',
      this.#requestOptions(options),
    );
  }

  /** `prompts/get` with string arguments. @throws MCPCallError */
  getPrompt(
    name: string,
    args: Record<string, string> = {},
    options?: MCPRequestOptions,
  ): Promise<GetPromptResult> {
    const schema = objectWithArraySchema<GetPromptResult>('messages');
    const params = { name, arguments: args };
    return this.#requireSession('prompts/get').request(
      'prompts/get',
      params,
      schema,
      this.#requestOptions(options),
    );
  }

  /** `completion/complete` (MCP spec 2025-11-25, "Completion"): see {@link completeArgument}. */
  complete(params: MCPCompleteParams, options?: MCPRequestOptions): Promise<MCPCompletion> {
    const session = this.#requireSession('completion/complete');
    return completeArgument(session, params, this.#requestOptions(options));
  }

  /** `logging/setLevel`: the server sends `notifications/message` at `level` and above (`serverLog` events). */
  async setLoggingLevel(level: LoggingLevel, options?: MCPRequestOptions): Promise<void> {
    await this.#requireSession('logging/setLevel').setLogLevel(level, this.#requestOptions(options));
  }

  /** `ping`: resolves when the server answers. @throws MCPCallError */
  async ping(options?: MCPRequestOptions): Promise<void> {
    await this.#requireSession('ping').ping(this.#requestOptions(options));
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

  #onToolListChanged(session: Session): void {
    if (!session.advertisesToolListChanged && !this.#warnedUnadvertised) {
      this.#warnedUnadvertised = true;
      this.emit('log', {
        level: 'warn',
        message: `MCP server "${this.name}" sent notifications/tools/list_changed without advertising tools.listChanged; following it anyway`,
      });
    }
    if (this.#options.refreshToolsOnListChanged === false) return;
    this.#listChanged.schedule(
      this.#options.listChangedDebounceMs ?? DEFAULT_LIST_CHANGED_DEBOUNCE_MS,
      () => {
        this.refreshTools().catch((error: unknown) => {
          this.emit('error', error instanceof Error ? error : new Error(String(error)));
        });
      },
    );
  }
}
