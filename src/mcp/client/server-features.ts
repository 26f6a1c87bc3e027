/**
 * The requests of `MCPClient` for what a server offers beside tools: resources (MCP spec 2025-11-25,
 * "Server Features > Resources"), prompts ("Prompts"), completion ("Utilities > Completion") and logging
 * ("Utilities > Logging"), each sent only when the server declared the capability it needs (capabilities.ts).
 * A list of a feature the server does not offer is `[]`; any other request fails with kind `unsupported`.
 */
import type { GetPromptResult, LoggingLevel, ReadResourceResult } from '../protocol/types.js';
import { objectWithArraySchema } from '../session/engine/result-checks.js';
import type { RequestCache, RequestOptions } from '../session/request-options.js';
import type { Session } from '../session/session.js';
import { offers, requireCapability } from './capabilities.js';
import { completeArgument, type MCPCompleteParams, type MCPCompletion } from './completion.js';
import type { Connection } from './connection.js';
import type { RequestHooks } from './hooks/request-hooks.js';
import { DEFAULT_CONNECT_TIMEOUT_MS, type MCPClientOptions, type MCPRequestOptions } from './options.js';

/** What {@link ServerFeatures} needs from its client. */
export interface ServerFeaturesHost {
  /** The server's name, for errors. */
  name: string;
  options: MCPClientOptions;
  /** The client's connection (read at each use: it is created after this). */
  connection: () => Connection;
  /** The client's response cache for `session`'s requests, if it caches (response-cache.ts). */
  cacheFor: (session: Session) => RequestCache | undefined;
  /** The client's requests through its hooks: each request below is sent through them. */
  requests: RequestHooks;
}

/** One client's requests for resources, prompts, completion and logging; see the file header. */
export class ServerFeatures {
  readonly #host: ServerFeaturesHost;

  constructor(host: ServerFeaturesHost) {
    this.#host = host;
  }

  /** The current session, or a `not_connected` error for `method`. */
  session(method: string): Session {
    return this.#host.connection().requireSession(method);
  }

  /** `options` with the defaults (bound: `connectTimeoutMs`), and `session`'s response cache when given. */
  requestOptions(options: MCPRequestOptions = {}, session?: Session): RequestOptions {
    const cache = session && this.#host.cacheFor(session);
    const timeoutMs = options.timeoutMs ?? this.#host.options.connectTimeoutMs ?? DEFAULT_CONNECT_TIMEOUT_MS;
    return { timeoutMs, signal: options.signal, cache };
  }

  /**
   * `send` on the session for `method` with `options` resolved, through the client's requests (hooks,
   * the call's `context` and `headers`): what a request without a method of its own here goes through.
   */
  through<T>(
    method: string,
    options: MCPRequestOptions | undefined,
    send: (session: Session, resolved: RequestOptions) => Promise<T>,
  ): Promise<T> {
    const session = this.session(method);
    return this.#host.requests.request(method, options, () => send(session, this.requestOptions(options)));
  }

  /** Every page of list `method` (items under `key`); `[]` without a request when the server lacks it. */
  list<T>(method: string, key: string, options: MCPRequestOptions | undefined): Promise<T[]> {
    const session = this.session(method);
    if (!offers(session, method)) return Promise.resolve([]);
    const send = () => session.listAll<T>(method, key, this.requestOptions(options, session));
    return this.#host.requests.request(method, options, send);
  }

  /** `resources/read` of `uri`. @throws MCPCallError (`unsupported`: no `resources`) */
  read(uri: string, options: MCPRequestOptions | undefined): Promise<ReadResourceResult> {
    const schema = objectWithArraySchema<ReadResourceResult>('contents');
    const session = this.#declared('resources/read');
    const send = () =>
      session.request('resources/read', { uri }, schema, this.requestOptions(options, session));
    return this.#host.requests.request('resources/read', options, send);
  }

  /**
   * Subscribes to `uri` or unsubscribes (client/subscriptions.ts). Without `resources.subscribe`, a
   * subscription fails with kind `unsupported`, and an unsubscription resolves without a request.
   */
  async subscribe(uri: string, subscribed: boolean, options: MCPRequestOptions | undefined): Promise<void> {
    const method = subscribed ? 'resources/subscribe' : 'resources/unsubscribe';
    const session = this.session(method);
    const { subscriptions } = this.#host.connection();
    if (!subscribed && !offers(session, method)) return subscriptions.forget(uri);
    requireCapability(session, method, this.#host.name);
    const send = () => subscriptions.set(session, uri, subscribed, this.requestOptions(options));
    await this.#host.requests.request(method, options, send);
  }

  /** `prompts/get`. @throws MCPCallError (`unsupported`: no `prompts`) */
  getPrompt(
    name: string,
    args: Record<string, string>,
    options?: MCPRequestOptions,
  ): Promise<GetPromptResult> {
    const schema = objectWithArraySchema<GetPromptResult>('messages');
    const session = this.#declared('prompts/get');
    const params = { name, arguments: args };
    const send = () => session.request('prompts/get', params, schema, this.requestOptions(options));
    return this.#host.requests.request('prompts/get', options, send);
  }

  /** `completion/complete`. @throws MCPCallError (`unsupported`: no `completions`) */
  complete(params: MCPCompleteParams, options: MCPRequestOptions | undefined): Promise<MCPCompletion> {
    const session = this.#declared('completion/complete');
    const send = () => completeArgument(session, params, this.requestOptions(options));
    return this.#host.requests.request('completion/complete', options, send);
  }

  /** `ping` (`server/discover` in 2026-07-28). @throws MCPCallError */
  ping(options: MCPRequestOptions | undefined): Promise<void> {
    const send = () => this.session('ping').ping(this.requestOptions(options));
    return this.#host.requests.request('ping', options, send);
  }

  /** The log level (`logging/setLevel`, or `_meta` in 2026-07-28). @throws MCPCallError (`unsupported`) */
  async setLoggingLevel(level: LoggingLevel, options: MCPRequestOptions | undefined): Promise<void> {
    const session = this.#declared('logging/setLevel');
    const send = () => session.setLogLevel(level, this.requestOptions(options));
    await this.#host.requests.request('logging/setLevel', options, send);
  }

  /** The session to send `method` on: connected, and its server declares what `method` needs. */
  #declared(method: string): Session {
    const session = this.session(method);
    requireCapability(session, method, this.#host.name);
    return session;
  }
}
