/**
 * The gateway over Streamable HTTP (MCP spec 2026-07-28, "Transports > Streamable HTTP"): a `node:http`
 * server in front of the MCP SDK's `createMcpHandler`, which serves 2026-07-28 requests and, statelessly,
 * 2025-era ones from the same factory. The endpoint is `/mcp`; `GET /status` answers the status document.
 * Every request passes the access check first (access.ts), and bodies over `maxRequestBodyBytes` are
 * answered 413 before they are parsed.
 */
import {
  createServer,
  type Server as HttpServer,
  type IncomingMessage,
  type ServerResponse,
} from 'node:http';
import type { AddressInfo } from 'node:net';
import { Readable } from 'node:stream';
import type { McpHttpHandler, RequestId } from '@modelcontextprotocol/server';
import type { MCPGatewayAccessCheck } from './access.js';
import { AccessCache } from './access-cache.js';
import type { HttpFastCalls } from './http-fast-call.js';
import { isInitializeBody, type LegacySessions } from './legacy-sessions.js';
import { filterUris, subscriptionLimitError } from './listen-limit.js';
import { DEFAULT_SHUTDOWN_GRACE_MS, RequestDrain, requestId, shutdownError } from './shutdown.js';

/** Where the HTTP host listens. */
export interface MCPGatewayListenOptions {
  /** TCP port; 0 picks a free one. Default 0. */
  port?: number;
  /** Interface to bind. Default `'127.0.0.1'` (loopback only). */
  host?: string;
  /**
   * Requests wait for this before they are served (the port is bound at once): lets a host bind its
   * address first, so a taken port is told at once, and connect the upstreams after. Default: none.
   */
  ready?: Promise<unknown>;
  /**
   * On `close()`, how long requests in flight may take to finish, in ms; those still running then are
   * answered with a JSON-RPC error naming the shutdown (shutdown.ts). Default 5 000.
   */
  shutdownGraceMs?: number;
}

/** A listening HTTP host. */
export interface MCPGatewayHttpHost {
  /** `http://<host>:<port>/mcp`. */
  readonly url: string;
  /** The bound port. */
  readonly port: number;
  /**
   * Stops accepting, lets the requests in flight finish for up to `shutdownGraceMs` (then answers them with
   * a JSON-RPC error naming the shutdown), ends listen streams and connections, and closes the port.
   * Idempotent.
   */
  close(): Promise<void>;
}

/** What the host serves. */
export interface HttpHostRoutes {
  handler: McpHttpHandler;
  access: MCPGatewayAccessCheck;
  /** Documents served to anyone, before the access check (the protected resource metadata; access.ts). */
  published?: (path: string) => Response | undefined;
  status: () => unknown;
  maxRequestBodyBytes: number;
  /**
   * Told of a `subscriptions/listen` stream's `resourceSubscriptions` as it opens; the returned function is
   * called when the stream closes.
   */
  onListen?: (uris: string[]) => () => void;
  /**
   * Most `subscriptions/listen` streams open at once; a further listen is answered with the gateway's
   * refusal, which names the limit (listen-limit.ts). Default: only the MCP SDK handler's own bound.
   */
  maxSubscriptions?: number;
  /**
   * Sessions for 2025-era clients (legacy-sessions.ts): an `initialize` POST and every request carrying
   * `Mcp-Session-Id` go there. Without it, 2025-era requests are served statelessly by the SDK's handler.
   */
  sessions?: LegacySessions;
  /** The fast path of 2026-07-28 `tools/call` (http-fast-call.ts); without it, the SDK serves every call. */
  fast?: HttpFastCalls;
}

/**
 * Starts listening.
 * @throws the `listen` error (`EADDRINUSE`, `EACCES`, …) when the port cannot be bound.
 */
