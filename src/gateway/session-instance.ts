/**
 * One 2025-era session's SDK server on one gateway process, seen as its transport (legacy-sessions.ts
 * makes and keeps them), and the HTTP exchange of each client request: the answer alone is a JSON body;
 * anything the server sends first for the request (a progress notification, an elicitation or sampling
 * request) turns the response into an SSE stream, which the answer then ends (MCP spec 2025-11-25,
 * "Transports > Streamable HTTP > Sending Messages to the Server").
 */
import type { ServerResponse } from 'node:http';
import type {
  AuthInfo,
  JSONRPCMessage,
  RequestId,
  Server,
  Transport,
  TransportSendOptions,
} from '@modelcontextprotocol/server';
import type { SealedSession } from './session-seal.js';

type Message = Record<string, unknown>;

/** What an instance needs of the sessions of its process. */
export interface SessionHost {
  /** A fresh id for a server→client request, naming this process. */
  nextAskId(): string;
  /** A message of session `key` for which no request is waiting: onto its GET streams here. */
  toStreams(key: string, message: JSONRPCMessage): void;
}

const REPLAY_ID = 'agentwire-gateway:replayed-initialize';

/** The headers of an SSE response. */
export const SSE_HEADERS = {
  'content-type': 'text/event-stream',
  'cache-control': 'no-cache, no-transform',
  connection: 'keep-alive',
};

/**
 * One session's SDK server on this process, seen as its transport: requests come in with the HTTP
 * exchange that answers them; what the server sends goes to the exchange of the request it relates to, else
 * to the session's GET streams here.
 */
