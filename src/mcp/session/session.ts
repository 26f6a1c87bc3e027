/**
 * session/: one connection's requests: the SDK's protocol layer, agentwire's tools/call path, error mapping.
 *
 * One live connection to an MCP server: a transport plus the SDK's protocol layer, from the `initialize`
 * handshake (MCP spec 2025-11-25, "Lifecycle") to close. `tools/call`, the hot path, bypasses the SDK's
 * request funnel in both eras (calls.ts; modern-calls.ts for 2026-07-28); everything else goes through the
 * SDK. `MCPClient` owns a session at a time and makes a new one to reconnect; a session is never reopened.
 */
import type { Client, StandardSchemaV1 } from '@modelcontextprotocol/client';
import { tracerProviderRegistered } from '../../core/telemetry.js';
import type { MCPCallError } from '../protocol/errors.js';
import { type Redactor, redactError } from '../protocol/redact-error.js';
import type {
  CallToolResult,
  Implementation,
  LoggingLevel,
  MCPServerCapabilities,
  MCPToolDefinition,
} from '../protocol/types.js';
import type { AgentwireTransport, TransportCloseInfo } from '../transports/transport.js';
import { withCallerMeta } from './call-meta.js';
import type { MCPToolCallOptions } from './call-options.js';
import { openDirectPath } from './engine/direct-path.js';
import { Elicitations } from './engine/elicitations.js';
import {
  DEFAULT_MAX_INPUT_ROUNDS,
  type InputRoundsContext,
  requestWithInputRounds,
} from './engine/modern-calls.js';
import { lostRequest, type Renewal, Replays, within } from './engine/replay.js';
import { outboundParams, sdkOptions } from './engine/request-extras.js';
import {
  anyObjectSchema,
  callToolResultSchema,
  decodeCallToolResult,
  type InvalidToolDefinition,
  type ListPage,
  listPageSchema,
  listToolsPageSchema,
} from './engine/result-checks.js';
import { callThroughSdk } from './engine/sdk-call.js';
import { isSdkLateMessageReport } from './engine/sdk-signals.js';
import { answerServerRequests, routeNotifications, sdkClient } from './engine/sdk-wiring.js';
import { clientCapabilities, eraHandlers } from './engine/server-requests.js';
import { closed, type FailureContext, lostInfo, teardownInfo, toCallError } from './error-mapping.js';
import { attachListen } from './listen.js';
import { type PeerAddress, withMcpSpan } from './mcp-span.js';
import { withOfferedExtensions } from './negotiation/extensions.js';
import { refusedVersion } from './negotiation/handover.js';
import { negotiateOrFail } from './negotiation/negotiate.js';
import { walkPages } from './pagination.js';
import { DEFAULT_REQUEST_TIMEOUT_MS, type RequestOptions, timeLeft } from './request-options.js';
import type { SessionOpenOptions } from './session-options.js';
import { withTasksDeclared } from './tasks/tasks-modern.js';
import { SessionTasks, type TaskCallOptions } from './tasks/tasks-session.js';
import { attempt, type CallSite, decodeToolCall, ToolCall, type ToolCallParams } from './tool-call.js';
import { ToolHeaders } from './tool-headers.js';
import { type DirectRequests, notConnected } from './wire/calls.js';
import type { Wire } from './wire/wire.js';

export type {
  SessionClientFeatures,
  SessionHooks,
  SessionOpenOptions,
  TransportFactory,
} from './session-options.js';

/** The lists a 2026-07-28 connection reads on the direct path (see `Session.#send`). */
const LISTS = new Set(['tools/list', 'prompts/list', 'resources/list', 'resources/templates/list']);

