/**
 * Sessions for 2025-era clients over Streamable HTTP (MCP spec 2025-11-25, "Transports > Streamable HTTP"):
 * `initialize` is answered with an `Mcp-Session-Id`, requests with that header are served by a long-lived
 * SDK `Server` of the session (not one per request), whose server→client requests (the upstreams'
 * elicitation and sampling, through the SDK's input-required shim) and notifications (progress, logging)
 * go out on the request's own response, upgraded to an SSE stream when the first of them comes; the GET
 * stream carries the gateway's `list_changed` notifications; `notifications/cancelled` reaches the call;
 * DELETE ends the session.
 *
 * Any process of the gateway serves any session (no sticky routing): the id is sealed (session-seal.ts)
 * and carries the `initialize` the client sent, so a process that meets the session for the first time
 * makes its own instance of it by replaying that handshake. What cannot move is an exchange in flight:
 * the upstream call of a request stays on the process that received the request, and what the client
 * sends for it to another process is forwarded there (cluster.ts): the answer to a server request (its id,
 * `<process id>:<n>`, names the process that asked) and a cancellation (to every process: it names only
 * the client's request id). Change notifications reach the GET streams of every process through the
 * gateway's event bus (Redis with several processes). Resource subscriptions are not offered on these
 * sessions (a `resources/updated` would have to find the process holding the GET stream).
 *
 * The instances of a process are kept while used and dropped after `idleMs` without a request in flight;
 * a dropped one is made again from the id when the session comes back.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type {
  AuthInfo,
  JSONRPCMessage,
  McpRequestContext,
  Server,
  ServerEvent,
  ServerEventBus,
} from '@modelcontextprotocol/server';
import type { ClusterMessage, GatewayCluster } from './cluster.js';
import {
  Exchange,
  rpcError,
  type SessionHost,
  SessionInstance,
  SSE_HEADERS,
  sseFrame,
} from './session-instance.js';
import { callerDigest, type SealedSession, SessionSeal } from './session-seal.js';

/** Options of {@link LegacySessions}. */
export interface LegacySessionsOptions {
  /** Makes a 2025-era instance (the gateway's factory). */
  factory: (context: McpRequestContext) => Server | Promise<Server>;
  seal: SessionSeal;
  cluster: GatewayCluster;
  /** The change events for the GET streams. */
  bus: ServerEventBus;
  /** SSE comment keep-alive interval on GET streams and upgraded responses, in ms. Default 15 000. */
  keepAliveMs?: number;
  /** How long an instance is kept without a request, in ms. Default 600 000. */
  idleMs?: number;
}

/** The JSON-RPC error of a session id that is not (or no longer) valid: the client starts a new session. */
const NOT_FOUND = JSON.stringify({
  jsonrpc: '2.0',
  error: { code: -32001, message: 'Session not found' },
  id: null,
});
const LIST_NOTIFICATIONS: Partial<Record<ServerEvent['kind'], string>> = {
  tools_list_changed: 'notifications/tools/list_changed',
  prompts_list_changed: 'notifications/prompts/list_changed',
  resources_list_changed: 'notifications/resources/list_changed',
};

type Message = Record<string, unknown>;

/** Whether `body` is a lone JSON-RPC `initialize` request (which opens a session). */
export function isInitializeBody(body: Buffer): boolean {
  if (!body.includes('"initialize"')) return false;
  try {
    const message = JSON.parse(body.toString('utf8')) as Message;
    return !Array.isArray(message) && message?.method === 'initialize' && message.id !== undefined;
  } catch {
    return false;
  }
}

/** The sessions of this process; see the file header. */
export class LegacySessions implements SessionHost {
  readonly #options: LegacySessionsOptions;
  readonly #instances = new Map<string, Promise<SessionInstance>>();
  /** GET streams open here, by session key. */
  readonly #streams = new Map<string, Set<ServerResponse>>();
  /** Sessions ended by DELETE (here or on another process), with when their ids expire anyway. */
  readonly #ended = new Map<string, number>();
  readonly #unsubscribe: () => void;
  readonly #sweep: NodeJS.Timeout;
  #counter = 0;
  #closed = false;

  constructor(options: LegacySessionsOptions) {
    this.#options = options;
    this.#unsubscribe = options.bus.subscribe((event) => this.#onEvent(event));
    const idleMs = options.idleMs ?? 600_000;
    this.#sweep = setInterval(() => void this.#dropIdle(idleMs), Math.min(idleMs, 60_000));
    this.#sweep.unref();
  }

  /** A fresh id for a server→client request of this process. */
  nextAskId(): string {
    this.#counter += 1;
    return `${this.#options.cluster.id}:${this.#counter}`;
  }

