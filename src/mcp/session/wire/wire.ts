/**
 * The one owner of a connection's transport: its `start`, `send`, `close` and its three callbacks
 * (`onmessage`, `onclose`, `onerror`) belong to a {@link Wire} and to nothing else (the source rules test
 * holds every other file to it). As the MCP Rust SDK's `Service` engine does for its transport, the wire
 * routes each inbound message once, by id space and method, to the correlator that owns it:
 * - a response whose id, or a `notifications/progress` whose token, lies in a claimed id space (`probe-` for
 *   the `server/discover` probe, negotiate.ts; `aw-` for the direct request path, calls.ts) goes to that
 *   space's correlator, one lookup; when the correlator no longer waits for it (its request timed out, was
 *   cancelled, or the probe gave up on it) the wire itself knows it for a late answer (MCP spec 2025-11-25,
 *   "Utilities > Cancellation": normal, not an error), and the SDK never sees it;
 * - everything else (the SDK's numeric ids, the server's requests and notifications) goes to the SDK's view
 *   of the transport ({@link SdkPort}), which sees only what nothing else claimed; before the SDK's `Client`
 *   is connected there is nobody to hear it, and it is dropped.
 * The trace (`onWireMessage`) taps here, once, every message both ways and every request that failed
 * without a response. Transport errors reported before the SDK listens are kept for it; closing tells every
 * correlator, then the SDK, then the wire's own listeners.
 */
import type {
  JSONRPCMessage,
  MessageExtraInfo,
  Transport,
  TransportSendOptions,
} from '@modelcontextprotocol/client';
import { tracerProviderRegistered } from '../../../core/telemetry.js';
import { MCPCallError } from '../../protocol/errors.js';
import type { AgentwireTransport } from '../../transports/transport.js';
import { noteSent } from '../mcp-span.js';

/** What the trace sees of the wire: a message sent or received, or a request that failed without a response. */
export interface WireEvent {
  direction: 'send' | 'receive' | 'fail';
  message: JSONRPCMessage;
  /** With `fail`: what came instead of a response, in a few words. */
  failure?: string;
}

/** The trace of a wire; a listener that throws is ignored (tracing never breaks the connection). */
export type WireTap = (event: WireEvent) => void;

/** What owns an id space on the wire: the requests sent with ids of its prefix. */
export interface Correlator {
  /** The response to request `id`; false when it no longer waits for it (a late answer). */
  answer(id: string, message: Record<string, unknown>): boolean;
  /** `notifications/progress` for token `token`; false when no request of it waits (late progress). */
  progress(token: string, params: Record<string, unknown>): boolean;
  /** The connection ended: every request still waiting fails. */
  closed(): void;
}

/** What a wire reports besides messages. */
export interface WireHooks {
  /** The trace; absent: nothing is traced, and no work is done for it. */
  tap?: WireTap | undefined;
  /** A response or progress arrived for a request no longer pending (see the file header). */
  onLateMessage?: (() => void) | undefined;
}

/** One connection's wire; see the file header. */
export class Wire {
  readonly transport: AgentwireTransport;
  /** The SDK `Client`'s view of the transport. */
  readonly sdk: SdkPort;
  readonly #tap: WireTap | undefined;
  #onLateMessage: (() => void) | undefined;
  /** Claimed id spaces, by prefix (at most two: the probe's and the direct path's). */
  readonly #claims: { prefix: string; correlator: Correlator }[] = [];
  readonly #closeListeners: (() => void)[] = [];
  #started: Promise<void> | undefined;
  #closed = false;
  /** Transport errors reported while the SDK did not listen yet, handed to it when it starts. */
  #reports: Error[] | undefined = [];

  constructor(transport: AgentwireTransport, hooks: WireHooks = {}) {
    this.transport = transport;
    this.#tap = hooks.tap;
    this.#onLateMessage = hooks.onLateMessage;
    this.sdk = new SdkPort(this);
    transport.onmessage = (message, extra) => this.#receive(message, extra);
    transport.onclose = () => this.#ended();
    transport.onerror = (error) => this.#report(error);
  }

  /** Whether the transport has closed (or was closed). */
  get closed(): boolean {
    return this.#closed;
  }

  /** Whether the transport was started. */
  get started(): boolean {
    return this.#started !== undefined;
  }

  /** Who is told of late answers (the session, once it exists). */
  set onLateMessage(listener: (() => void) | undefined) {
    this.#onLateMessage = listener;
  }

  /** Gives the requests with ids beginning with `prefix` to `correlator` (see the file header). */
  claim(prefix: string, correlator: Correlator): void {
    this.#claims.push({ prefix, correlator });
  }

  /** Calls `listener` once the transport has closed, after the correlators and the SDK were told. */
  onClose(listener: () => void): void {
    this.#closeListeners.push(listener);
  }

  /** Starts the transport, once; later calls share the first. */
  start(): Promise<void> {
    this.#started ??= this.transport.start();
    return this.#started;
  }

  /**
   * Sends `message` (traced, and noted for its request span when a tracer provider is registered).
   * @throws (rejects with) what the transport's `send` rejects with.
   */
  send(message: JSONRPCMessage, options?: TransportSendOptions): Promise<void> {
    if (tracerProviderRegistered()) noteSent(message);
    const tap = this.#tap;
    if (tap === undefined) return this.transport.send(message, options);
    see(tap, { direction: 'send', message });
    const sent = this.transport.send(message, options);
    if (!('method' in message && 'id' in message)) return sent;
    return sent.catch((error: unknown) => {
      see(tap, { direction: 'fail', message, failure: failureText(error) });
      throw error;
    });
  }