/** One connection (transport + SDK protocol layer); see the file header. Internal to `MCPClient`. */
export class Session {
  readonly #sdk: Client;
  readonly #wire: Wire;
  readonly #transport: AgentwireTransport;
  readonly #server: string;
  readonly #redact: Redactor | undefined;
  #closing: boolean | TransportCloseInfo = false; // by close(): true, or how a lost session's calls fail
  /** The log level asked for in the 2026 era, sent in every request's `_meta`. */
  #logLevel: LoggingLevel | undefined;
  /** `tools/call` without the SDK's funnel; set once a 2025-era connection is up (see calls.ts). */
  #direct: DirectRequests | undefined;
  /** The handlers that answer input requests (2026-07-28 direct calls). */
  #inputs: InputRoundsContext = { server: '', answerers: {}, maxRounds: DEFAULT_MAX_INPUT_ROUNDS };
  /** Where a request lost before its response is sent again, or not (replay.ts). */
  #replays: Replays<Session> = new Replays();
  /** The tools' `Mcp-Param-*` declarations, on a 2026-era Streamable HTTP connection (tool-headers.ts). */
  #toolHeaders: ToolHeaders | undefined;
  /** Elicitation handlers, and the -32042 retry (elicitations.ts). */
  #elicitations = new Elicitations('', {});
  #tasks = new SessionTasks(); // the server's task support (tasks-session.ts)
  /** Where the server is (request spans, mcp-span.ts). */
  peer: PeerAddress | undefined;

  private constructor(sdk: Client, wire: Wire, server: string, redact?: Redactor) {
    this.#redact = redact;
    this.#sdk = sdk;
    this.#wire = wire;
    this.#transport = wire.transport;
    this.#server = server;
  }

