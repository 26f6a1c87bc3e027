/**
 * A client's connection to its server, as a state machine (`MCPClientState`):
 * - `connect()` opens a session and discovers tools: `connecting`, then `connected` or `failed`
 *   (`disconnected` when every caller's signal fired first: see connect-attempt.ts);
 * - an unexpected loss ends in `failed`, or, with reconnection on, in `reconnecting` with backoff, then
 *   `connected`, or `failed` after the last attempt;
 * - `disconnect()` ends whatever is under way: `disconnected`.
 * Calls made while a connect or reconnect is in flight wait for it, within their own timeout.
 */

import { sleep } from '../../core/sleep.js';
import { VERSION } from '../../core/version.js';
import { waitWithin } from '../../core/wait-within.js';
import type { MCPTool } from '../adapter/mcp-tool.js';
import { MCPCallError } from '../protocol/errors.js';
import type { MCPToolDefinition } from '../protocol/types.js';
import { DEFAULT_CALL_TIMEOUT_MS, type ResolvedCallOptions } from '../session/call-options.js';
import { refused } from '../session/engine/replay.js';
import { decideReplay } from '../session/engine/replay-decision.js';
import { toCallError } from '../session/error-mapping.js';
import { listenOf } from '../session/listen.js';
import { EraVerdicts } from '../session/negotiation/era-verdict.js';
import type { RequestCache, RequestOptions } from '../session/request-options.js';
import { Session, type SessionClientFeatures, type SessionHooks } from '../session/session.js';
import { offers } from './capabilities.js';
import { ConnectAttempt, connectAborted, untilAborted } from './connect-attempt.js';
import { bothFailed, grantRefused } from './connect-failures.js';
import type { MCPClientEvents, TypedEmitter } from './events.js';
import { allowRetry, type ResolvedHooks, resendGate, wireListener } from './hooks/client-hooks.js';
import { DEFAULT_CONNECT_TIMEOUT_MS, type MCPClientOptions, type MCPClientState } from './options.js';
import { backoffDelay, type ReconnectPolicy, reconnectPolicy } from './reconnect.js';
import { listenLogEntry, ResourceSubscriptions } from './subscriptions.js';
import { discoverTools } from './tool-discovery.js';
import type { TransportPlan } from './transport-plan.js';
import { type Deferred, deferred, settlesWithin } from './waiting.js';
import { wireTap } from './wire-tap.js';

/**
 * How long a connect waits for a 2026-07-28 session's `subscriptions/listen` to be acknowledged, in ms. The
 * wait keeps a change made just after the connect from being missed; it is bounded apart from the connect
 * timeout because a proxy that buffers response streams holds the acknowledgment back indefinitely, and the
 * connect has what it needs already. A later acknowledgment triggers one tool-list refresh instead, for a
 * `notifications/tools/list_changed` that may have gone unheard in between (MCP spec 2026-07-28,
 * "Subscriptions").
 */
export const LISTEN_ACK_CONNECT_WAIT_MS = 3_000;

/** What a {@link Connection} needs from its client. */
export interface ConnectionHost {
  /** The server's name, for errors and logs. */
  name: string;
  plan: TransportPlan;
  options: MCPClientOptions;
  /** The client, which emits `connected`, `disconnected`, `reconnecting`, `reconnected`, `error`, `log`. */
  events: TypedEmitter<MCPClientEvents>;
  /** The client's tools, for the `connected` and `reconnected` events. */
  tools: () => MCPTool[];
  /** A new session listed these tools (after it became the current session). */
  toolsListed: (definitions: MCPToolDefinition[]) => void;
  /** The current session's server sent `notifications/tools/list_changed`. */
  toolListChanged: (session: Session) => void;
  /** The current session ended: `deliberate` for `disconnect()`, else it was lost. */
  sessionEnded: (deliberate: boolean) => void;
  /** The session hooks that are the client's: background errors, server logs, resource/prompt changes. */
  sessionEvents: Omit<SessionHooks, 'onUnexpectedClose' | 'onToolListChanged'>;
  /** What the client offers each new session's server (request handlers, roots). */
  features: () => SessionClientFeatures;
  /** The client's response cache for `session`'s requests, if it caches (response-cache.ts). */
  cacheFor: (session: Session) => RequestCache | undefined;
  /** The client's hooks (`onWire`, `beforeRetry`); `undefined` without any. */
  hooks: ResolvedHooks | undefined;
  /** Runs a reconnect in the scope of the last `connect()` (its context: hooks/request-scope.ts). */
  inConnectScope: <T>(work: () => Promise<T>) => Promise<T>;
}