export class SessionInstance implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: Transport['onmessage'];
  readonly key: string;
  readonly #server: Server;
  readonly #sessions: SessionHost;
  /** The client's requests in flight here, by their id. */
  readonly #exchanges = new Map<RequestId, Exchange>();
  /** Server→client requests waiting for an answer: the id sent → the server's own id. */
  readonly #asked = new Map<string, RequestId>();
  #idleSince: number | undefined = Date.now();
  #closed = false;

  constructor(key: string, server: Server, sessions: SessionHost) {
    this.key = key;
    this.#server = server;
    this.#sessions = sessions;
  }

  /** Since when nothing is in flight (undefined while something is). */
  get idleSince(): number | undefined {
    return this.#exchanges.size === 0 && this.#asked.size === 0 ? this.#idleSince : undefined;
  }

  async start(): Promise<void> {}

  /** Makes this instance the session's: the client's `initialize` again, answered to nobody. */
  async replay(session: SealedSession): Promise<void> {
    const answered = new Promise<Message>((resolve) => {
      const sink = new Exchange(undefined, undefined);
      sink.onAnswer = resolve;
      this.#exchanges.set(REPLAY_ID, sink);
    });
    this.onmessage?.({
      jsonrpc: '2.0',
      id: REPLAY_ID,
      method: 'initialize',
      params: {
        protocolVersion: session.protocolVersion,
        capabilities: session.capabilities,
        clientInfo: session.clientInfo,
      },
    } as JSONRPCMessage);
    const answer = await answered;
    if (answer.error !== undefined) throw new Error('the session could not be made again');
    this.onmessage?.({ jsonrpc: '2.0', method: 'notifications/initialized' } as JSONRPCMessage);
  }

  /** A client request, answered on `exchange`. */
  request(message: Message, exchange: Exchange, authInfo: AuthInfo | undefined): void {
    const id = message.id as RequestId;
    if (this.#exchanges.has(id)) {
      exchange.answer(JSON.parse(rpcError(id, -32600, 'Invalid Request: this id is already in use')));
      return;
    }
    // Kept until the server answers, even when the client goes away meanwhile: a disconnection is not a
    // cancellation (MCP spec 2025-11-25, "Transports > Streamable HTTP"), and its cancellation must find it.
    this.#exchanges.set(id, exchange);
    this.onmessage?.(message as JSONRPCMessage, authInfo ? { authInfo } : undefined);
  }

  /** A client notification. */
  notify(message: Message, authInfo: AuthInfo | undefined): void {
    this.onmessage?.(message as JSONRPCMessage, authInfo ? { authInfo } : undefined);
  }

  /** A `notifications/cancelled` for a request in flight here: delivered; false when it is not here. */
  cancel(message: Message): boolean {
    const id = (message.params as { requestId?: RequestId } | undefined)?.requestId;
    if (id === undefined || !this.#exchanges.has(id)) return false;
    this.onmessage?.(message as JSONRPCMessage);
    return true;
  }

  /** The client's answer to a server request of this instance (its id as sent). */
  answer(message: Message): void {
    const sent = message.id;
    if (typeof sent !== 'string') return;
    const own = this.#asked.get(sent);
    if (own === undefined) return;
    this.#asked.delete(sent);
    this.#touch();
    this.onmessage?.({ ...message, id: own } as JSONRPCMessage);
  }

  async send(message: JSONRPCMessage, options?: TransportSendOptions): Promise<void> {
    if (this.#closed) return;
    const outgoing = message as Message;
    if (outgoing.method === undefined) {
      // The answer to a client request.
      const id = outgoing.id as RequestId;
      const exchange = this.#exchanges.get(id);
      if (!exchange) return;
      this.#exchanges.delete(id);
      this.#touch();
      exchange.answer(outgoing);
      return;
    }
    let sent = outgoing;
    if (outgoing.method === 'notifications/cancelled') {
      // The server gave up a request of its own (a question nobody answered in time): the client knows it
      // by the id it was sent with, and no answer is waited for any more.
      const params = (outgoing.params ?? {}) as Message;
      for (const [wire, own] of this.#asked)
        if (own === params.requestId) {
          this.#asked.delete(wire);
          this.#touch();
          sent = { ...outgoing, params: { ...params, requestId: wire } };
          break;
        }
    }
    if (outgoing.id !== undefined) {
      // A server request: its id tells whichever process gets the answer where to send it.
      const wire = this.#sessions.nextAskId();
      this.#asked.set(wire, outgoing.id as RequestId);
      sent = { ...outgoing, id: wire };
    }
    const related = options?.relatedRequestId;
    const exchange = related === undefined ? undefined : this.#exchanges.get(related);
    if (exchange?.open) exchange.event(sent);
    else this.#sessions.toStreams(this.key, sent as JSONRPCMessage);
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    for (const exchange of this.#exchanges.values()) exchange.end();
    this.#exchanges.clear();
    this.#asked.clear();
    await this.#server.close().catch(() => {});
    this.onclose?.();
  }

  #touch(): void {
    this.#idleSince = Date.now();
  }
}

/**
 * The HTTP response of one client request: a JSON body when the answer is all there is, an SSE stream once
 * the server sends something related first (a notification, a server request), which the answer then ends.
 */
export class Exchange {
  /** Headers added to the response (the session id). */
  headers: Record<string, string> = {};
  /** Called with the answer before it is written; returns more headers. */
  beforeAnswer: ((answer: Message) => Record<string, string>) | undefined;
  /** Told of the answer (a replayed handshake, which has no HTTP response). */
  onAnswer: ((answer: Message) => void) | undefined;
  readonly #res: ServerResponse | undefined;
  readonly #keepAliveMs: number;
  #sse = false;
  #keepAlive: NodeJS.Timeout | undefined;

  constructor(res: ServerResponse | undefined, keepAliveMs: number | undefined) {
    this.#res = res;
    this.#keepAliveMs = keepAliveMs ?? 15_000;
    res?.on('close', () => clearInterval(this.#keepAlive));
  }

  /** Whether the client is still there to be written to. */
  get open(): boolean {
    return this.#res !== undefined && !this.#res.writableEnded && !this.#res.destroyed;
  }

  event(message: Message): void {
    const res = this.#res;
    if (!res || !this.open) return;
    if (!this.#sse) {
      this.#sse = true;
      res.writeHead(200, { ...SSE_HEADERS, ...this.headers });
      this.#keepAlive = setInterval(() => res.write(': keepalive\n\n'), this.#keepAliveMs);
      this.#keepAlive.unref();
    }
    res.write(sseFrame(message));
  }

  answer(message: Message): void {
    this.onAnswer?.(message);
    const res = this.#res;
    if (!res || !this.open) return;
    const extra = this.beforeAnswer?.(message) ?? {};
    clearInterval(this.#keepAlive);
    if (this.#sse) {
      res.end(sseFrame(message));
      return;
    }
    const body = JSON.stringify(message);
    res.writeHead(200, {
      'content-type': 'application/json',
      'content-length': String(Buffer.byteLength(body)),
      ...this.headers,
      ...extra,
    });
    res.end(body);
  }

  /** Ends the response unanswered (the instance is closing). */
  end(): void {
    clearInterval(this.#keepAlive);
    const res = this.#res;
    if (!res || !this.open) return;
    if (!res.headersSent) res.writeHead(503, { 'content-type': 'application/json' });
    res.end();
  }
}

export function sseFrame(message: unknown): string {
  return `event: message\ndata: ${JSON.stringify(message)}\n\n`;
}

export function rpcError(id: unknown, code: number, message: string): string {
  return JSON.stringify({ jsonrpc: '2.0', error: { code, message }, id: id ?? null });
}