  /** Traces `request` as failed without a response, for `failure` (a probe that went unanswered, say). */
  failed(request: JSONRPCMessage, failure: string): void {
    if (this.#tap) see(this.#tap, { direction: 'fail', message: request, failure });
  }

  /** Closes the transport (idempotent, as the transports are). */
  close(): Promise<void> {
    return this.transport.close();
  }

  /** Hands the reports kept so far to the SDK, which listens from now on. */
  sdkListens(): void {
    const reports = this.#reports;
    this.#reports = undefined;
    for (const report of reports ?? []) this.sdk.onerror?.(report);
  }

  #receive(message: JSONRPCMessage, extra: MessageExtraInfo | undefined): void {
    if (this.#tap) see(this.#tap, { direction: 'receive', message });
    const value = message as unknown as Record<string, unknown>;
    const method = value.method;
    if (method === undefined) {
      const id = value.id;
      const owner = typeof id === 'string' ? this.#ownerOf(id) : undefined;
      if (owner !== undefined) {
        if (!owner.answer(id as string, value)) this.#onLateMessage?.();
        return;
      }
    } else if (method === 'notifications/progress') {
      const params = value.params as Record<string, unknown> | undefined;
      const token = params?.progressToken;
      const owner = typeof token === 'string' ? this.#ownerOf(token) : undefined;
      if (owner !== undefined) {
        if (!owner.progress(token as string, params as Record<string, unknown>)) this.#onLateMessage?.();
        return;
      }
    }
    this.sdk.onmessage?.(message, extra);
  }

  #ownerOf(id: string): Correlator | undefined {
    for (const claim of this.#claims) if (id.startsWith(claim.prefix)) return claim.correlator;
    return undefined;
  }

  #report(error: Error): void {
    if (this.#reports !== undefined) this.#reports.push(error);
    else this.sdk.onerror?.(error);
  }

  #ended(): void {
    if (this.#closed) return;
    this.#closed = true;
    try {
      this.sdk.onclose?.();
    } finally {
      for (const { correlator } of this.#claims) correlator.closed();
      for (const listener of this.#closeListeners) listener();
    }
  }
}

/**
 * The transport as the SDK's `Client` sees it: what the wire did not claim comes in through its
 * `onmessage`, and what it sends goes out through the wire. Its `start()` is the wire's, once (a probe may
 * have started it already); given a `signal` before it starts, the signal closes the transport while the
 * start is pending (a `start()` that waits on the server, as the HTTP+SSE transport's GET, MCP spec
 * 2024-11-05, "Transports > HTTP with SSE", would not hear the connect's signal otherwise).
 */
export class SdkPort implements Transport {
  onclose?: (() => void) | undefined;
  onerror?: ((error: Error) => void) | undefined;
  onmessage?: (<T extends JSONRPCMessage>(message: T, extra?: MessageExtraInfo) => void) | undefined;
  readonly #wire: Wire;
  #signal: AbortSignal | undefined;

  constructor(wire: Wire) {
    this.#wire = wire;
  }

  /** Bounds the next `start()` by `signal` (see the class comment). */
  startWithin(signal: AbortSignal | undefined): void {
    this.#signal = signal;
  }

  async start(): Promise<void> {
    const wire = this.#wire;
    wire.sdkListens();
    const signal = this.#signal;
    if (wire.started || signal === undefined) return wire.start();
    const close = () => void wire.close().catch(() => {});
    signal.addEventListener('abort', close, { once: true });
    try {
      if (signal.aborted) close();
      await wire.start();
    } finally {
      signal.removeEventListener('abort', close);
    }
  }

  send(message: JSONRPCMessage, options?: TransportSendOptions): Promise<void> {
    return this.#wire.send(message, options);
  }

  close(): Promise<void> {
    return this.#wire.close();
  }

  get sessionId(): string | undefined {
    return this.#wire.transport.sessionId;
  }

  get hasPerRequestStream(): boolean {
    return this.#wire.transport.hasPerRequestStream === true;
  }

  setProtocolVersion(version: string): void {
    this.#wire.transport.setProtocolVersion?.(version);
  }
}

function see(tap: WireTap, event: WireEvent): void {
  try {
    tap(event);
  } catch {
    // A tracer's failure is not the connection's.
  }
}

/**
 * A failed request's {@link WireEvent.failure}: for an HTTP error status, the status and the JSON-RPC error
 * code its body held, if any (`HTTP 500, error -32603`); else the failure's reason.
 */
export function failureText(error: unknown): string {
  if (!(error instanceof MCPCallError)) return error instanceof Error ? error.message : String(error);
  const status = error.status;
  if (status === undefined || (status >= 200 && status < 300)) return error.reason;
  const code = error.code ?? errorCodeIn(error.body);
  return code === undefined ? `HTTP ${status}` : `HTTP ${status}, error ${code}`;
}

/** The `error.code` of a JSON-RPC error response in `body`, if it is one. */
function errorCodeIn(body: unknown): number | undefined {
  if (typeof body !== 'string') return undefined;
  try {
    const parsed = JSON.parse(body) as { error?: { code?: unknown } } | null;
    const code = parsed?.error?.code;
    return typeof code === 'number' ? code : undefined;
  } catch {
    return undefined;
  }
}