  /**
   * Opens a transport behind its wire (wire.ts), finds the revision both sides speak (negotiate.ts:
   * `server/discover`, else the `initialize` handshake) and connects the SDK's protocol layer to the wire's
   * SDK port. On failure everything opened is closed.
   * @throws MCPCallError naming the server and `initialize` (or `server/discover` for a failed probe); kind
   *   `protocol` code -32022 when no revision is shared (`data.supported`, `data.offered`).
   */
  static async open(options: SessionOpenOptions & Renewal<Session>): Promise<Session> {
    const { server, clientInfo, hooks, era = {}, given = {} } = options;
    const request = options.request ?? {};
    const protocolVersion = era.protocolVersion ?? 'auto';
    const capabilities = clientCapabilities(eraHandlers(given, false));
    const context = { method: 'initialize', signal: request.signal, timeoutMs: request.timeoutMs };
    const left = timeLeft(request.timeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS);
    const { wire, prior } = await negotiateOrFail(
      {
        server,
        createTransport: options.createTransport,
        ...era,
        protocolVersion,
        clientInfo,
        capabilities,
        timeoutMs: request.timeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS,
        signal: request.signal,
        wireHooks: { tap: options.tap, onLateMessage: () => hooks.onLateMessage?.() },
      },
      given.redact,
    );
    // The probe and `initialize` declare the 2025-era handlers; a 2026-07-28 request, those of its era.
    const features = eraHandlers(given, prior?.kind === 'modern');
    const offered = clientCapabilities(features);
    const declared = withOfferedExtensions(offered, prior);
    const maxRounds = features.maxInputRounds ?? DEFAULT_MAX_INPUT_ROUNDS;
    const sdk = sdkClient(clientInfo, declared, protocolVersion, maxRounds);
    const session = new Session(sdk, wire, server, features.redact);
    session.#replays = new Replays(options.beforeResend, options.renewSession);
    session.#elicitations = new Elicitations(server, features);
    // Input rounds of the 2026-07-28 direct path answer elicitations as `elicitation/create` does.
    session.#inputs = { server, answerers: session.#elicitations.answerers(features), maxRounds };
    session.peer = features.peer;
    sdk.onerror = (error) => {
      if (isSdkLateMessageReport(error)) hooks.onLateMessage?.();
      else hooks.onError(redactError(error, features.redact));
    };
    wire.onClose(() => {
      if (!session.#closing) hooks.onUnexpectedClose(closed(session.#context('connection')));
    });
    routeNotifications(sdk, hooks);
    answerServerRequests(sdk, server, features, session.#elicitations);
    wire.sdk.startWithin(request.signal);
    const connect = { ...sdkOptions({ ...request, timeoutMs: left() }), ...(prior && { prior }) };
    try {
      await sdk.connect(wire.sdk, connect);
    } catch (error) {
      const failure = refusedVersion(error, server, protocolVersion) ?? session.#fail(error, context);
      hooks.onOpenFailed?.(failure);
      await session.close();
      throw failure;
    }
    if (sdk.getProtocolEra() !== 'legacy' && era.probe === 'http')
      session.#toolHeaders = new ToolHeaders((tool) => hooks.onToolExcluded?.(tool));
    session.#direct = openDirectPath(sdk, wire, era.modernCalls, clientInfo, declared);
    const fail = (error: unknown, method: string, toolName?: string) =>
      session.#fail(error, { method, toolName });
    session.#tasks = SessionTasks.of(sdk, offered, session.#direct, session.#inputs, fail);
    if (sdk.getProtocolEra() === 'modern') attachListen(session, sdk, server, hooks, features, request);
    return session;
  }

  /** Calls `listener` once the connection has closed, whoever closed it (the listen stream stops so). */
  onClose(listener: () => void): void {
    this.#wire.onClose(listener);
  }

  /** The transport's `Mcp-Session-Id`, for Streamable HTTP servers that assign one. */
  get sessionId(): string | undefined {
    return this.#transport.sessionId;
  }

  /** The server's name and version from the handshake. */
  get serverInfo(): Implementation | undefined {
    const info = this.#sdk.getServerVersion();
    if (info === undefined) return undefined;
    return info.title === undefined
      ? { name: info.name, version: info.version }
      : { name: info.name, version: info.version, title: info.title };
  }

  /** The capabilities the server declared (`initialize`, or `server/discover` in 2026-07-28). */
  get serverCapabilities(): MCPServerCapabilities | undefined {
    return this.#sdk.getServerCapabilities();
  }

  /** The server's settings for extension `id` (`capabilities.extensions[id]`); `undefined` when not offered. */
  serverExtension(id: string): object | undefined {
    return (this.#sdk.getServerCapabilities() as { extensions?: Record<string, object> })?.extensions?.[id];
  }

  /** The server's `instructions`, if any. */
  get instructions(): string | undefined {
    return this.#sdk.getInstructions();
  }

  /** The protocol version both sides agreed on. */
  get protocolVersion(): string | undefined {
    return this.#sdk.getNegotiatedProtocolVersion();
  }

  /**
   * `tools/list`, following `nextCursor` through every page (MCP spec 2025-11-25, "Pagination"); without the
   * tools whose definition cannot be used (`onInvalid` is told of each) and, on 2026-07-28 over HTTP, those
   * whose `x-mcp-header` is invalid (tool-headers.ts).
   * @throws MCPCallError
   */
  async listTools(options: RequestOptions, onInvalid: (tool: InvalidToolDefinition) => void = () => {}) {
    const schema = listToolsPageSchema(onInvalid);
    const tools = await this.listAll<MCPToolDefinition>('tools/list', 'tools', options, schema);
    this.#replays.learn(tools);
    this.#tasks.learn(tools);
    return this.#toolHeaders?.accept(tools) ?? tools;
  }

  /**
   * Any paginated list (`resources/list` → `resources`, …), every page; a lost page lists again from page 1
   * (replay.ts). A repeated cursor ends the walk (looping servers); `''` only in 2025 (spec 2026-07-28).
   * @throws MCPCallError
   */
  async listAll<T>(
    method: string,
    key: string,
    options: RequestOptions,
    schema: StandardSchemaV1<unknown, ListPage<T>> = listPageSchema<T>(key),
  ): Promise<T[]> {
    const page = (on: Session, left?: number) => (cursor: string | undefined) =>
      on.request(method, cursor === undefined ? {} : { cursor }, schema, within(options, left), false);
    const walk = (on: Session, left?: number) => walkPages(page(on, left), key, on.era === 'modern');
    return walk(this).catch((e: unknown) => this.#replays.after(e, lostRequest(method, options), this, walk));
  }

  /**
   * Any request, its result checked by `schema`; `replay` false: a lost one fails (its caller replays it).
   * @throws MCPCallError naming the method.
   */
  async request<T>(
    method: string,
    params: Record<string, unknown>,
    schema: StandardSchemaV1<unknown, T>,
    options: RequestOptions,
    replay = true,
  ): Promise<T> {
    const send = (on: Session, left?: number) => on.#send(method, params, schema, within(options, left));
    // A request lost before its response is sent again, or not, in one place (replay.ts).
    const lost = lostRequest(method, options);
    const resent = () => send(this).catch((e: unknown) => this.#replays.after(e, lost, this, replay && send));
    return withMcpSpan(method, params, this, async () => {
      try {
        this.#requireOpen();
        const fetch = () => this.#elicitations.retrying(resent, options.signal);
        return await (options.cache ? options.cache.through(method, params, fetch) : fetch());
      } catch (error) {
        throw this.#fail(error, lost);
      }
    });
  }

  /**
   * Sends one request; a 2026-07-28 list on the direct path (calls.ts), where its result meets agentwire's
   * lenient checks (result-checks.ts), not the SDK's schema, which refuses a list for one unusable tool.
   */
  #send<T>(
    method: string,
    params: Record<string, unknown>,
    schema: StandardSchemaV1<unknown, T>,
    options: RequestOptions,
  ): Promise<T> {
    const sent = outboundParams(params, this.#logLevel);
    const direct = this.#direct;
    if (direct !== undefined && this.era === 'modern' && LISTS.has(method))
      return requestWithInputRounds(direct, method, sent, schema, options, this.#inputs);
    return this.#sdk.request({ method, params: sent }, schema, sdkOptions(options));
  }

  /** Whether the connection speaks the 2026-07-28 era (`'modern'`) or a 2025 one (`'legacy'`). */
  get era(): 'modern' | 'legacy' | undefined {
    return this.#sdk.getProtocolEra();
  }

  /**
   * Asks for server log messages at `level` and above: `logging/setLevel` in the 2025 era; in 2026-07-28,
   * which removed it, the level goes in every later request's `_meta` (request-extras.ts).
   * @throws MCPCallError (2025 era)
   */
  async setLogLevel(level: LoggingLevel, options: RequestOptions): Promise<void> {
    if (this.era === 'modern') {
      this.#logLevel = level;
      return;
    }
    await this.request('logging/setLevel', { level }, anyObjectSchema, options);
  }

  /**
   * Checks that the server answers: `ping` in the 2025 era; `server/discover` in 2026-07-28, which removed
   * `ping` (MCP spec 2026-07-28, changelog).
   * @throws MCPCallError
   */
  async ping(options: RequestOptions): Promise<void> {
    const method = this.era === 'modern' ? 'server/discover' : 'ping';
    await this.request(method, {}, anyObjectSchema, options);
  }

  /**
   * Tells the server the roots changed (`notifications/roots/list_changed`), in the 2025 era only: 2026-07-28
   * removed the notification, and the server asks for roots with each request that needs them.
   */
  async rootsChanged(): Promise<void> {
    if (this.era === 'modern') return;
    try {
      await this.#sdk.notification({ method: 'notifications/roots/list_changed' });
    } catch (error) {
      this.#sdk.onerror?.(error instanceof Error ? error : new Error(String(error)));
    }
  }

  /** Tasks here: which tools cannot be called, and resuming a task after a reconnect (tasks-session.ts). */
  get tasks(): SessionTasks {
    return this.#tasks;
  }

  /**
   * `tools/call`; as a task where the tool or server says so (tasks-session.ts), to the task's final result:
   * the raw result (`content` `[]` when omitted) as `site` finishes it; a failure the session cannot recover
   * from goes to `site` (tool-call.ts). The lean path: one request record, one promise (wire/calls.ts).
   * @throws MCPCallError
   */
  callTool<O extends TaskCallOptions & Pick<MCPToolCallOptions, '_meta'>>(
    name: string,
    args: Record<string, unknown>,
    options: O,
    site?: CallSite<O, Session>,
    deadline = 0,
  ): Promise<CallToolResult> {
    try {
      const params = withCallerMeta({ name, arguments: args }, options._meta);
      const call = new ToolCall(this, params, options, site, deadline);
      const lean = this.#leanPath(name, options);
      const sent = outboundParams(params);
      if (lean) return lean.call('tools/call', sent, options, decodeToolCall, call, this.#recoverCall);
      // Sent once, with no retry machinery until a failure asks for it (see `#recover`).
      const once = () =>
        attempt(() => this.#sendCall(params, options)).catch((e) => this.#recover(e, params, options));
      return call.after(withMcpSpan('tools/call', params, this, once));
    } catch (error) {
      return Promise.reject(error);
    }
  }

  /** The direct path, when a call takes it as one record: 2025 era, no tracer, not a task (else undefined). */
  #leanPath(name: string, options: TaskCallOptions): DirectRequests | undefined {
    if (tracerProviderRegistered() || this.era === 'modern' || this.#tasks.legacyTask(name, options)) return;
    return this.#direct;
  }

  /** A failed lean `tools/call`: the session's recovery, then the caller's (see {@link Session.callTool}). */
  readonly #recoverCall = (error: unknown, call: ToolCall<TaskCallOptions, Session>) =>
    call.after(this.#recover(error, call.params, call.options));

  /**
   * A failed `tools/call`, recovered where the failure allows it, else mapped: a -32042 "URL elicitation
   * required" is sent again after the URL handler (elicitations.ts); one lost before its response (a
   * forgotten 2025 session, a broken 2026 stream) only for a read-only or idempotent tool (replay.ts).
   */
  #recover(error: unknown, params: ToolCallParams, options: TaskCallOptions): Promise<CallToolResult> {
    const context = lostRequest('tools/call', options, params.name);
    const send = (on: Session, left?: number) => () => on.#sendCall(params, within(options, left));
    const again = (on: Session, left?: number) => on.#elicitations.retrying(send(on, left), options.signal);
    return this.#elicitations
      .recover(error, options.signal, send(this))
      .catch((failure: unknown) => this.#replays.after(failure, context, this, again))
      .catch((failure: unknown) => Promise.reject(this.#fail(failure, context)));
  }

  /** The one `tools/call` of {@link Session.callTool}, by the path this connection takes. */
  #sendCall(params: ToolCallParams, options: TaskCallOptions): Promise<CallToolResult> {
    const direct = this.#direct;
    if (direct === undefined) return this.#callThroughFunnel(params, options);
    if (this.era === 'modern') return this.#callDirectModern(params, options);
    if (this.#tasks.legacyTask(params.name, options))
      return this.#tasks.callLegacy(outboundParams(params), options);
    return direct.send('tools/call', outboundParams(params), options, decodeCallToolResult);
  }

  /** `tools/call` through the SDK's request funnel (2026-era connections; sdk-call.ts). */
  #callThroughFunnel(params: ToolCallParams, options: RequestOptions): Promise<CallToolResult> {
    this.#requireOpen();
    const headers = this.#toolHeaders?.headersFor(params.name, params.arguments);
    const sent = outboundParams(params, this.#logLevel) as typeof params;
    return callThroughSdk(this.#sdk, { params: sent, headers }, options);
  }

  /** `tools/call` on the 2026-07-28 direct path (modern-calls.ts). */
  #callDirectModern(params: ToolCallParams, options: TaskCallOptions): Promise<CallToolResult> {
    const direct = this.#direct as DirectRequests;
    const headers = this.#toolHeaders?.headersFor(params.name, params.arguments);
    const tasks = this.#tasks.modern(params.name, options);
    const sent = outboundParams(tasks ? withTasksDeclared(params, tasks.meta) : params, this.#logLevel);
    const context = { ...this.#inputs, headers, onTask: tasks?.onTask };
    return requestWithInputRounds(direct, 'tools/call', sent, callToolResultSchema, options, context);
  }

  /** Closes the connection (HTTP DELETE, stdio tree; `lost`: see `lostInfo`). Idempotent, never throws. */
  async close(lost?: MCPCallError): Promise<void> {
    this.#closing ||= lost === undefined ? true : lostInfo(this.#server, lost);
    try {
      await this.#sdk.close();
    } catch {
      // Teardown is best effort: the transport bounds and reports its own failures.
    }
  }

  /**
   * Throws the typed `NotConnected` error once the SDK has let go of the transport (the connection closed):
   * the SDK's request funnel would reject with an untyped `Error('Not connected')`, at once, for the same
   * condition.
   */
  #requireOpen(): void {
    if (this.#sdk.transport === undefined) throw notConnected();
  }

  #context(method: string, extra: Partial<FailureContext> = {}): FailureContext {
    return {
      server: this.#server,
      method,
      closeInfo: teardownInfo(this.#transport.closeInfo, this.#closing),
      redact: this.#redact,
      ...extra,
    };
  }

  #fail(error: unknown, context: Partial<FailureContext> & { method: string }): MCPCallError {
    return toCallError(error, this.#context(context.method, context));
  }
}
