/**
 * The change-notification stream of a 2026-07-28 connection: one `subscriptions/listen` request (MCP spec
 * 2026-07-28, "Basic > Patterns > Subscriptions"), which replaces the 2025 GET stream and
 * `resources/subscribe` / `resources/unsubscribe`.
 *
 * - The filter asks only for what the server declares (tools/prompts/resources `listChanged`, and
 *   `resourceSubscriptions` only with `resources.subscribe`); nothing to ask for means no listen at all.
 * - The notifications it carries reach the handlers the session registered for the 2025 unsolicited ones
 *   (the SDK dispatches them there), so the client's events are the same in both eras.
 * - A new resource set re-opens the listen: the new request is acknowledged before the old one is cancelled,
 *   so no change is missed meanwhile (one in that overlap may arrive twice; every one is an idempotent hint).
 * - A stream the server ends (an abrupt drop, or its graceful `subscriptions/listen` result) while the
 *   connection is up is re-opened after an exponential backoff (core/backoff.ts); the count starts again once
 *   a listen has stayed open for the backoff's ceiling, so one that is acknowledged and dropped at once still
 *   backs off, and is given up after {@link LISTEN_REOPEN_MAX_ATTEMPTS}. A server that answers the listen with a JSON-RPC error is not asked again on
 *   this connection; either way the connection stays up and the owner is told (`onIssue`).
 * - `stop()` (the session closing) clears the backoff timer; the transport's close ends the request itself.
 */
import {
  type Client,
  type McpSubscription,
  ProtocolError,
  type ServerCapabilities,
  type SubscriptionFilter,
} from '@modelcontextprotocol/client';
import { backoffDelayMs } from '../../core/backoff.js';
import { MCPCallError } from '../protocol/errors.js';
import type { Redactor } from '../protocol/redact.js';
import { toCallError } from './error-mapping.js';
import { DEFAULT_REQUEST_TIMEOUT_MS, type RequestOptions } from './request-options.js';

/** The backoff between re-opens of a dropped listen stream, in ms. */
export const LISTEN_REOPEN_BACKOFF = { initialDelayMs: 250, maxDelayMs: 30_000 } as const;

/** Re-open attempts in a row (none acknowledged) before the stream is given up on this connection. */
export const LISTEN_REOPEN_MAX_ATTEMPTS = 10;

/** A listen stream that failed or ended while the connection stays up. */
export interface ListenIssue {
  /** What happened, for a log line (`the server answered subscriptions/listen with …`). */
  reason: string;
  /** Whether the stream will be re-opened (after a backoff). */
  willRetry: boolean;
  /** The failure, when there was one. */
  error?: MCPCallError | undefined;
}

/** The session hooks of the notifications a listen stream carries (and the 2025 era's unsolicited ones). */
export interface ListenHooks {
  /** `notifications/resources/updated` for a subscribed URI. */
  onResourceUpdated?(uri: string): void;
  /** `notifications/resources/list_changed` or `notifications/prompts/list_changed`. */
  onListChanged?(list: 'resources' | 'prompts'): void;
  /** The 2026-07-28 listen stream failed or ended while the connection stays up (see {@link ListenIssue}). */
  onListenIssue?(issue: ListenIssue): void;
}

/** What the client offers a session's listen stream. */
export interface ListenFeatures {
  /** The resource URIs subscribed to (`subscribeResource`), read when a 2026-07-28 connection opens. */
  resourceSubscriptions?: () => readonly string[];
  redact?: Redactor | undefined;
}

/** Each 2026-07-28 session's listen stream, kept beside the session so that session.ts only attaches it. */
const streams = new WeakMap<object, ListenStream>();

/** The listen stream of `session`, if it speaks 2026-07-28 (MCP spec 2026-07-28, "Subscriptions"). */
export function listenOf(session: object): ListenStream | undefined {
  return streams.get(session);
}

/**
 * Gives a freshly connected 2026-07-28 `session` its listen stream and sends its first `subscriptions/listen`
 * with the subscribed resources at once; {@link ListenStream.ready} settles on the acknowledgment (bounded by
 * `options.timeoutMs`), which the client awaits beside its first `tools/list` so that every change after
 * `connect()` is seen, for no extra round trip. The stream stops when the connection closes, whoever closes
 * it (the session's wire tells it).
 */
export function attachListen(
  session: { onClose(listener: () => void): void },
  sdk: Client,
  server: string,
  hooks: ListenHooks,
  features: ListenFeatures,
  options: RequestOptions,
): void {
  const stream = new ListenStream({
    sdk,
    server,
    ackTimeoutMs: options.timeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS,
    redact: features.redact,
    onIssue: (issue) => hooks.onListenIssue?.(issue),
  });
  streams.set(session, stream);
  session.onClose(() => stream.stop());
  stream.start(features.resourceSubscriptions?.() ?? [], options.signal);
}