export async function listenHttp(
  routes: HttpHostRoutes,
  options: MCPGatewayListenOptions = {},
): Promise<MCPGatewayHttpHost> {
  const { ready } = options;
  const graceMs = options.shutdownGraceMs ?? DEFAULT_SHUTDOWN_GRACE_MS;
  const listens = { open: 0, drain: new RequestDrain(), graceMs, grants: new AccessCache() };
  const server = createServer((req, res) => {
    (ready ? ready.then(() => serve(routes, req, res, listens)) : serve(routes, req, res, listens)).catch(
      () => {
        // Only a write to a socket already gone can fail here; the exchange is over either way.
        if (!res.headersSent) res.writeHead(500);
        res.end();
      },
    );
  });
  const host = options.host ?? '127.0.0.1';
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;
  const shown = host.includes(':') ? `[${host}]` : host;
  let closing: Promise<void> | undefined;
  return {
    url: `http://${shown}:${port}/mcp`,
    port,
    close: () => {
      closing ??= closeHost(server, routes, listens);
      return closing;
    },
  };
}

async function closeHost(server: HttpServer, routes: HttpHostRoutes, state: HostState): Promise<void> {
  const closed = new Promise<void>((resolve) => server.close(() => resolve()));
  server.closeIdleConnections();
  await state.drain.drain(state.graceMs);
  await routes.handler.close().catch(() => {});
  await routes.sessions?.close().catch(() => {});
  server.closeAllConnections();
  await closed;
}

async function serve(
  routes: HttpHostRoutes,
  req: IncomingMessage,
  res: ServerResponse,
  state: HostState,
): Promise<void> {
  if (state.drain.draining) {
    res.writeHead(503, { 'content-type': 'application/json', connection: 'close' });
    return void res.end(JSON.stringify(shutdownError(null, state.graceMs)));
  }
  const leave = state.drain.enter();
  res.on('close', leave);
  // The usual request names the endpoint as it is: no URL parsed for it.
  const path = req.url === '/mcp' ? '/mcp' : new URL(req.url ?? '/', 'http://gateway').pathname;
  if (path !== '/mcp' && path !== '/status') {
    const published = req.method === 'GET' ? routes.published?.(path) : undefined;
    return published ? write(published, res) : void res.writeHead(404).end();
  }
  const aborted = new AbortController();
  res.on('close', () => {
    if (!res.writableFinished) aborted.abort();
  });
  const body = await readBody(req, routes.maxRequestBodyBytes);
  if (body === 'too_large') {
    res.writeHead(413, { 'content-type': 'application/json', connection: 'close' });
    return void res.end(JSON.stringify({ error: 'request body too large' }));
  }
  let request: Request | undefined;
  let access = state.grants.get(req.headers);
  if (access === undefined) {
    request = toRequest(req, body, aborted.signal);
    const verdict = await routes.access(request);
    if (verdict instanceof Response) return write(verdict, res);
    state.grants.set(req.headers, verdict);
    access = verdict;
  }
  if (path === '/status') {
    if (req.method !== 'GET') return void res.writeHead(405, { allow: 'GET' }).end();
    res.writeHead(200, { 'content-type': 'application/json' });
    return void res.end(JSON.stringify(routes.status()));
  }
  const sessionId = req.headers['mcp-session-id'];
  if (
    routes.sessions &&
    (typeof sessionId === 'string' || (req.method === 'POST' && isInitializeBody(body)))
  ) {
    // A GET stream lasts until it is closed: the shutdown does not wait for it.
    if (req.method === 'GET') leave();
    return routes.sessions.serve(
      req,
      res,
      body,
      access,
      typeof sessionId === 'string' ? sessionId : undefined,
    );
  }
  const listen = listenRequest(body);
  if (listen && routes.maxSubscriptions !== undefined) {
    if (state.open >= routes.maxSubscriptions) {
      const refusal = JSON.stringify(subscriptionLimitError(listen.id, routes.maxSubscriptions));
      return void res.writeHead(200, { 'content-type': 'application/json' }).end(refusal);
    }
    state.open += 1;
    res.on('close', () => {
      state.open -= 1;
    });
  }
  // A listen stream lasts until it is closed: the shutdown does not wait for it.
  if (listen) leave();
  const release = listen && listen.uris.length > 0 ? routes.onListen?.(listen.uris) : undefined;
  if (release) res.on('close', release);
  const decision =
    routes.fast && req.method === 'POST' && path === '/mcp'
      ? routes.fast.decide(body, req.headers, access)
      : { kind: 'pass' as const };
  if (decision.kind === 'take') {
    const outcome = await decision.run(aborted.signal);
    if (outcome.kind === 'write') {
      if (aborted.signal.aborted) return;
      const headers = { ...outcome.headers, 'content-length': String(Buffer.byteLength(outcome.body)) };
      return void res.writeHead(outcome.status, headers).end(outcome.body);
    }
    // A cancelled call (the client went away) is answered to nobody, as the SDK does.
    if (aborted.signal.aborted) return;
    request ??= toRequest(req, body, aborted.signal);
    routes.fast?.handOver(request, undefined, outcome.outcome);
  } else if (decision.kind === 'learn') {
    request ??= toRequest(req, body, aborted.signal);
    routes.fast?.handOver(request, decision.key);
  }
  request ??= toRequest(req, body, aborted.signal);
  const response = await routes.handler.fetch(request, { authInfo: access });
  routes.fast?.answered(request, response);
  // The SDK answers 499 for an exchange it ended: when the shutdown did, the client is told so.
  if (response.status === 499 && state.drain.draining) {
    const ended = JSON.stringify(shutdownError(requestId(body), state.graceMs));
    return void res.writeHead(200, { 'content-type': 'application/json' }).end(ended);
  }
  return write(response, res);
}

