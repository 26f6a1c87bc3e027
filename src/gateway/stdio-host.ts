/**
 * The gateway over stdio (MCP spec 2026-07-28, "Transports > stdio"): the MCP SDK's `serveStdio`, which
 * pins one instance from the factory per connection, in the era the client opened with (a 2026-07-28
 * `server/discover`, or the 2025 `initialize`). That pinned instance delivers the gateway's change
 * notifications itself: as `subscriptions/listen` notifications in 2026-07-28, as plain `list_changed`
 * notifications in the 2025 era.
 *
 * The framing is the gateway's own (stdio-framing.ts), and between it and `serveStdio` sits the fast path of
 * `tools/call` (fast-call.ts): each line read is offered to it first, and whatever it does not take reaches
 * the SDK as before.
 */
import type { Readable, Writable } from 'node:stream';
import type { JSONRPCMessage, Server, Transport } from '@modelcontextprotocol/server';
import { serveStdio } from '@modelcontextprotocol/server/stdio';
import { FastToolCalls } from './fast-call.js';
import { type GatewayRoutes, gatewayServerFactory } from './routing.js';
import { GatewayStdioWire } from './stdio-framing.js';
import { type StdioListenFollower, StdioListenTap } from './stdio-listen.js';

/** Streams of the stdio host. */
export interface MCPGatewayStdioOptions {
  /** Where requests come from. Default `process.stdin`. */
  stdin?: Readable;
  /** Where answers go. Default `process.stdout`. */
  stdout?: Writable;
}

/** A served stdio connection. */
export interface MCPGatewayStdioHost {
  /** Ends the connection: its instance is closed, then the transport. Idempotent. */
  close(): Promise<void>;
  /** Resolves when the client has ended the connection (end of `stdin`). */
  readonly ended: Promise<void>;
}

/** Serves one stdio connection with the gateway's handlers (`routes`). */
export function serveGatewayStdio(
  routes: GatewayRoutes,
  options: MCPGatewayStdioOptions & {
    maxSubscriptions: number;
    onerror?: (error: Error) => void;
    follow?: StdioListenFollower;
  },
): MCPGatewayStdioHost {
  const stdin = options.stdin ?? process.stdin;
  const ended = new Promise<void>((resolve) => {
    stdin.once('end', resolve);
    stdin.once('close', resolve);
  });
  const fast = new FastPathTransport(stdin, options.stdout ?? process.stdout, routes);
  // Listen subscriptions' resource URIs followed upstream, and the subscription bound told (stdio-listen.ts).
  const { maxSubscriptions, follow } = options;
  const transport = new StdioListenTap(fast, { maxSubscriptions, follow });
  const handle = serveStdio(gatewayServerFactory(fast.routes), {
    transport,
    maxSubscriptions: options.maxSubscriptions,
    ...(options.onerror && { onerror: options.onerror }),
  });
  let closing: Promise<void> | undefined;
  return {
    ended,
    close: () => {
      closing ??= handle.close().catch(() => {});
      return closing;
    },
  };
}

/**
 * The stdio wire with the fast path in front: `serveStdio` sets this one's handlers and sees every message
 * the fast path does not take, and every answer passes through its `send`.
 */
class FastPathTransport implements Transport {
  onclose?: Transport['onclose'];
  onerror?: Transport['onerror'];
  onmessage?: Transport['onmessage'];
  readonly routes: GatewayRoutes;
  readonly #wire: GatewayStdioWire;
  readonly #fast: FastToolCalls;

  constructor(stdin: Readable, stdout: Writable, routes: GatewayRoutes) {
    this.#wire = new GatewayStdioWire(stdin, stdout, (value) => this.#fast.take(value));
    this.#fast = new FastToolCalls(routes, {
      toSdk: (message) => this.onmessage?.(message),
      send: (message) => this.send(message),
    });
    this.routes = {
      ...routes,
      track: (server: Server) => {
        this.#fast.track(server);
        routes.track?.(server);
      },
      settledCall: (id, server) => this.#fast.settled(id, server),
    };
  }

  start(): Promise<void> {
    this.#wire.onmessage = (message: JSONRPCMessage) => {
      if (!this.#fast.cancelled(message)) this.onmessage?.(message);
    };
    this.#wire.onerror = (error) => this.onerror?.(error);
    this.#wire.onclose = () => {
      this.#fast.close();
      this.onclose?.();
    };
    return this.#wire.start();
  }

  send(message: JSONRPCMessage): Promise<void> {
    this.#fast.sent(message);
    return this.#wire.send(message);
  }

  close(): Promise<void> {
    return this.#wire.close();
  }
}