/** What a {@link ListenStream} needs from its session. */
export interface ListenStreamDeps {
  sdk: Client;
  /** The server's name, for errors. */
  server: string;
  /** Bound on waiting for `notifications/subscriptions/acknowledged`, in ms. */
  ackTimeoutMs: number;
  redact?: Redactor | undefined;
  onIssue(issue: ListenIssue): void;
}

/**
 * The `subscriptions/listen` filter for `resources` on a server declaring `capabilities`, or `undefined`
 * when the server declares nothing to listen for (MCP spec 2026-07-28, "Subscriptions > Notification
 * Filter"; "Server Features > Resources > Capabilities").
 */
export function listenFilter(
  capabilities: ServerCapabilities | undefined,
  resources: readonly string[],
): SubscriptionFilter | undefined {
  const filter: SubscriptionFilter = {
    ...(capabilities?.tools?.listChanged === true && { toolsListChanged: true }),
    ...(capabilities?.prompts?.listChanged === true && { promptsListChanged: true }),
    ...(capabilities?.resources?.listChanged === true && { resourcesListChanged: true }),
    ...(capabilities?.resources?.subscribe === true &&
      resources.length > 0 && { resourceSubscriptions: [...resources] }),
  };
  return Object.keys(filter).length > 0 ? filter : undefined;
}

/** One connection's listen stream; see the file header. */
export class ListenStream {
  readonly #deps: ListenStreamDeps;
  /** The resource URIs the open (or next) listen carries. */
  #resources: readonly string[] = [];
  #current: McpSubscription | undefined;
  /** Operations one after another: a re-open never races a new resource set. */
  #queue: Promise<unknown> = Promise.resolve();
  #timer: NodeJS.Timeout | undefined;
  /** Re-open attempts since a listen last stayed open for `maxDelayMs` (a stream that keeps dropping backs off). */
  #attempts = 0;
  /** When the current listen was acknowledged (`Date.now()`). */
  #openedAt = 0;
  #stopped = false;
  /** See {@link ready}. */
  #ready: Promise<void> = Promise.resolve();

  constructor(deps: ListenStreamDeps) {
    this.#deps = deps;
  }

  /** Whether the server declares `resources.subscribe`, without which no resource can be listened to. */
  get canSubscribeResources(): boolean {
    return this.#deps.sdk.getServerCapabilities()?.resources?.subscribe === true;
  }

  /**
   * Settles (never rejects) once the first listen was acknowledged, or failed (reported through `onIssue`).
   */
  get ready(): Promise<void> {
    return this.#ready;
  }

