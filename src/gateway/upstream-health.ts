/**
 * How the gateway keeps its upstreams coming back: every upstream that is down is connected again for as
 * long as the gateway runs, on a capped exponential backoff with jitter (core/backoff.ts), whether it was lost
 * while serving or was down when the gateway started. Built on the client's public behaviour only: its
 * events (`disconnected`, `connectFailed`, `reconnecting`, `connected`, `error`), its state, and `connect()` /
 * `disconnect()`. The gateway's own clients have their reconnection off (gateway.ts), so this is the one
 * owner of their retries; a client given with its own reconnection on is left to it while it tries, and
 * taken over once it gives up.
 *
 * While an upstream is down its requests are refused at once (`unavailable`), never held for the call
 * timeout. A Streamable HTTP upstream that forgot the gateway's session (MCP spec 2025-11-25, "Transports >
 * Session Management": a 404, and the client MUST start a new session) is renewed at once, without backoff
 * ({@link UpstreamHealth.renew}).
 */
import { ProtocolError, ProtocolErrorCode } from '@modelcontextprotocol/server';
import { backoffDelayMs } from '../core/backoff.js';
import { MCPCallError, type MCPClient, type MCPServers } from '../mcp/for-gateway.js';

/** The backoff of the gateway's reconnection of its upstreams. */
export interface MCPGatewayReconnectOptions {
  /** Delay before the first attempt after a failure, in ms. Default 500. */
  initialDelayMs?: number;
  /** Ceiling on the delay, in ms (reached after a few failures; attempts never stop). Default 30 000. */
  maxDelayMs?: number;
}

/**
 * An upstream's state as the gateway sees it: `connected`; `connecting` (its first connect); `reconnecting`
 * (down, and being connected again: waiting for the next attempt, or in one); `disconnected` (not started,
 * or the gateway closed).
 */
export type MCPGatewayUpstreamState = 'connected' | 'connecting' | 'reconnecting' | 'disconnected';

/** What the status tells of one upstream's health. */
export interface UpstreamHealthView {
  state: MCPGatewayUpstreamState;
  /** Failed attempts since it was last connected. */
  attempts: number;
  /** When the next attempt starts (`Date.now()` time), while one is waited for. */
  nextAttemptAt?: number;
  /** The last failure and when it happened; kept after the upstream is back. */
  lastFailure?: { error: Error; at: number };
}

interface Watch {
  client: MCPClient;
  attempts: number;
  nextAttemptAt: number | undefined;
  timer: NodeJS.Timeout | undefined;
  attempt: Promise<boolean> | undefined;
  renewal: Promise<boolean> | undefined;
  lastFailure: { error: Error; at: number } | undefined;
  joined: boolean;
}

/** Told when an upstream is connected again: `afterFailure` unless it is its first, clean connect. */
export type UpstreamJoined = (client: MCPClient, afterFailure: boolean) => void;

/** The gateway's reconnection of its upstreams; see the file header. */
export class UpstreamHealth {
  readonly #backoff: Required<MCPGatewayReconnectOptions>;
  readonly #watches = new Map<MCPClient, Watch>();
  readonly #detach: (() => void)[] = [];
  readonly #joined: UpstreamJoined;
  #started = false;
  #closed = false;