/** The host's counts: listen streams open, requests in flight (for the shutdown); the access grants kept. */
interface HostState {
  open: number;
  grants: AccessCache;
  drain: RequestDrain;
  graceMs: number;
}

/**
 * The id and `resourceSubscriptions` of a `subscriptions/listen` request (MCP spec 2026-07-28,
 * "Subscriptions"), or undefined for any other body. The SDK's handler still parses and checks the request
 * itself: this only learns which URIs to follow at their upstreams, and counts the streams.
 */
function listenRequest(body: Buffer): { id: RequestId; uris: string[] } | undefined {
  // Cheap test first: only a listen request is parsed twice.
  if (!body.includes('subscriptions/listen')) return undefined;
  let message: unknown;
  try {
    message = JSON.parse(body.toString('utf8'));
  } catch {
    return undefined;
  }
  const { method, id, params } = (message ?? {}) as {
    method?: unknown;
    id?: unknown;
    params?: { notifications?: unknown };
  };
  if (method !== 'subscriptions/listen' || (typeof id !== 'string' && typeof id !== 'number'))
    return undefined;
  return { id, uris: filterUris(params?.notifications) };
}

/** The body, or `'too_large'` once it passes `max` bytes (the rest is not read). */
async function readBody(req: IncomingMessage, max: number): Promise<Buffer | 'too_large'> {
  const declared = Number(req.headers['content-length']);
  if (Number.isFinite(declared) && declared > max) return 'too_large';
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > max) return 'too_large';
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks);
}

function toRequest(req: IncomingMessage, body: Buffer, signal: AbortSignal): Request {
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (value === undefined) continue;
    for (const one of Array.isArray(value) ? value : [value]) headers.append(name, one);
  }
  const method = req.method ?? 'GET';
  const hasBody = method !== 'GET' && method !== 'HEAD' && body.length > 0;
  // The Host header is checked by the access check; the URL's own host only has to parse.
  return new Request(`http://${req.headers.host ?? 'gateway'}${req.url ?? '/'}`, {
    method,
    headers,
    signal,
    ...(hasBody && { body }),
  });
}

/** Writes a web `Response` to `res`: a JSON body at once, an SSE body streamed (it stays open until it ends). */
async function write(response: Response, res: ServerResponse): Promise<void> {
  const headers: Record<string, string> = {};
  response.headers.forEach((value, name) => {
    headers[name] = value;
  });
  if (!response.body) return void res.writeHead(response.status, headers).end();
  if (!headers['content-type']?.startsWith('text/event-stream')) {
    // A JSON answer is complete once the handler returns it: one write with its length, rather than a
    // chunked stream (head, chunk, terminator), costs a single syscall and wake-up of the client per call.
    const body = Buffer.from(await response.arrayBuffer());
    headers['content-length'] = String(body.length);
    return void res.writeHead(response.status, headers).end(body);
  }
  res.writeHead(response.status, headers);
  const stream = Readable.fromWeb(response.body as import('node:stream/web').ReadableStream<Uint8Array>);
  res.on('close', () => stream.destroy());
  stream.on('error', () => res.destroy());
  stream.pipe(res);
}