  /**
   * Opens the first listen with `resources`, its request sent before this returns (so that it goes out
   * before the session's next request); see {@link ready}. A failure is reported through `onIssue` (and
   * retried with backoff unless the server answered with an error). `signal` (the connect's) ends the wait
   * for the acknowledgment, and then nothing is retried; it does not bind the stream once acknowledged.
   */
  start(resources: readonly string[], signal?: AbortSignal): void {
    this.#resources = [...resources];
    // Not queued behind the (idle) queue: that would defer the send by a microtask.
    this.#ready = this.#open({ signal }).catch((error: unknown) => {
      if (signal?.aborted !== true) this.#failed(error);
    });
    this.#queue = this.#ready;
  }

  /**
   * Subscribes to `uri` (`subscribed` true) or unsubscribes from it: the listen is re-opened with the new set
   * and this resolves once the server acknowledged it (nothing is sent when the set does not change). On
   * failure the previous listen (if any) stays open and the set is unchanged. `options` bound the wait for
   * the acknowledgment (default timeout: the session's connect timeout).
   * @throws MCPCallError naming `subscriptions/listen`: kind `protocol` when subscribing on a server that does
   *   not declare `resources.subscribe`; the mapped failure of the request otherwise.
   */
  setSubscribed(uri: string, subscribed: boolean, options: RequestOptions = {}): Promise<void> {
    return this.#serially(async () => {
      const previous = this.#resources;
      if (previous.includes(uri) === subscribed) return;
      if (subscribed && !this.canSubscribeResources)
        throw new MCPCallError(
          'protocol',
          'the server does not declare resources.subscribe (MCP spec 2026-07-28, "Server Features > Resources > Capabilities")',
          { server: this.#deps.server, method: 'subscriptions/listen' },
        );
      this.#resources = subscribed ? [...previous, uri] : previous.filter((known) => known !== uri);
      try {
        await this.#open(options);
      } catch (error) {
        this.#resources = previous;
        // No listen is open (the last one dropped, its re-open was due): re-open it with the set as it was. An
        // error answer is the caller's to handle, and says nothing new about the stream.
        const lost = this.#current === undefined && !(error instanceof ProtocolError);
        if (lost && options.signal?.aborted !== true) this.#failed(error);
        throw this.#mapped(error, options);
      }
    });
  }

  /** Stops for good: no re-open is scheduled or started after this. The transport's close ends the stream. */
  stop(): void {
    this.#stopped = true;
    clearTimeout(this.#timer);
    this.#timer = undefined;
  }

  #serially<T>(operation: () => Promise<T>): Promise<T> {
    const next = this.#queue.then(operation);
    this.#queue = next.catch(() => {});
    return next;
  }

  /** Opens a listen for the current set; once acknowledged, it replaces (and cancels) the previous one. */
  async #open(options: RequestOptions = {}): Promise<void> {
    if (this.#stopped) return;
    clearTimeout(this.#timer);
    this.#timer = undefined;
    const filter = listenFilter(this.#deps.sdk.getServerCapabilities(), this.#resources);
    const previous = this.#current;
    if (filter === undefined) {
      this.#current = undefined;
      await previous?.close();
      return;
    }
    const subscription = await this.#listen(filter, options);
    if (this.#stopped) {
      await subscription.close();
      return;
    }
    this.#current = subscription;
    this.#openedAt = Date.now();
    void subscription.closed.then((cause) => this.#ended(subscription, cause));
    await previous?.close();
  }

  /** The server ended `subscription`: re-open after a backoff, unless it is no longer the current one. */
  #ended(subscription: McpSubscription, cause: 'local' | 'graceful' | 'remote'): void {
    if (cause === 'local' || this.#stopped || this.#current !== subscription) return;
    this.#current = undefined;
    if (Date.now() - this.#openedAt >= LISTEN_REOPEN_BACKOFF.maxDelayMs) this.#attempts = 0;
    const how =
      cause === 'graceful'
        ? 'the server ended the subscriptions/listen stream'
        : 'the subscriptions/listen stream dropped';
    this.#retry(how, undefined);
  }

  /** A listen could not be opened: an error answer is final for this connection; anything else is retried. */
  #failed(error: unknown): void {
    if (this.#stopped || this.#deps.sdk.transport === undefined) return;
    const mapped = this.#mapped(error);
    if (error instanceof ProtocolError) {
      this.#deps.onIssue({
        reason: `the server answered subscriptions/listen with JSON-RPC error ${error.code}; change notifications are off for this connection`,
        willRetry: false,
        error: mapped,
      });
      return;
    }
    this.#retry(`subscriptions/listen failed: ${mapped.reason}`, mapped);
  }

  #retry(reason: string, error: MCPCallError | undefined): void {
    if (this.#stopped || this.#deps.sdk.transport === undefined) return;
    const willRetry = this.#attempts < LISTEN_REOPEN_MAX_ATTEMPTS;
    this.#deps.onIssue({
      reason: willRetry ? reason : `${reason}; gave up after ${LISTEN_REOPEN_MAX_ATTEMPTS} attempts`,
      willRetry,
      error,
    });
    if (!willRetry) return;
    const delayMs = backoffDelayMs(LISTEN_REOPEN_BACKOFF, this.#attempts, Math.random);
    this.#attempts += 1;
    clearTimeout(this.#timer);
    this.#timer = setTimeout(() => {
      this.#timer = undefined;
      void this.#serially(async () => {
        try {
          await this.#open();
        } catch (failure) {
          this.#failed(failure);
        }
      });
    }, delayMs);
    // A stream nobody else keeps the process alive for is not worth keeping it alive.
    this.#timer.unref();
  }

  /**
   * `sdk.listen`, its acknowledgment awaited within `options`. The SDK binds the subscription's whole life to
   * the signal it is given, so the caller's signal is linked to it only until the acknowledgment.
   */
  async #listen(filter: SubscriptionFilter, options: RequestOptions): Promise<McpSubscription> {
    const ack = new AbortController();
    const signal = options.signal;
    const abort = () => ack.abort(signal?.reason);
    if (signal?.aborted) abort();
    signal?.addEventListener('abort', abort, { once: true });
    try {
      const timeout = options.timeoutMs ?? this.#deps.ackTimeoutMs;
      return await this.#deps.sdk.listen(filter, { timeout, signal: ack.signal });
    } finally {
      signal?.removeEventListener('abort', abort);
    }
  }

  #mapped(error: unknown, options: RequestOptions = {}): MCPCallError {
    return toCallError(error, {
      server: this.#deps.server,
      method: 'subscriptions/listen',
      signal: options.signal,
      timeoutMs: options.timeoutMs ?? this.#deps.ackTimeoutMs,
      redact: this.#deps.redact,
    });
  }
}
