/**
 * The gateway's fast path for `tools/call` on a stdio connection (MCP spec 2026-07-28, "Server > Tools >
 * Calling Tools"; the same request in the 2025 revisions): the hot request is routed to its upstream as soon
 * as it is read, in front of the SDK server, whose per-request machinery (zod checks of the request and of
 * the result, an `AbortController`, a context object, closures) costs more than the relay itself.
 *
 * Nothing the SDK would answer differently is taken: a request is taken only when the SDK server has already
 * accepted a `tools/call` with the very same `_meta` (the 2026-07-28 per-request envelope; absent in 2025) on
 * this connection's instance (learnt from its handler being reached: the envelope and request checks
 * passed), the params carry nothing but `name`, `arguments` (an object) and that `_meta`, the `_meta` holds
 * nothing but the envelope (no progress token, trace context or task keys), the tool is routed and cannot
 * run as a task (the task pass-through decides those, tasks.ts), and no tracer provider is registered (the
 * SDK path records the server span, telemetry.ts). Everything else goes to the SDK unchanged. Once the upstream has answered, a plain result (text
 * blocks, `structuredContent`, `isError`) is encoded with the instance's own codec and written; any other
 * outcome (an error, an `input_required` round, other content) is handed to the SDK server after all, with
 * the outcome already settled (see {@link FastToolCalls.settled}), so its errors, validation and 2025
 * elicitation rounds are exactly those of the ordinary path. A cancellation of a request in flight here
 * aborts the upstream call and nothing is answered, as the SDK does.
 */
import type { JSONRPCMessage, Server } from '@modelcontextprotocol/server';
import { ProtocolError } from '@modelcontextprotocol/server';
import { tracerProviderRegistered } from '../core/telemetry.js';
import { type CallGate, gatedRequest } from './call-gate.js';
import { STDIO_CALLER } from './caller.js';
import type { GatewayCatalog } from './catalog.js';
import type { InputRelay } from './relay.js';
import { type GatewayRoutes, passThrough, upstreamError } from './routing.js';
import { callUpstream } from './upstream-call.js';
import type { UpstreamHealth } from './upstream-health.js';

type Id = string | number;
type Params = Record<string, unknown>;

/** What the fast path uses of the SDK server (2.4.0): its era's codec and what it stamps on results. */
interface ServerInternals {
  transport?: unknown;
  _wireCodec?: () => { encodeResult(method: string, result: object, serverInfo: unknown): object };
  _outboundServerInfo?: () => unknown;
}

interface Instance {
  server: Server & ServerInternals;
  /** `_meta` (as JSON; '' when absent) of requests the SDK accepted on this instance. */
  learnt: Set<string>;
  /** Requests sent to the SDK whose `_meta` is learnt once their handler is reached. */
  learning: Map<Id, string>;
}

/** What the fast path does with the connection: hand a message to the SDK server, or write one. */
export interface FastCallWire {
  toSdk(message: JSONRPCMessage): void;
  send(message: JSONRPCMessage): Promise<void>;
}

// Keys a taken request's params may have; anything else (task, inputResponses, …) is the SDK's business.
const PARAM_KEYS = new Set(['name', 'arguments', '_meta']);
// `_meta` keys a taken request may carry: the 2026-07-28 per-request envelope. Any other (a progress token,
// trace context, a task's keys) asks for what only the ordinary path does.
const META_KEYS = new Set([
  'io.modelcontextprotocol/protocolVersion',
  'io.modelcontextprotocol/clientInfo',
  'io.modelcontextprotocol/clientCapabilities',
  'io.modelcontextprotocol/logLevel',
]);
// Requests of unknown fate at most remembered for learning (a client sending many rejected ones).
const MAX_LEARNING = 1000;

/** The fast path of one stdio connection; see the file header. */
export class FastToolCalls {
  readonly #catalog: GatewayCatalog;
  readonly #relay: InputRelay;
  readonly #health: UpstreamHealth;
  readonly #gate: CallGate;
  readonly #wire: FastCallWire;
  #instance: Instance | undefined;
  /** Calls in flight here, by request id. */
  readonly #inFlight = new Map<Id, AbortController>();
  /** Outcomes handed to the SDK server, taken by its handler. */
  readonly #handedOver = new Map<Id, Promise<object>>();

  constructor(routes: Pick<GatewayRoutes, 'catalog' | 'relay' | 'health' | 'gate'>, wire: FastCallWire) {
    this.#catalog = routes.catalog;
    this.#relay = routes.relay;
    this.#health = routes.health;
    this.#gate = routes.gate;
    this.#wire = wire;
  }

