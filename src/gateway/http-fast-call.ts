/**
 * The gateway's fast path for 2026-07-28 `tools/call` over Streamable HTTP (MCP spec 2026-07-28, "Server >
 * Tools > Calling Tools", "Transports > Streamable HTTP"), the HTTP twin of the stdio one (fast-call.ts):
 * the MCP SDK's `createMcpHandler` builds a web `Request`, classifies it, checks the headers against the
 * body and makes a fresh SDK `Server` for every request, which costs more than the relay itself. Here a
 * request is taken in front of it when the SDK has already served a `tools/call` with the very same
 * `_meta` envelope and `MCP-Protocol-Version` header (learnt from its handler being reached and its answer
 * being a plain JSON 200: every check passed), the request's `Mcp-Method` is `tools/call` and its
 * `Mcp-Name` the tool's name, its params are as plain as the stdio path requires (name, object arguments,
 * the envelope and nothing else), the tool is routed and cannot run as a task, and no tracer provider is
 * registered. The call goes through the same gate (call-gate.ts: the access policy for the request's
 * caller, the rate limits, the audit), relay round and upstream call (upstream-call.ts: refused at once
 * while the upstream is down, its forgotten session renewed) as the SDK handler's; a plain
 * result is encoded with the codec of an instance the SDK made (its `resultType` and `serverInfo` stamps)
 * and written with the headers the SDK answered the learning request with. Any other outcome (an error, an
 * `input_required` round, other content) is handed to the SDK after all, already settled, so its answer
 * is exactly the ordinary path's.
 */
import {
  type AuthInfo,
  type McpRequestContext,
  ProtocolError,
  type Server,
} from '@modelcontextprotocol/server';
import { tracerProviderRegistered } from '../core/telemetry.js';
import { gatedRequest } from './call-gate.js';
import { callerOf } from './caller.js';
import type { DirectUpstreams } from './direct-upstream.js';
import { encodeToolResult, isRequest, plainResult, takeable } from './fast-call.js';
import { type GatewayRoutes, passThrough, upstreamError } from './routing.js';
import { callUpstream } from './upstream-call.js';

type Params = Record<string, unknown>;

/** What the fast path uses of an SDK server (2.4.0), as in fast-call.ts. */
interface ServerInternals {
  _wireCodec?: () => { encodeResult(method: string, result: object, serverInfo: unknown): object };
  _outboundServerInfo?: () => unknown;
}

/** A key the SDK has accepted, with what it answered. */
interface Learnt {
  server: Server & ServerInternals;
  headers: Record<string, string>;
}

/** How the fast path sees one request, decided before the SDK sees it. */
export type FastDecision =
  | { kind: 'pass' }
  /** Not learnt yet: the SDK serves it, and its answer teaches the key. */
  | { kind: 'learn'; key: string }
  /** `run` makes the call; `signal` aborts it (the client went away). */
  | { kind: 'take'; run: (signal: AbortSignal) => Promise<FastOutcome> };

/** The outcome of a taken call: the bytes to write, or the settled outcome to hand to the SDK. */
export type FastOutcome =
  | { kind: 'write'; status: number; headers: Record<string, string>; body: string }
  | { kind: 'hand-over'; outcome: Promise<object> };

// Keys the learnt set holds at most (distinct client envelopes); beyond it nothing more is learnt.
const MAX_LEARNT = 1000;

/** The HTTP fast path of one gateway; see the file header. */
export class HttpFastCalls {
  readonly #routes: Pick<GatewayRoutes, 'catalog' | 'relay' | 'health' | 'gate'>;
  readonly #learnt = new Map<string, Learnt>();
  readonly #direct: DirectUpstreams | undefined;
  /** The request each modern instance serves (from the factory's context). */
  readonly #requests = new WeakMap<Server, Request>();
  /** Per request handed to the SDK: the key it teaches, the outcome already settled, the instance reached. */
  readonly #handed = new WeakMap<
    Request,
    { key?: string; outcome?: Promise<object> | undefined; server?: Server }
  >();

  /**
   * @param direct - the direct path to plain HTTP upstreams (direct-upstream.ts), when the gateway has one.
   */
  constructor(
    routes: Pick<GatewayRoutes, 'catalog' | 'relay' | 'health' | 'gate'>,
    direct?: DirectUpstreams,
  ) {
    this.#routes = routes;
    this.#direct = direct;
  }

  /** `factory` with each modern instance tied to the request it serves. */
  wrap(factory: (context: McpRequestContext) => Server): (context: McpRequestContext) => Server {
    return (context) => {
      const server = factory(context);
      if (context.era === 'modern' && context.requestInfo) this.#requests.set(server, context.requestInfo);
      return server;
    };
  }

  /** Called by the SDK's `tools/call` handler (its checks passed): the outcome settled here, if any. */
  settled(server: Server): Promise<object> | undefined {
    const request = this.#requests.get(server);
    const handed = request && this.#handed.get(request);
    if (!handed) return undefined;
    handed.server = server;
    const { outcome } = handed;
    handed.outcome = undefined;
    return outcome;
  }