  /** Takes a cluster message of the sessions'; false when it is another's. */
  receive(message: ClusterMessage): boolean {
    const { key } = message;
    switch (message.type) {
      case 'session-answer':
        if (typeof key === 'string')
          void this.#local(key)?.then((one) => one.answer(message.message as Message));
        return true;
      case 'session-cancel':
        if (typeof key === 'string')
          void this.#local(key)?.then((one) => one.cancel(message.message as Message));
        return true;
      case 'session-end':
        if (typeof key === 'string' && typeof message.expires === 'number') this.#end(key, message.expires);
        return true;
      default:
        return false;
    }
  }

  /**
   * Serves one HTTP request of the session machinery: an `initialize` POST (no session yet), or any request
   * carrying `Mcp-Session-Id` (`sessionId`).
   */
  async serve(
    req: IncomingMessage,
    res: ServerResponse,
    body: Buffer,
    authInfo: AuthInfo | undefined,
    sessionId: string | undefined,
  ): Promise<void> {
    if (sessionId === undefined) return this.#initialize(res, body, authInfo);
    const session = this.#options.seal.open(sessionId);
    if (!session || this.#ended.has(session.key) || session.caller !== callerDigest(authInfo)) {
      res.writeHead(404, { 'content-type': 'application/json' });
      return void res.end(NOT_FOUND);
    }
    switch (req.method) {
      case 'GET':
        return this.#openStream(req, res, session);
      case 'DELETE': {
        // Remembered until the id would expire anyway; answered once every process has been told, so that
        // none serves the session after the 200.
        const expires = session.createdAt + this.#options.seal.maxAgeMs;
        this.#end(session.key, expires);
        await this.#options.cluster.broadcast({ type: 'session-end', key: session.key, expires });
        return void res.writeHead(200).end();
      }
      case 'POST':
        return this.#post(res, body, authInfo, session, sessionId);
      default:
        return void res.writeHead(405, { allow: 'GET, POST, DELETE' }).end();
    }
  }

