/**
 * `MCPClient`: one MCP server's tools for any agent (TypeScript seed, whole page; Rust seed, "Using the MCP
 * Client Directly"). It owns the connection lifecycle (state, events, reconnection with backoff), tool
 * discovery and refresh on `notifications/tools/list_changed`, and the call path (options, errors,
 * rendering). The wire work is done by a {@link Session} per connection.
 */

import { UnauthorizedError } from '@modelcontextprotocol/client';
import { VERSION } from '../../core/version.js';
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
import { toCallError } from '../session/error-mapping.js';
import { anyObjectSchema, objectWithArraySchema } from '../session/result-checks.js';
import { Session, type SessionHooks, type SessionRequestOptions } from '../session/session.js';
import type { AuthorizationCallback } from '../transports/http/auth.js';
import { type MCPClientEvents, TypedEmitter } from './events.js';
import type { MCPClientOptions, MCPClientState, MCPRequestOptions } from './options.js';
import { backoffDelay, type ReconnectPolicy, reconnectPolicy } from './reconnect.js';
import { httpTransportPlan, stdioTransportPlan, type TransportPlan } from './transport-plan.js';
import { type Deferred, deferred, sleep, waitWithin } from './waiting.js';

export type {
  MCPClientOptions,
  MCPClientState,
  MCPFormatResultContext,
  MCPRequestOptions,
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
  readonly #policy: ReconnectPolicy;
  readonly #tools: ToolSet;
  #callDefaults: MCPCallOptionsSource | undefined;
  #state: MCPClientState = 'disconnected';
  #session: Session | undefined;
  #connecting: Promise<void> | undefined;
  #connectAbort: AbortController | undefined;
  #reconnectAbort: AbortController | undefined;
  #ready: Deferred | undefined;
  #refreshing: Promise<MCPTool[]> | undefined;
  #refreshAgain = false;
  #listChangedTimer: NodeJS.Timeout | undefined;
  #warnedUnadvertised = false;
  #roots: Root[] | undefined;
  #disconnecting: Promise<void> | undefined;

  private constructor(plan: TransportPlan, options: MCPClientOptions) {
    super();
    this.name = options.name ?? plan.defaultName;
    this.#plan = plan;
    this.#options = options;
    this.#policy = reconnectPolicy(options.reconnect);
    this.#callDefaults = options.callOptions;
    this.#roots = options.roots;
    this.#tools = new ToolSet(this);
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
    return this.#state;
  }

  /** `getState() === 'connected'`. */
  isConnected(): boolean {
    return this.#state === 'connected';
  }

  /** The server's `clientInfo`-style name and version from the handshake, once connected. */
  getServerInfo(): { name: string; version: string; title?: string } | undefined {
    return this.#session?.serverInfo;
  }

  /** The Streamable HTTP `Mcp-Session-Id` of the current connection, if the server assigned one. */
  get sessionId(): string | undefined {
    return this.#session?.sessionId;
  }

  /** The server's `instructions` from the handshake, if it sent any. */
  getInstructions(): string | undefined {
    return this.#session?.instructions;
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

  /** Replaces the default call options (TypeScript seed, `setCallOptions()`). */
  setCallOptions(options: MCPCallOptionsSource | undefined): void {
    this.#callDefaults = options;
  }

  /**
   * Connects: `initialize` handshake, then `tools/list` through every page. Idempotent; concurrent calls
   * share one attempt; a failure after the handshake closes what was opened. Emits `connected`.
   * @throws MCPCallError (kind `spawn`, `transport`, `http`, `timeout`, `protocol`, …) naming the server.
   */
  connect(): Promise<void> {
    if (this.#state === 'connected') return Promise.resolve();
    if (this.#state === 'reconnecting' && this.#ready) return this.#ready.promise;
    this.#connecting ??= this.#connectOnce().finally(() => {
      this.#connecting = undefined;
    });
    return this.#connecting;
  }

  async #connectOnce(): Promise<void> {
    this.#state = 'connecting';
    const abort = new AbortController();
    this.#connectAbort = abort;
    try {
      await this.#establish(abort.signal);
      this.#state = 'connected';
      this.emit('connected', { tools: this.getTools() });
    } catch (error) {
      if (!abort.signal.aborted) this.#state = 'failed';
      throw abort.signal.aborted
        ? this.#notConnected('connect', 'disconnect() was called while connecting')
        : error;
    } finally {
      this.#connectAbort = undefined;
    }
  }

  /** Opens a session and discovers tools; on success it is the current session. */
  async #establish(signal: AbortSignal): Promise<void> {
    const options: SessionRequestOptions = { signal, timeout: this.#options.connectTimeout ?? 60_000 };
    const session = await this.#openSession(options);
    try {
      const definitions = await session.listTools(options);
      if (this.#options.logLevel)
        await session.request(
          'logging/setLevel',
          { level: this.#options.logLevel },
          anyObjectSchema,
          options,
        );
      if (signal.aborted) throw this.#notConnected('connect', 'disconnect() was called while connecting');
      this.#session = session;
      return this.#applyTools(this.#tools.replace(definitions));
    } catch (error) {
      await session.close();
      throw error;
    }
  }

  async #openSession(options: SessionRequestOptions): Promise<Session> {
    const clientInfo = {
      name: this.#options.clientName ?? 'agentwire',
      version: this.#options.clientVersion ?? VERSION,
    };
    let refused: MCPCallError | undefined;
    for (const candidate of this.#plan.candidates) {
      let session: Session | undefined;
      const current = () => session !== undefined && session === this.#session;
      const hooks: SessionHooks = {
        onUnexpectedClose: (error: MCPCallError) => {
          if (session) this.#onConnectionLost(session, error);
        },
        onToolListChanged: () => {
          if (session && current()) this.#onToolListChanged(session);
        },
        onError: (error: Error) => this.#onBackgroundError(error),
        onServerLog: (message) => this.emit('serverLog', { ...message, server: this.name }),
        onResourceUpdated: (uri) => this.emit('resourceUpdated', { uri }),
        onListChanged: (list) => this.emit(list === 'resources' ? 'resourcesChanged' : 'promptsChanged', {}),
      };
      const features = { ...this.#options, currentRoots: () => this.#roots ?? [], redact: this.#plan.redact };
      try {
        session = await Session.open(this.name, clientInfo, candidate.create, hooks, options, features);
        return session;
      } catch (error) {
        if (refused) throw bothFailed(refused, error);
        if (!candidate.fallBackOn?.(error) || !(error instanceof MCPCallError)) throw error;
        refused = error;
        this.emit('log', { level: 'info', message: `MCP server "${this.name}": ${candidate.fallbackNote}` });
      }
    }
    throw refused;
  }

  /**
   * Out-of-band errors from the session. A response that arrives after its request timed out or was
   * cancelled is normal (MCP spec 2025-11-25, "Cancellation": the receiver may already be answering), so the
   * SDK's "unknown message ID" and "unknown token" reports are debug logs, not errors.
   */
  #onBackgroundError(error: Error): void {
    // Also normal: progress a server keeps sending until it notices the cancellation.
    if (
      /^Received a (response for an unknown message ID|progress notification for an unknown token)/.test(
        error.message,
      )
    ) {
      this.emit('log', {
        level: 'debug',
        message: `MCP server "${this.name}": a response or progress arrived after its request ended`,
      });
      return;
    }
    this.emit('error', error);
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
    if (changes > 0 && this.#state !== 'connecting') this.emit('toolsChanged', diff);
  }

  /**
   * Disconnects: cancels a pending connect or reconnect, ends the connection (HTTP DELETE of the session,
   * or the stdio server's whole process tree), clears the tool list, and fails calls waiting for a
   * reconnect with kind `not_connected`. Idempotent; never throws. Emits `disconnected` (deliberate).
   */
  disconnect(): Promise<void> {
    // Concurrent calls share one teardown, so none returns before the server is really gone.
    this.#disconnecting ??= this.#disconnectOnce().finally(() => {
      this.#disconnecting = undefined;
    });
    return this.#disconnecting;
  }

  async #disconnectOnce(): Promise<void> {
    const wasActive = this.#state !== 'disconnected' && this.#state !== 'failed';
    this.#connectAbort?.abort();
    this.#reconnectAbort?.abort();
    clearTimeout(this.#listChangedTimer);
    const session = this.#session;
    this.#session = undefined;
    this.#state = 'disconnected';
    this.#ready?.reject(this.#notConnected('connect', 'disconnect() was called'));
    this.#ready = undefined;
    this.#tools.clear();
    await Promise.all([session?.close(), this.#connecting?.catch(() => {})]);
    this.#state = 'disconnected';
    if (wasActive) this.emit('disconnected', { deliberate: true, willReconnect: false });
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
    const timeout = resolved.timeout ?? DEFAULT_CALL_TIMEOUT_MS;
    const deadline = Date.now() + timeout;
    // The timeout bounds the whole call, waiting for a reconnect included: a later attempt gets what is left.
    const request = (session: Session, budget: number) =>
      session.callTool(name, input, { ...resolved, timeout: Math.max(1, budget) });
    // Connected (the common case): no await before the request, and the configured timeout as given.
    const ready = this.#state === 'connected' ? this.#session : undefined;
    const session = ready ?? (await this.#sessionForCall(name, resolved, deadline));
    try {
      return await request(session, ready ? timeout : deadline - Date.now());
    } catch (error) {
      if (error instanceof MCPCallError && this.#meansConnectionLost(error))
        this.#onConnectionLost(session, error);
      if (!this.#shouldRetry(error, resolved)) throw error;
      // The server lost this call with its connection (crash, expired session): once reconnected, send it again.
      return request(await this.#sessionForCall(name, resolved, deadline), deadline - Date.now());
    }
  }

  /**
   * Whether a failed call shows the connection is gone. An expired session always is (the transport can
   * send nothing more on it). A transport failure (refused or reset connection) is treated as a loss when
   * reconnection is on, so that a restarting HTTP server is waited for instead of failing every call; without
   * reconnection it fails only the call, and the next call may find the server back.
   */
  #meansConnectionLost(error: MCPCallError): boolean {
    return error.kind === 'session_expired' || (error.kind === 'transport' && this.#policy.enabled);
  }

  #shouldRetry(error: unknown, options: MCPToolCallOptions): boolean {
    if (!this.#policy.enabled || options.signal?.aborted || options.retryOnReconnect === false) return false;
    return (
      error instanceof MCPCallError &&
      (error.kind === 'connection_closed' || error.kind === 'session_expired' || error.kind === 'transport')
    );
  }

  /** The session to call on, waiting for a connect or reconnect in flight (bounded by the deadline). */
  async #sessionForCall(toolName: string, options: MCPToolCallOptions, deadline: number): Promise<Session> {
    if (this.#state === 'connected' && this.#session) return this.#session;
    const pending = this.#state === 'reconnecting' ? this.#ready?.promise : this.#connecting;
    if (!pending) throw this.#notConnected('tools/call', `not connected (state: ${this.#state})`, toolName);
    await this.#waitFor(pending, toolName, options, deadline);
    if (this.#state === 'connected' && this.#session) return this.#session;
    throw this.#notConnected('tools/call', `not connected (state: ${this.#state})`, toolName);
  }

  async #waitFor(pending: Promise<void>, toolName: string, options: MCPToolCallOptions, deadline: number) {
    const context = { server: this.name, method: 'tools/call', toolName, signal: options.signal };
    const timeoutMs = options.timeout ?? DEFAULT_CALL_TIMEOUT_MS;
    try {
      await waitWithin(pending, deadline - Date.now(), options.signal, () => {
        const reason = `timed out after ${timeoutMs} ms waiting for the connection`;
        return new MCPCallError(
          'timeout',
          `MCP server "${this.name}": tools/call "${toolName}" failed: ${reason}`,
          {
            server: this.name,
            method: 'tools/call',
            toolName,
            timeoutMs,
          },
        );
      });
    } catch (error) {
      throw toCallError(error, context);
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

  async #refreshOnce(): Promise<MCPTool[]> {
    do {
      this.#refreshAgain = false;
      const session = this.#session;
      if (!session || this.#state !== 'connected') throw this.#notConnected('tools/list', 'not connected');
      const definitions = await session.listTools({ timeout: this.#options.connectTimeout ?? 60_000 });
      if (session !== this.#session) throw this.#notConnected('tools/list', 'the connection changed');
      this.#applyTools(this.#tools.replace(definitions));
    } while (this.#refreshAgain);
    return this.getTools();
  }

  /** The current session, or a `not_connected` error for `method`. */
  #requireSession(method: string): Session {
    if (this.#state === 'connected' && this.#session) return this.#session;
    throw this.#notConnected(method, `not connected (state: ${this.#state})`);
  }

  #requestOptions(options: MCPRequestOptions = {}): SessionRequestOptions {
    return { timeout: options.timeout ?? this.#options.connectTimeout ?? 60_000, signal: options.signal };
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

  /** `logging/setLevel`: the server sends `notifications/message` at `level` and above (`serverLog` events). */
  async setLoggingLevel(level: LoggingLevel, options?: MCPRequestOptions): Promise<void> {
    const session = this.#requireSession('logging/setLevel');
    await session.request('logging/setLevel', { level }, anyObjectSchema, this.#requestOptions(options));
  }

  /** `ping`: resolves when the server answers. @throws MCPCallError */
  async ping(options?: MCPRequestOptions): Promise<void> {
    await this.#requireSession('ping').request('ping', {}, anyObjectSchema, this.#requestOptions(options));
  }

  /**
   * Replaces the roots offered to the server and sends `notifications/roots/list_changed` when connected.
   * Only meaningful when the client was created with a `roots` option (which declares the capability).
   */
  async setRoots(roots: Root[]): Promise<void> {
    this.#roots = roots;
    if (this.#options.roots && this.#state === 'connected')
      await this.#session?.notify('notifications/roots/list_changed');
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
    clearTimeout(this.#listChangedTimer);
    this.#listChangedTimer = setTimeout(() => {
      this.refreshTools().catch((error: unknown) => {
        this.emit('error', error instanceof Error ? error : new Error(String(error)));
      });
    }, this.#options.listChangedDebounceMs ?? 20);
  }

  #onConnectionLost(session: Session, error: MCPCallError): void {
    if (session !== this.#session) return;
    this.#session = undefined;
    clearTimeout(this.#listChangedTimer);
    void session.close();
    const willReconnect = this.#policy.enabled;
    this.#state = willReconnect ? 'reconnecting' : 'failed';
    if (willReconnect) this.#ready = deferred();
    this.emit('disconnected', { error, deliberate: false, willReconnect });
    if (willReconnect) void this.#reconnect(error);
  }

  async #reconnect(cause: MCPCallError): Promise<void> {
    const abort = new AbortController();
    this.#reconnectAbort = abort;
    const ready = this.#ready;
    let lastError: unknown = cause;
    for (let attempt = 1; attempt <= this.#policy.maxRetries && !abort.signal.aborted; attempt++) {
      const delayMs = backoffDelay(this.#policy, attempt);
      this.emit('reconnecting', { attempt, delayMs });
      if (!(await sleep(delayMs, abort.signal))) break;
      try {
        await this.#establish(abort.signal);
        this.#state = 'connected';
        this.#reconnectAbort = undefined;
        this.emit('reconnected', { tools: this.getTools() });
        ready?.resolve();
        return;
      } catch (error) {
        lastError = error;
      }
    }
    if (abort.signal.aborted) return;
    this.#reconnectAbort = undefined;
    this.#state = 'failed';
    const error = lastError instanceof Error ? lastError : new Error(String(lastError));
    ready?.reject(error);
    this.emit('error', error);
  }

  #notConnected(method: string, reason: string, toolName?: string): MCPCallError {
    const tool = toolName === undefined ? '' : ` "${toolName}"`;
    return new MCPCallError(
      'not_connected',
      `MCP server "${this.name}": ${method}${tool} failed: ${reason}`,
      {
        server: this.name,
        method,
        toolName,
      },
    );
  }
}

/**
 * Streamable HTTP was refused and the HTTP+SSE fallback failed too: most often a wrong URL. The error keeps
 * the first refusal's kind and status (what the server said to the current transport) and names both.
 */
function bothFailed(refused: MCPCallError, fallback: unknown): MCPCallError {
  const reason = (error: unknown) =>
    (error instanceof Error ? error.message : String(error)).replace(/^MCP server "[^"]*": .*? failed: /, '');
  const prefix = refused.message.slice(0, refused.message.length - reason(refused).length);
  return new MCPCallError(
    refused.kind,
    `${prefix}${reason(refused)}; the HTTP+SSE fallback failed too: ${reason(fallback)}`,
    { ...refused.details(), cause: refused },
  );
}