  /** Marks `request` (about to go to the SDK) with the key it teaches and the outcome it carries. */
  handOver(request: Request, key: string | undefined, outcome?: Promise<object>): void {
    this.#handed.set(request, { ...(key !== undefined && { key }), ...(outcome && { outcome }) });
  }

  /** The SDK's answer to `request`: a plain JSON 200 from the handler teaches the request's key. */
  answered(request: Request, response: Response): void {
    const handed = this.#handed.get(request);
    if (!handed?.key || !handed.server || response.status !== 200) return;
    if (!response.headers.get('content-type')?.startsWith('application/json')) return;
    if (this.#learnt.size >= MAX_LEARNT || this.#learnt.has(handed.key)) return;
    const server = handed.server as Server & ServerInternals;
    if (typeof server._wireCodec !== 'function' || typeof server._outboundServerInfo !== 'function') return;
    const headers: Record<string, string> = {};
    response.headers.forEach((value, name) => {
      if (name !== 'content-length' && name !== 'date' && name !== 'transfer-encoding') headers[name] = value;
    });
    this.#learnt.set(handed.key, { server, headers });
  }

  /**
   * What to do with a POST to the endpoint (`body` read, access granted to `authInfo`, whose caller the
   * gate checks): pass it on, let it teach, or take it (see the file header).
   */
  decide(
    body: Buffer,
    headers: Record<string, string | string[] | undefined>,
    authInfo: AuthInfo | undefined,
  ): FastDecision {
    if (headers['mcp-method'] !== 'tools/call') return { kind: 'pass' };
    const version = headers['mcp-protocol-version'];
    if (typeof version !== 'string' || headers['mcp-session-id'] !== undefined) return { kind: 'pass' };
    const type = headers['content-type'];
    if (typeof type !== 'string' || !type.startsWith('application/json')) return { kind: 'pass' };
    let value: unknown;
    try {
      value = JSON.parse(body.toString('utf8'));
    } catch {
      return { kind: 'pass' };
    }
    if (!isRequest(value) || value.method !== 'tools/call') return { kind: 'pass' };
    const params = value.params as Params | undefined;
    const meta = params && takeable(params);
    if (meta === undefined || meta === '') return { kind: 'pass' };
    const name = params?.name as string;
    if (headers['mcp-name'] !== name) return { kind: 'pass' };
    const key = `${version}\n${meta}`;
    const learnt = this.#learnt.get(key);
    if (!learnt) return { kind: 'learn', key };
    const { catalog, relay, health, gate } = this.#routes;
    if (tracerProviderRegistered() || catalog.canRunAsTask(name)) return { kind: 'pass' };
    const target = catalog.resolveTool(name);
    if (!target) return { kind: 'pass' };
    const { id } = value;
    const input = (params?.arguments ?? {}) as Params;
    return {
      kind: 'take',
      run: async (signal) => {
        const round = { requestState: undefined, inputResponses: undefined, signal, canAsk: true };
        const gated = gatedRequest(
          callerOf(authInfo),
          'tools/call',
          'tools',
          target.client.name,
          target.name,
        );
        const mayRepeat = catalog.mayRepeat(name);
        // Through the relay, whose context ties an upstream's question to this call.
        const relayed = () =>
          relay.round(target.client.name, round, (callSignal) =>
            callUpstream(health, target.client, mayRepeat, () =>
              // As routing.ts: the gateway's client decides whether a call lost with its upstream is sent again.
              target.client.callTool(target.name, input, { signal: callSignal, retryOnReconnect: false }),
            ),
          );
        const direct = this.#direct?.call(
          target.client,
          target.name,
          input,
          catalog.declaresParamHeaders(name),
        );
        // Direct (direct-upstream.ts): no question can come, so no relay; one that asks goes the ordinary way.
        const send = direct
          ? async () => {
              const answer = await callUpstream(health, target.client, mayRepeat, () => direct(signal));
              return answer.kind === 'result' ? answer.value : relayed();
            }
          : relayed;
        let result: Params;
        try {
          result = passThrough(await gate.run(gated, send));
        } catch (error) {
          // The gate's refusals and an upstream that is down go out as they are, as routing.ts sends them.
          const refusal = error instanceof ProtocolError ? error : upstreamError(error, target.client.name);
          const outcome = Promise.reject(refusal);
          // Taken and thrown by the SDK server's handler, if the request still reaches it; never unhandled.
          outcome.catch(() => {});
          return { kind: 'hand-over', outcome };
        }
        const plain = plainResult(result);
        if (plain === undefined) return { kind: 'hand-over', outcome: Promise.resolve(result) };
        const encoded = encodeToolResult(learnt.server, plain);
        if (encoded === undefined) return { kind: 'hand-over', outcome: Promise.resolve(result) };
        // The SDK's response layout, key for key.
        const body = JSON.stringify({ result: encoded, jsonrpc: '2.0', id });
        return { kind: 'write', status: 200, headers: learnt.headers, body };
      },
    };
  }
}