  /** Closes every instance and stream of this process. */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    this.#unsubscribe();
    clearInterval(this.#sweep);
    for (const streams of this.#streams.values()) for (const res of streams) res.end();
    this.#streams.clear();
    const instances = [...this.#instances.values()];
    this.#instances.clear();
    await Promise.allSettled(instances.map(async (one) => (await one).close()));
  }

  async #initialize(res: ServerResponse, body: Buffer, authInfo: AuthInfo | undefined): Promise<void> {
    const message = JSON.parse(body.toString('utf8')) as Message;
    const params = (message.params ?? {}) as Message;
    const key = SessionSeal.newKey();
    const instance = await this.#make(key, authInfo);
    const exchange = new Exchange(res, this.#options.keepAliveMs);
    exchange.beforeAnswer = (answer) => {
      const result = answer.result as Message | undefined;
      if (!result || typeof result.protocolVersion !== 'string') {
        void instance.close();
        return {};
      }
      const sealed: SealedSession = {
        protocolVersion: result.protocolVersion,
        capabilities: isObject(params.capabilities) ? params.capabilities : {},
        clientInfo: isObject(params.clientInfo) ? params.clientInfo : {},
        key,
        caller: callerDigest(authInfo),
        createdAt: Date.now(),
      };
      this.#instances.set(key, Promise.resolve(instance));
      return { 'mcp-session-id': this.#options.seal.seal(sealed) };
    };
    instance.request(message, exchange, authInfo);
  }

  async #post(
    res: ServerResponse,
    body: Buffer,
    authInfo: AuthInfo | undefined,
    session: SealedSession,
    sessionId: string,
  ): Promise<void> {
    let parsed: unknown;
    try {
      parsed = JSON.parse(body.toString('utf8'));
    } catch {
      res.writeHead(400, { 'content-type': 'application/json' });
      return void res.end(rpcError(null, -32700, 'Parse error'));
    }
    const messages = (Array.isArray(parsed) ? parsed : [parsed]) as Message[];
    if (messages.length === 0 || messages.some((one) => !isObject(one) || one.jsonrpc !== '2.0')) {
      res.writeHead(400, { 'content-type': 'application/json' });
      return void res.end(rpcError(null, -32600, 'Invalid Request'));
    }
    const requests = messages.filter((one) => typeof one.method === 'string' && one.id !== undefined);
    if (requests.length > 1 || (requests.length === 1 && messages.length > 1)) {
      res.writeHead(400, { 'content-type': 'application/json' });
      return void res.end(rpcError(null, -32600, 'Invalid Request: a request must be sent alone'));
    }
    const [request] = requests;
    if (request) {
      if (request.method === 'initialize') {
        res.writeHead(400, { 'content-type': 'application/json' });
        return void res.end(
          rpcError(request.id, -32600, 'Invalid Request: the session is already initialized'),
        );
      }
      const instance = await this.#instance(session, authInfo);
      const exchange = new Exchange(res, this.#options.keepAliveMs);
      exchange.headers = { 'mcp-session-id': sessionId };
      instance.request(request, exchange, authInfo);
      return;
    }
    for (const message of messages) await this.#notice(session, message, authInfo);
    res.writeHead(202).end();
  }

  /** A notification or a response from the client: delivered where it belongs. */
  async #notice(session: SealedSession, message: Message, authInfo: AuthInfo | undefined): Promise<void> {
    const { cluster } = this.#options;
    if (message.method === undefined) {
      // The answer to a server request: the process that asked is named in its id.
      const id = message.id;
      const owner = typeof id === 'string' ? id.slice(0, id.indexOf(':')) : '';
      if (owner === cluster.id) (await this.#local(session.key))?.answer(message);
      else if (owner !== '') void cluster.send(owner, { type: 'session-answer', key: session.key, message });
      return;
    }
    if (message.method === 'notifications/cancelled') {
      const local = await this.#local(session.key);
      if (!local?.cancel(message))
        void cluster.broadcast({ type: 'session-cancel', key: session.key, message });
      return;
    }
    // `notifications/initialized` and the like: for the instance of this process, when it has one (a new
    // instance replays its own).
    (await this.#local(session.key))?.notify(message, authInfo);
  }

  #openStream(req: IncomingMessage, res: ServerResponse, session: SealedSession): void {
    if (!(req.headers.accept ?? '').includes('text/event-stream')) {
      res.writeHead(406, { 'content-type': 'application/json' });
      return void res.end(rpcError(null, -32000, 'Not Acceptable: the client must accept text/event-stream'));
    }
    res.writeHead(200, SSE_HEADERS);
    res.flushHeaders();
    const streams = this.#streams.get(session.key) ?? new Set<ServerResponse>();
    this.#streams.set(session.key, streams);
    streams.add(res);
    const keepAlive = setInterval(() => res.write(': keepalive\n\n'), this.#options.keepAliveMs ?? 15_000);
    keepAlive.unref();
    res.on('close', () => {
      clearInterval(keepAlive);
      streams.delete(res);
      if (streams.size === 0 && this.#streams.get(session.key) === streams) this.#streams.delete(session.key);
    });
  }

  /** A change event: its notification on every GET stream of this process. */
  #onEvent(event: ServerEvent): void {
    const method = LIST_NOTIFICATIONS[event.kind];
    if (method === undefined) return;
    const frame = sseFrame({ jsonrpc: '2.0', method });
    for (const streams of this.#streams.values()) for (const res of streams) res.write(frame);
  }

  /** A message of the session's instance for which no request is waiting: onto its GET streams here. */
  toStreams(key: string, message: JSONRPCMessage): void {
    const streams = this.#streams.get(key);
    if (!streams) return;
    const frame = sseFrame(message);
    for (const res of streams) res.write(frame);
  }

  #local(key: string): Promise<SessionInstance> | undefined {
    return this.#instances.get(key);
  }

  #instance(session: SealedSession, authInfo: AuthInfo | undefined): Promise<SessionInstance> {
    const known = this.#instances.get(session.key);
    if (known) return known;
    const made = this.#make(session.key, authInfo).then(async (instance) => {
      await instance.replay(session);
      return instance;
    });
    this.#instances.set(session.key, made);
    made.catch(() => {
      if (this.#instances.get(session.key) === made) this.#instances.delete(session.key);
    });
    return made;
  }

  async #make(key: string, authInfo: AuthInfo | undefined): Promise<SessionInstance> {
    const server = await this.#options.factory({ era: 'legacy', ...(authInfo && { authInfo }) });
    const instance = new SessionInstance(key, server, this);
    await server.connect(instance);
    return instance;
  }

  #end(key: string, expires: number): void {
    this.#ended.set(key, expires);
    const now = Date.now();
    if (this.#ended.size > 10_000)
      for (const [one, until] of this.#ended) if (until < now) this.#ended.delete(one);
    const instance = this.#instances.get(key);
    this.#instances.delete(key);
    void instance?.then((one) => one.close());
    for (const res of this.#streams.get(key) ?? []) res.end();
    this.#streams.delete(key);
  }

  async #dropIdle(idleMs: number): Promise<void> {
    const now = Date.now();
    for (const [key, pending] of this.#instances) {
      const instance = await pending.catch(() => undefined);
      if (instance && instance.idleSince !== undefined && now - instance.idleSince > idleMs) {
        if (this.#instances.get(key) === pending) this.#instances.delete(key);
        await instance.close();
      }
    }
    for (const [key, until] of this.#ended) if (until < now) this.#ended.delete(key);
  }
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