  constructor(servers: MCPServers, options: MCPGatewayReconnectOptions, joined: UpstreamJoined) {
    this.#backoff = {
      initialDelayMs: options.initialDelayMs ?? 500,
      maxDelayMs: options.maxDelayMs ?? 30_000,
    };
    this.#joined = joined;
    for (const client of servers.clients()) this.#watch(client);
  }

  /** The first connects are under way (`MCPGateway.start`). */
  starting(): void {
    this.#started = true;
  }

  /** The first connects ended: each upstream that did not connect is tried again on the backoff. */
  started(failures: readonly { client: MCPClient; error: Error }[]): void {
    for (const { client, error } of failures) {
      const watch = this.#watches.get(client);
      if (!watch || this.#closed) continue;
      watch.attempts = Math.max(watch.attempts, 1);
      this.#failed(watch, error);
      this.#schedule(watch);
    }
  }

  /**
   * The refusal of a request to `client` while it is down: `-32603` with `data: { server, kind:
   * 'unavailable', retryAfterMs }` (when to try again: the next attempt's start, or the initial delay while
   * an attempt is under way); undefined while it is connected.
   */
  unavailable(client: MCPClient): ProtocolError | undefined {
    if (client.getState() === 'connected') return undefined;
    const watch = this.#watches.get(client);
    const retryAfterMs = watch ? this.#retryAfterMs(watch) : this.#backoff.initialDelayMs;
    const state = this.view(client).state;
    return new ProtocolError(
      ProtocolErrorCode.InternalError,
      `MCP server "${client.name}" is unavailable (${state}); try again in ${retryAfterMs} ms`,
      { server: client.name, kind: 'unavailable', retryAfterMs },
    );
  }

  /**
   * A new session for `client`, whose server forgot the current one: at once, without backoff. A client
   * that noticed (a lost `tools/call`) is connecting already; one that did not (any other request) is
   * disconnected first. Concurrent renewals share one. Resolves whether the upstream is connected again.
   */
  renew(client: MCPClient, error?: MCPCallError): Promise<boolean> {
    const watch = this.#watches.get(client);
    if (!watch || this.#closed) return Promise.resolve(false);
    if (error) this.#failed(watch, error);
    watch.renewal ??= (async () => {
      if (client.getState() === 'connected') await client.disconnect();
      return this.#attempt(watch);
    })().finally(() => {
      watch.renewal = undefined;
    });
    return watch.renewal;
  }

  /** Told of a failed upstream request: a forgotten session is renewed (see {@link renew}). */
  noticed(client: MCPClient, error: unknown): void {
    if (error instanceof MCPCallError && error.kind === 'session_expired') void this.renew(client, error);
  }

  /** The state, attempts, next attempt and last failure of `client`. */
  view(client: MCPClient): UpstreamHealthView {
    const watch = this.#watches.get(client);
    const state = this.#state(client, watch);
    if (!watch) return { state, attempts: 0 };
    return {
      state,
      attempts: watch.attempts,
      ...(watch.nextAttemptAt !== undefined &&
        state !== 'connected' && { nextAttemptAt: watch.nextAttemptAt }),
      ...(watch.lastFailure && { lastFailure: watch.lastFailure }),
    };
  }

  /** Stops every pending attempt; nothing is retried after this. */
  close(): void {
    this.#closed = true;
    for (const detach of this.#detach) detach();
    for (const watch of this.#watches.values()) {
      clearTimeout(watch.timer);
      watch.timer = undefined;
      watch.nextAttemptAt = undefined;
    }
  }

  #state(client: MCPClient, watch: Watch | undefined): MCPGatewayUpstreamState {
    const state = client.getState();
    if (state === 'connected') return 'connected';
    if (this.#closed || (!this.#started && state === 'disconnected')) return 'disconnected';
    if (state === 'connecting' && watch && !watch.joined && watch.lastFailure === undefined)
      return 'connecting';
    return 'reconnecting';
  }

  #retryAfterMs(watch: Watch): number {
    const at = watch.nextAttemptAt;
    if (at !== undefined && at > Date.now()) return Math.ceil(at - Date.now());
    return this.#backoff.initialDelayMs;
  }

  #watch(client: MCPClient): void {
    const watch: Watch = {
      client,
      attempts: 0,
      nextAttemptAt: undefined,
      timer: undefined,
      attempt: undefined,
      renewal: undefined,
      lastFailure: undefined,
      joined: false,
    };
    this.#watches.set(client, watch);
    const onDisconnected = ({
      error,
      deliberate,
      willReconnect,
    }: {
      error?: Error;
      deliberate: boolean;
      willReconnect: boolean;
    }) => {
      if (deliberate || this.#closed) return;
      if (error) this.#failed(watch, error);
      // A client with its own reconnection tries first (its `reconnecting` events say when).
      if (willReconnect) return;
      // A forgotten session is renewed at once (MCP spec 2025-11-25, "Transports > Session Management").
      if (error instanceof MCPCallError && error.kind === 'session_expired') void this.#attempt(watch);
      else this.#schedule(watch);
    };
    const onConnectFailed = ({ error }: { error: MCPCallError }) => this.#failed(watch, error);
    const onReconnecting = ({ delayMs }: { delayMs: number }) => {
      watch.nextAttemptAt = Date.now() + delayMs;
    };
    const onConnected = () => {
      const afterFailure = watch.joined || watch.lastFailure !== undefined;
      watch.joined = true;
      watch.attempts = 0;
      watch.nextAttemptAt = undefined;
      clearTimeout(watch.timer);
      watch.timer = undefined;
      this.#joined(client, afterFailure);
    };
    // A client whose own reconnection gave up reports it on `error`: from then on the retries are ours.
    const onError = () => {
      if (!this.#closed && client.getState() === 'failed') this.#schedule(watch);
    };
    // Each listener on its event, taken off again by the same list when the health watch ends.
    const listeners = [
      ['disconnected', onDisconnected],
      ['connectFailed', onConnectFailed],
      ['reconnecting', onReconnecting],
      ['connected', onConnected],
      ['reconnected', onConnected],
      ['error', onError],
    ] as const;
    const each = (method: 'on' | 'off') => {
      for (const [event, listener] of listeners) client[method](event, listener as never);
    };
    each('on');
    this.#detach.push(() => each('off'));
  }

  #failed(watch: Watch, error: Error): void {
    watch.lastFailure = { error, at: Date.now() };
  }

  #schedule(watch: Watch): void {
    if (this.#closed || watch.timer !== undefined || watch.attempt !== undefined) return;
    const delay = backoffDelayMs(this.#backoff, watch.attempts, Math.random);
    watch.nextAttemptAt = Date.now() + delay;
    watch.timer = setTimeout(() => void this.#attempt(watch), delay);
    // A retry alone keeps no process alive: the gateway's hosts do.
    watch.timer.unref();
  }

  /** One connect of `watch`'s client now (or the one under way); on failure the next is scheduled. */
  #attempt(watch: Watch): Promise<boolean> {
    if (watch.attempt) return watch.attempt;
    clearTimeout(watch.timer);
    watch.timer = undefined;
    watch.nextAttemptAt = undefined;
    const attempt = watch.client.connect().then(
      () => {
        watch.attempt = undefined;
        return true;
      },
      (error: unknown) => {
        watch.attempt = undefined;
        if (this.#closed) return false;
        watch.attempts += 1;
        this.#failed(watch, error instanceof Error ? error : new Error(String(error)));
        this.#schedule(watch);
        return false;
      },
    );
    watch.attempt = attempt;
    return attempt;
  }
}