/** One client's connection state and current session. */
export class Connection {
  readonly #host: ConnectionHost;
  readonly #policy: ReconnectPolicy;
  /** What each HTTP origin or stdio command line was found to speak, kept across connects (session/era-verdict.ts). */
  readonly #verdicts = new EraVerdicts();
  #state: MCPClientState = 'disconnected';
  #session: Session | undefined;
  #attempt: ConnectAttempt | undefined;
  #reconnectAbort: AbortController | undefined;
  /** Settles when the reconnect under way succeeds or gives up; calls wait on it. */
  #ready: Deferred | undefined;
  #disconnecting: Promise<void> | undefined;
  /** The client's resource subscriptions, listened for by each 2026-07-28 session (client/subscriptions.ts). */
  readonly subscriptions = new ResourceSubscriptions();

  constructor(host: ConnectionHost) {
    this.#host = host;
    this.#policy = reconnectPolicy(host.options.reconnect);
  }

  /** The current state. */
  get state(): MCPClientState {
    return this.#state;
  }

  /** The current session, whatever the state (a session being discovered is current already). */
  get session(): Session | undefined {
    return this.#session;
  }

  /** The session when the state is `connected`, else `undefined`. */
  get connected(): Session | undefined {
    return this.#state === 'connected' ? this.#session : undefined;
  }