  /** Told of each SDK server instance made for the connection: the latest one serves it. */
  track(server: Server): void {
    const internals = server as Server & ServerInternals;
    const usable =
      typeof internals._wireCodec === 'function' && typeof internals._outboundServerInfo === 'function';
    this.#instance = usable ? { server: internals, learnt: new Set(), learning: new Map() } : undefined;
    this.#handedOver.clear();
  }

  /**
   * Called by the SDK server's `tools/call` handler for request `id` (its checks passed): learns the
   * request's `_meta`, and returns the outcome already settled here, if any (taken once).
   */
  settled(id: Id, server: Server): Promise<object> | undefined {
    const instance = this.#instance;
    if (instance?.server !== server) return undefined;
    const learnt = instance.learning.get(id);
    if (learnt !== undefined) {
      instance.learning.delete(id);
      instance.learnt.add(learnt);
    }
    const outcome = this.#handedOver.get(id);
    if (outcome !== undefined) this.#handedOver.delete(id);
    return outcome;
  }

  /** Seen on the way out: an answer ends the learning of its request (it was rejected, or learnt). */
  sent(message: JSONRPCMessage): void {
    if ('id' in message && !('method' in message)) this.#instance?.learning.delete(message.id as Id);
  }

  /** Takes a cancellation of a call in flight here (a checked message); false hands it to the SDK server. */
  cancelled(message: JSONRPCMessage): boolean {
    return (
      'method' in message && message.method === 'notifications/cancelled' && this.#cancel(message.params)
    );
  }

  /**
   * Takes `value` (a parsed line, not checked yet) when it is a `tools/call` request the fast path serves
   * (see the file header); false hands it to the SDK server, which checks it as always.
   */
  take(value: unknown): boolean {
    if (!isRequest(value) || value.method !== 'tools/call') return false;
    // With a tracer provider registered the call takes the SDK server's path, where its server span is
    // recorded (telemetry.ts); the fast path records none.
    if (tracerProviderRegistered()) return false;
    const instance = this.#instance;
    if (instance === undefined || instance.server.transport === undefined) return false;
    const message = value as JSONRPCMessage;
    const { id } = value;
    const params = value.params as Params | undefined;
    const meta = params && takeable(params);
    if (meta === undefined || this.#inFlight.has(id) || this.#handedOver.has(id)) return false;
    if (!instance.learnt.has(meta)) {
      if (instance.learning.size < MAX_LEARNING) instance.learning.set(id, meta);
      return false;
    }
    const name = params?.name as string;
    // A tool that may run as a task goes the SDK server's way, where the task pass-through decides
    // (tasks.ts: a task for a client that declared the tasks extension, a plain call otherwise).
    if (this.#catalog.canRunAsTask(name)) return false;
    const target = this.#catalog.resolveTool(name);
    if (!target) return false;
    const controller = new AbortController();
    this.#inFlight.set(id, controller);
    const input = (params?.arguments ?? {}) as Params;
    const round = {
      requestState: undefined,
      inputResponses: undefined,
      signal: controller.signal,
      canAsk: true,
    };
    // A stdio connection carries no token: its caller is the one who started the gateway (caller.ts).
    const gated = gatedRequest(STDIO_CALLER, 'tools/call', 'tools', target.client.name, target.name);
    this.#gate
      .run(gated, () =>
        this.#relay.round(target.client.name, round, (signal) =>
          callUpstream(this.#health, target.client, this.#catalog.mayRepeat(name), () =>
            // As routing.ts: the gateway's client decides whether a call lost with its upstream is sent again.
            target.client.callTool(target.name, input, { signal, retryOnReconnect: false }),
          ),
        ),
      )
      .then(
        (result) => this.#answer(instance, message, controller, passThrough(result)),
        (error: unknown) => {
          const refusal = error instanceof ProtocolError ? error : upstreamError(error, target.client.name);
          this.#handOver(message, controller, Promise.reject(refusal));
        },
      );
    return true;
  }

  #answer(instance: Instance, message: JSONRPCMessage, controller: AbortController, result: Params): void {
    const value = plainResult(result);
    if (value === undefined || instance !== this.#instance) {
      this.#handOver(message, controller, Promise.resolve(result));
      return;
    }
    const id = (message as { id: Id }).id;
    if (this.#inFlight.get(id) === controller) this.#inFlight.delete(id);
    if (controller.signal.aborted) return;
    const encoded = encodeToolResult(instance.server, value);
    if (encoded === undefined) {
      // Whatever the codec refuses, the SDK server answers as it always does.
      this.#handOver(message, controller, Promise.resolve(result));
      return;
    }
    // The SDK server's response layout, key for key.
    this.#wire.send({ result: encoded, jsonrpc: '2.0', id } as JSONRPCMessage).catch(() => {
      // The client went away: nobody is left to answer.
    });
  }

  #handOver(message: JSONRPCMessage, controller: AbortController, outcome: Promise<object>): void {
    const id = (message as { id: Id }).id;
    if (this.#inFlight.get(id) === controller) this.#inFlight.delete(id);
    outcome.catch(() => {
      // Taken and thrown by the SDK server's handler; never left unhandled.
    });
    if (controller.signal.aborted) return;
    this.#handedOver.set(id, outcome);
    this.#wire.toSdk(message);
  }

  #cancel(params: unknown): boolean {
    const id = (params as { requestId?: unknown } | undefined)?.requestId;
    const controller = (typeof id === 'string' || typeof id === 'number') && this.#inFlight.get(id);
    if (!controller) return false;
    this.#inFlight.delete(id as Id);
    controller.abort((params as { reason?: unknown }).reason);
    return true;
  }

  /** Aborts the calls in flight here (the connection is closing). */
  close(): void {
    for (const controller of this.#inFlight.values()) controller.abort();
    this.#inFlight.clear();
    this.#handedOver.clear();
    this.#instance = undefined;
  }
}

