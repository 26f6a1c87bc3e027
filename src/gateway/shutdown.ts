/**
 * The HTTP host's graceful shutdown. On `close()` the host stops taking requests (new ones are answered
 * 503 with a JSON-RPC error naming the shutdown), lets the requests in flight finish for up to
 * `shutdownGraceMs`, then ends the rest: each of those is answered with a JSON-RPC error naming the
 * shutdown (-32603, `data: { kind: 'shutdown', shutdownGraceMs }`) where the MCP SDK's handler would
 * answer a bare HTTP 499, so a client learns why its request has no result (MCP spec 2026-07-28,
 * "Transports > Streamable HTTP": a request is answered with a JSON-RPC response or error). Open
 * `subscriptions/listen` streams are not waited for: they end with the SDK's graceful completion result.
 */
import type { JSONRPCErrorResponse, RequestId } from '@modelcontextprotocol/server';

/** Default of `shutdownGraceMs`: how long requests in flight may take to finish once the host closes. */
export const DEFAULT_SHUTDOWN_GRACE_MS = 5_000;

/** `data` of a request ended by the shutdown. */
export interface MCPGatewayShutdownData {
  kind: 'shutdown';
  /** The grace period requests had to finish, in ms. */
  shutdownGraceMs: number;
}

/** Requests in flight, and whether the host is draining them. */
export class RequestDrain {
  #inFlight = 0;
  #draining = false;
  #idle: (() => void) | undefined;

  /** True once {@link drain} has been called: new requests are refused. */
  get draining(): boolean {
    return this.#draining;
  }

  /** A request starts; call the returned function (idempotent) when it is over. */
  enter(): () => void {
    this.#inFlight += 1;
    let left = false;
    return () => {
      if (left) return;
      left = true;
      this.#inFlight -= 1;
      if (this.#inFlight === 0) this.#idle?.();
    };
  }

  /** Refuses new requests and resolves once none is in flight, or after `graceMs`. */
  drain(graceMs: number): Promise<void> {
    this.#draining = true;
    if (this.#inFlight === 0) return Promise.resolve();
    return new Promise<void>((resolve) => {
      const timer = setTimeout(done, graceMs);
      function done() {
        clearTimeout(timer);
        resolve();
      }
      this.#idle = done;
    });
  }
}

/** The JSON-RPC error for request `id` that the shutdown ended (or refused, `id` null). */
export function shutdownError(id: RequestId | null, shutdownGraceMs: number): JSONRPCErrorResponse {
  const data: MCPGatewayShutdownData = { kind: 'shutdown', shutdownGraceMs };
  return {
    jsonrpc: '2.0',
    id: id as RequestId,
    error: {
      code: -32603,
      message:
        id === null
          ? 'The gateway is shutting down and takes no new requests'
          : `The gateway shut down before the request finished (it had ${shutdownGraceMs} ms to)`,
      data,
    },
  };
}

/** The id of the JSON-RPC request in `body`, or null. */
export function requestId(body: Buffer): RequestId | null {
  try {
    const { id } = JSON.parse(body.toString('utf8')) as { id?: unknown };
    return typeof id === 'string' || typeof id === 'number' ? id : null;
  } catch {
    return null;
  }
}
