/**
 * A client's requests through its hooks: the entry points of `MCPClient` hand each request here, which
 * sends it as it is when there is nothing to carry (no hook, no context, no headers: no scope entered,
 * nothing allocated), else runs `beforeRequest`, sends the request in its scope (request-scope.ts) and, for
 * a `tools/call`, runs `afterResult` over its result.
 */
import type { RunContext } from '../../../core/tool.js';
import type { CallToolResult } from '../../protocol/types.js';
import {
  afterResult,
  beforeRequest,
  type ResolvedHooks,
  requestContext,
  resolveHooks,
  type TaskCreatedOption,
  taskCreated,
} from './client-hooks.js';
import type { RequestHookLists } from './hook-types.js';
import { inScope } from './request-scope.js';
import type { MCPWireMessage } from './wire-message.js';

/** What a request carries into its hooks and scope, from its options. */
export interface Carried {
  context?: RunContext | undefined;
  headers?: Readonly<Record<string, string>> | undefined;
}

/** What a `tools/call`'s options carry into its hooks besides its scope. */
type CallCarried = Carried & {
  _meta?: Readonly<Record<string, unknown>> | undefined;
  onTaskCreated?: TaskCreatedOption | undefined;
};

/** Sends one `tools/call` (the client's call path). */
export type SendCall<O> = (
  name: string,
  input: Record<string, unknown>,
  options: O,
) => Promise<CallToolResult>;

/** The requests of one client through its hooks. */
export class RequestHooks {
  readonly #server: string;
  readonly #transport: 'http' | 'stdio';
  /** The `hooks` option with its shorthands (client-hooks.ts); `undefined` without any hook. */
  readonly resolved: ResolvedHooks | undefined;
  /** The context of the last `connect()` that gave one: what each reconnect is made for. */
  #connectRun: RunContext | undefined;
  /**
   * Whether every request carries its context: a hook runs along a request (`beforeRequest`, `afterResult`,
   * `taskCreated`), or the headers are asked per request (`perRequestHeaders`). `onWire` and `beforeRetry`
   * alone do not: they run beside the request, not along it.
   */
  readonly #carries: boolean;

  constructor(
    server: string,
    transport: 'http' | 'stdio',
    options: {
      hooks?: RequestHookLists | undefined;
      onWireMessage?: ((message: MCPWireMessage) => void) | undefined;
    },
    perRequestHeaders = false,
  ) {
    this.#server = server;
    this.#transport = transport;
    this.resolved = resolveHooks(options);
    const along = this.resolved;
    this.#carries =
      perRequestHeaders ||
      (along !== undefined &&
        along.beforeRequest.length + along.afterResult.length + along.taskCreated.length > 0);
  }

  /**
   * A `tools/call` of `name`: sent by `send` as it is when it has nothing to carry (no new function, no
   * await added), else through the hooks ({@link RequestHooks.call}).
   */
  callTool<O extends CallCarried>(
    name: string,
    input: Record<string, unknown>,
    options: O,
    send: SendCall<O>,
  ): Promise<CallToolResult> {
    if (this.plain(options)) return send(name, input, options);
    return this.call(name, input, options, (sent, given) => send(name, sent, given));
  }

  /**
   * A `connect()` for `run`, in its scope. A connect that `starts` an attempt (the client was disconnected
   * or failed) makes `run` the context of its reconnects, none included; one that joins an attempt under
   * way, or finds the client connected, leaves that attempt's context as it is.
   */
  connect<T>(run: RunContext | undefined, starts: boolean, work: () => Promise<T>): Promise<T> {
    if (starts) this.#connectRun = run;
    return this.inRun(run, work);
  }

  /** `work` (a reconnect) in the scope of the last `connect()` that gave a context. */
  inConnectScope<T>(work: () => Promise<T>): Promise<T> {
    return inScope({ run: this.#connectRun }, work);
  }

  /** Whether a request with these options has nothing to carry: it is sent as it is. */
  plain(options: Carried | undefined): boolean {
    return !this.#carries && options?.context === undefined && options?.headers === undefined;
  }

  /**
   * A `tools/call` of `name` through `beforeRequest` (arguments, `_meta`, headers), sent by `send` in its
   * scope with the `taskCreated` hooks after its own `onTaskCreated`, then `afterResult`.
   * @throws what a hook or `send` throws.
   */
  async call<O extends CallCarried>(
    name: string,
    input: Record<string, unknown>,
    options: O,
    send: (input: Record<string, unknown>, options: O) => Promise<CallToolResult>,
  ): Promise<CallToolResult> {
    const context = requestContext(this.#server, 'tools/call', options.context, name);
    const { request, scope } = await beforeRequest(this.resolved, {
      transport: this.#transport,
      context,
      arguments: input,
      _meta: options._meta,
      headers: options.headers,
    });
    const onTaskCreated = taskCreated(this.resolved, options.onTaskCreated, context);
    const sent = { ...options, _meta: request._meta, onTaskCreated };
    const result = await inScope(scope, () => send(request.arguments ?? {}, sent));
    return afterResult(this.resolved, result, context);
  }

  /** `work`, a request of `method`, after `beforeRequest` (headers only) and in its scope; else `work()`. */
  request<T>(method: string, options: Carried | undefined, work: () => Promise<T>): Promise<T> {
    return this.plain(options) ? work() : this.#scoped(method, options, work);
  }

  /** `work` in the scope of `run` (a connect, a refresh); `work()` itself without one. */
  inRun<T>(run: RunContext | undefined, work: () => Promise<T>): Promise<T> {
    return run === undefined ? work() : inScope({ run }, work);
  }

  async #scoped<T>(method: string, options: Carried | undefined, work: () => Promise<T>): Promise<T> {
    const context = requestContext(this.#server, method, options?.context);
    const start = { transport: this.#transport, context, headers: options?.headers };
    const { scope } = await beforeRequest(this.resolved, start);
    return inScope(scope, work);
  }
}