/**
 * A plain `tools/call` result encoded as the SDK server `server` encodes it (its codec's `resultType` and
 * `serverInfo` stamps); undefined when the codec refuses it (the SDK then answers as it always does).
 */
export function encodeToolResult(
  server: Pick<ServerInternals, '_wireCodec' | '_outboundServerInfo'>,
  value: Params,
): object | undefined {
  try {
    return (server._wireCodec as NonNullable<ServerInternals['_wireCodec']>)().encodeResult(
      'tools/call',
      value,
      (server._outboundServerInfo as NonNullable<ServerInternals['_outboundServerInfo']>)(),
    );
  } catch {
    return undefined;
  }
}

/**
 * Whether `value` is certain to pass the SDK's JSON-RPC request check (`JSONRPCRequestSchema`: strict,
 * `jsonrpc` "2.0", an id that is a string or an integer, a string method, object params).
 */
export function isRequest(value: unknown): value is { id: Id; method: string; params?: unknown } {
  if (!isPlainObject(value) || value.jsonrpc !== '2.0' || typeof value.method !== 'string') return false;
  const { id } = value;
  if (typeof id !== 'string' && !Number.isSafeInteger(id)) return false;
  for (const key in value)
    if (key !== 'jsonrpc' && key !== 'id' && key !== 'method' && key !== 'params') return false;
  return true;
}

/** The `_meta` key of params the fast path may take ('' without `_meta`), or undefined. */
export function takeable(params: Params): string | undefined {
  if (!isPlainObject(params) || typeof params.name !== 'string') return undefined;
  for (const key in params) if (!PARAM_KEYS.has(key)) return undefined;
  if (params.arguments !== undefined && !isPlainObject(params.arguments)) return undefined;
  const meta = params._meta;
  if (meta === undefined) return '';
  if (!isPlainObject(meta)) return undefined;
  for (const key in meta) if (!META_KEYS.has(key)) return undefined;
  return JSON.stringify(meta);
}

/**
 * `result` laid out as the SDK's result check would return it (its schema's key order: content,
 * structuredContent, isError), when it holds nothing the check could reject or change: text blocks of
 * `type` and `text` only, an object `structuredContent`, a boolean `isError`. Else undefined.
 */
export function plainResult(result: Params): Params | undefined {
  const { content, structuredContent, isError } = result;
  for (const key in result)
    if (key !== 'content' && key !== 'structuredContent' && key !== 'isError') return undefined;
  if (!Array.isArray(content)) return undefined;
  const blocks: { type: 'text'; text: string }[] = [];
  for (const block of content) {
    if (!isPlainObject(block) || block.type !== 'text' || typeof block.text !== 'string') return undefined;
    let keys = 0;
    for (const _ in block) keys += 1;
    if (keys !== 2) return undefined;
    blocks.push({ type: 'text', text: block.text });
  }
  const value: Params = { content: blocks };
  if (structuredContent !== undefined) {
    if (!isPlainObject(structuredContent)) return undefined;
    value.structuredContent = structuredContent;
  }
  if (isError !== undefined) {
    if (typeof isError !== 'boolean') return undefined;
    value.isError = isError;
  }
  return value;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return false;
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}