  /** See `MCPClient.connect`; the rule for `signal` is in connect-attempt.ts. */
  connect(signal?: AbortSignal): Promise<void> {
    const name = this.#host.name;
    if (signal?.aborted) return Promise.reject(connectAborted(name, signal));
    if (this.#state === 'connected') return Promise.resolve();
    if (this.#state === 'reconnecting' && this.#ready) {
      // The reconnect is the client's own (calls wait on it too): a caller's signal only ends its own wait.
      if (!signal) return this.#ready.promise;
      return untilAborted(this.#ready.promise, signal, () => connectAborted(name, signal));
    }
    const current = this.#attempt;
    // An abandoned attempt is closing what it opened; a new one starts once it is gone, never beside it.
    if (current?.abandoned) return current.promise.catch(() => {}).then(() => this.connect(signal));
    const attempt: ConnectAttempt =
      current ??
      new ConnectAttempt(
        (stop, decide) => this.#connectOnce(stop, decide, () => attempt.abandoned),
        () => {
          if (this.#attempt === attempt) this.#attempt = undefined;
        },
      );
    this.#attempt = attempt;
    return attempt.join(signal, name);
  }

  /** See `MCPClient.disconnect`. */
  disconnect(): Promise<void> {
    // Concurrent calls share one teardown, so none returns before the server is really gone.
    this.#disconnecting ??= this.#disconnectOnce().finally(() => {
      this.#disconnecting = undefined;
    });
    return this.#disconnecting;
  }

  /**
   * The connection of `session` is gone: unless another session replaced it, it is closed and the state
   * becomes `reconnecting` (reconnection on; a reconnect starts) or `failed`. Emits `disconnected`.
   */
  lost(session: Session, error: MCPCallError): void {
    if (session !== this.#session) return;
    this.#session = undefined;
    this.#host.sessionEnded(false);
    // Calls of the session still pending are caught by this teardown: they fail as lost with the connection
    // (kind `connection_closed`), like those the transport failed itself, and are retried alike.
    void session.close(error);
    const willReconnect = this.#policy.enabled;
    this.#state = willReconnect ? 'reconnecting' : 'failed';
    if (willReconnect) this.#ready = deferred();
    this.#host.events.emit('disconnected', { error, deliberate: false, willReconnect });
    if (willReconnect) void this.#reconnect(error);
  }

  /**
   * Whether a failed call shows the connection is gone, on evidence only. An expired session is (the server
   * said it forgot us: nothing more can be sent on it). The transports declare every other loss themselves
   * by closing (a stdio server that exited, an HTTP server that can no longer be connected to, the end of
   * the HTTP+SSE stream), which reaches {@link Connection.lost} through the session's `onUnexpectedClose`.
   * A failed exchange (kind `transport`: a response cut mid-way, a reset socket) fails that call alone.
   */
  meansConnectionLost(error: MCPCallError): boolean {
    return error.kind === 'session_expired';
  }

  /**
   * Whether a call that failed with `error` is sent again once reconnected: when it was lost with its
   * connection (kind `connection_closed`, also for calls caught by the teardown of a lost session). Not a
   * failed exchange (`transport`): the server may have run the call; nor a call whose own request met an
   * expired session, which the session has already re-sent or not (session/engine/replay.ts).
   */
  shouldRetry(error: unknown, options: ResolvedCallOptions): boolean {
    if (!this.#policy.enabled || options.signal?.aborted || options.retryOnReconnect === false) return false;
    return error instanceof MCPCallError && error.kind === 'connection_closed';
  }

  /**
   * Why a `tools/call` of `toolName` lost with its connection (see {@link Connection.shouldRetry}) is not
   * sent again, by the one rule of every lost request (session/engine/replay-decision.ts) and the
   * `beforeRetry` hooks (told `reason: 'resend'`): the error to fail with (kind `may_have_run`), or
   * `undefined` to send it again. The tool's annotations are those of the client's last tool list.
   */
  async resendRefused(error: MCPCallError, toolName: string): Promise<MCPCallError | undefined> {
    const listed = this.#host.tools().find((tool) => tool.definition.name === toolName);
    const decision = decideReplay({
      method: 'tools/call',
      annotations: listed?.definition.annotations,
      attempt: 1,
    });
    if (decision.action === 'fail') return refused(error, 'may_have_run', decision.reason);
    const gate = resendGate(this.#host.hooks, this.#host.name);
    if (gate && !(await gate({ method: 'tools/call', toolName, attempt: 1, error })))
      return refused(error, 'may_have_run', 'vetoed');
    return undefined;
  }

  /**
   * The server forgot `session`'s Streamable HTTP session: it is lost (see {@link Connection.lost}), and with
   * reconnection on the new session the reconnect opens (MCP spec 2025-11-25, "Transports > Session
   * Management": the client MUST start a new session) resolves the promise returned, `undefined` when it
   * gave up; with reconnection off, `undefined` at once (no new session is started: the next `connect()`
   * starts it).
   */
  renewed(session: Session, error: MCPCallError): Promise<Session | undefined> | undefined {
    this.lost(session, error);
    if (!this.#policy.enabled) return undefined;
    const ready = this.#state === 'reconnecting' ? this.#ready?.promise : undefined;
    return (ready ?? Promise.resolve()).then(
      () => this.connected,
      () => undefined,
    );
  }

  /**
   * The session to call `toolName` on, waiting for a connect or reconnect in flight (bounded by `deadline`,
   * a `Date.now()` time, and by `options.signal`).
   * @throws MCPCallError kind `not_connected` when there is nothing to wait for or the wait ended without a
   *   connection; `timeout` past the deadline; the mapped abort reason when the signal fired.
   */
  async sessionForCall(toolName: string, options: ResolvedCallOptions, deadline: number): Promise<Session> {
    if (this.#state === 'connected' && this.#session) return this.#session;
    const pending = this.#state === 'reconnecting' ? this.#ready?.promise : this.#attempt?.promise;
    if (!pending) throw this.notConnected('tools/call', `not connected (state: ${this.#state})`, toolName);
    await this.#waitFor(pending, toolName, options, deadline);
    if (this.#state === 'connected' && this.#session) return this.#session;
    throw this.notConnected('tools/call', `not connected (state: ${this.#state})`, toolName);
  }

  /** The current session, or a `not_connected` error for `method`. */
  requireSession(method: string): Session {
    if (this.#state === 'connected' && this.#session) return this.#session;
    throw this.notConnected(method, `not connected (state: ${this.#state})`);
  }

  /** The `not_connected` error of `method` (and tool), saying `reason`. */
  notConnected(method: string, reason: string, toolName?: string): MCPCallError {
    return new MCPCallError('not_connected', reason, { server: this.#host.name, method, toolName });
  }

  async #connectOnce(signal: AbortSignal, decide: () => void, abandoned: () => boolean): Promise<void> {
    this.#state = 'connecting';
    try {
      await this.#establish(signal, decide);
      this.#state = 'connected';
      this.#host.events.emit('connected', { tools: this.#host.tools() });
    } catch (error) {
      if (!signal.aborted) {
        this.#state = 'failed';
        throw error;
      }
      // disconnect() has set the state already. Abandoned by its callers, the attempt fails as nothing did:
      // the server is not at fault, and nothing is left open.
      if (!abandoned()) throw this.notConnected('connect', 'disconnect() was called while connecting');
      if (this.#state === 'connecting') this.#state = 'disconnected';
      throw this.notConnected('connect', 'every connect() caller stopped waiting (their signals fired)');
    }
  }

  /**
   * Opens a session and discovers tools; on success it is the current session (`committed` is called then,
   * synchronously: from there on, `signal` no longer stops the attempt).
   */
  #establish(signal: AbortSignal, committed?: () => void): Promise<void> {
    return this.#verdicts.connect(() => this.#establishOnce(signal, committed));
  }

  /** {@link Connection.#establish}, once. */
  async #establishOnce(signal: AbortSignal, committed?: () => void): Promise<void> {
    const host = this.#host;
    const { options } = host;
    // The connect timeout is one deadline for the whole connect: probe, `initialize`, first tool list.
    const connectTimeoutMs = options.connectTimeoutMs ?? DEFAULT_CONNECT_TIMEOUT_MS;
    const deadline = performance.now() + connectTimeoutMs;
    const left = () => Math.max(1, Math.ceil(deadline - performance.now()));
    const requestOptions: RequestOptions = { signal, timeoutMs: connectTimeoutMs };
    const session = await this.#openSession(requestOptions, left);
    try {
      const cache = this.#host.cacheFor(session);
      const listOptions = { ...requestOptions, timeoutMs: left(), cache };
      const definitions = await discoverTools(session, listOptions, host.name, host.events);
      const listen = listenOf(session);
      if (listen !== undefined && !(await settlesWithin(listen.ready, LISTEN_ACK_CONNECT_WAIT_MS)))
        void listen.ready.then(() => {
          if (this.#session === session) this.#host.toolListChanged(session);
        });
      if (options.logLevel && offers(session, 'logging/setLevel'))
        await session.setLogLevel(options.logLevel, { ...requestOptions, timeoutMs: left() });
      if (signal.aborted) throw this.notConnected('connect', 'disconnect() was called while connecting');
      this.#session = session;
      committed?.();
      return this.#host.toolsListed(definitions);
    } catch (error) {
      if (!signal.aborted && error instanceof MCPCallError)
        this.#host.events.emit('connectFailed', { error });
      await session.close();
      throw error;
    }
  }

  /** The `initialize` handshake through each of the plan's transports in turn, until one is not refused. */
  async #openSession(options: RequestOptions, left: () => number): Promise<Session> {
    const host = this.#host;
    const clientInfo = {
      name: host.options.clientName ?? 'agentwire',
      version: host.options.clientVersion ?? VERSION,
    };
    let refused: MCPCallError | undefined;
    const tap = wireListener(host.hooks);
    for (const candidate of host.plan.candidates) {
      let session: Session | undefined;
      const current = () => session !== undefined && session === this.#session;
      const hooks: SessionHooks = {
        ...host.sessionEvents,
        onUnexpectedClose: (error: MCPCallError) => {
          if (session) this.lost(session, error);
        },
        onToolListChanged: () => {
          if (session && current()) host.toolListChanged(session);
        },
        onListenIssue: (issue) => host.events.emit('log', listenLogEntry(host.name, issue)),
        // Told at once; a refusal the next transport is tried after is no failure of the connect.
        onOpenFailed: (error) => {
          const fallsBack = refused === undefined && candidate.fallBackOn?.(error) === true;
          if (!fallsBack && refused === undefined && !options.signal?.aborted) {
            host.events.emit('connectFailed', { error });
          }
        },
      };
      try {
        session = await Session.open({
          server: host.name,
          clientInfo,
          createTransport: candidate.create,
          hooks,
          request: refused ? { ...options, timeoutMs: left() } : options,
          given: {
            ...host.features(),
            resourceSubscriptions: () => this.subscriptions.list(),
            peer: host.plan.peer,
          },
          era: {
            protocolVersion: host.options.protocolVersion ?? 'auto',
            probe: candidate.probe,
            probeTimeoutMs: host.options.probeTimeoutMs,
            verdict: candidate.verdictOrigin ? this.#verdicts.slot(candidate.verdictOrigin) : undefined,
          },
          tap: tap && wireTap(host.name, tap),
          // A session not yet the client's is never renewed: its 404 fails the attempt (a reconnect's loop
          // tries again after its backoff), where a renewal would wait on the very attempt it is part of.
          renewSession: (expired, error) => (current() ? this.renewed(expired, error) : undefined),
          beforeResend: resendGate(host.hooks, host.name),
        });
        return session;
      } catch (error) {
        if (refused) throw bothFailed(refused, error);
        if (!candidate.fallBackOn?.(error) || !(error instanceof MCPCallError)) throw error;
        refused = error;
        host.events.emit('log', {
          level: 'info',
          message: `MCP server "${host.name}": ${candidate.fallbackNote}`,
        });
      }
    }
    throw refused;
  }

  async #disconnectOnce(): Promise<void> {
    const wasActive = this.#state !== 'disconnected' && this.#state !== 'failed';
    const attempt = this.#attempt;
    attempt?.cancel();
    this.#reconnectAbort?.abort();
    const session = this.#session;
    this.#session = undefined;
    this.#state = 'disconnected';
    this.#ready?.reject(this.notConnected('connect', 'disconnect() was called'));
    this.#ready = undefined;
    this.#host.sessionEnded(true);
    this.subscriptions.clear();
    await Promise.all([session?.close(), attempt?.promise.catch(() => {})]);
    this.#state = 'disconnected';
    if (wasActive) this.#host.events.emit('disconnected', { deliberate: true, willReconnect: false });
  }

  async #reconnect(cause: MCPCallError): Promise<void> {
    const { events } = this.#host;
    const abort = new AbortController();
    this.#reconnectAbort = abort;
    const ready = this.#ready;
    let lastError: unknown = cause;
    for (let attempt = 1; attempt <= this.#policy.maxRetries && !abort.signal.aborted; attempt++) {
      // A `beforeRetry` hook may veto the attempt: reconnection then gives up as after its last attempt.
      const retry = { reason: 'reconnect', server: this.#host.name, method: 'connect', attempt } as const;
      const error = lastError instanceof Error ? lastError : new Error(String(lastError));
      if (!(await allowRetry(this.#host.hooks, { ...retry, error })) || abort.signal.aborted) break;
      const delayMs = backoffDelay(this.#policy, attempt);
      events.emit('reconnecting', { attempt, delayMs });
      if (!(await sleep(delayMs, abort.signal))) break;
      try {
        await this.#host.inConnectScope(() => this.#establish(abort.signal));
        this.#state = 'connected';
        this.#reconnectAbort = undefined;
        events.emit('reconnected', { tools: this.#host.tools() });
        ready?.resolve();
        return;
      } catch (error) {
        lastError = error;
        // A refused token request is final (grant-error.ts): the next attempt would only be refused again.
        if (grantRefused(error)) break;
      }
    }
    if (abort.signal.aborted) return;
    this.#reconnectAbort = undefined;
    this.#state = 'failed';
    const error = lastError instanceof Error ? lastError : new Error(String(lastError));
    ready?.reject(error);
    events.emit('error', error);
  }

  async #waitFor(pending: Promise<void>, toolName: string, options: ResolvedCallOptions, deadline: number) {
    const name = this.#host.name;
    const context = { server: name, method: 'tools/call', toolName, signal: options.signal };
    const timeoutMs = options.timeoutMs ?? DEFAULT_CALL_TIMEOUT_MS;
    try {
      await waitWithin(pending, deadline - Date.now(), options.signal, () => {
        const reason = `timed out after ${timeoutMs} ms waiting for the connection`;
        return new MCPCallError('timeout', reason, {
          server: name,
          method: 'tools/call',
          toolName,
          timeoutMs,
        });
      });
    } catch (error) {
      throw toCallError(error, context);
    }
  }
}
