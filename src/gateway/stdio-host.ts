/**
 * The gateway over stdio (MCP spec 2026-07-28, "Transports > stdio"): the MCP SDK's `serveStdio`, which
 * pins one instance from the factory per connection, in the era the client opened with (a 2026-07-28
 * `server/discover`, or the 2025 `initialize`). That pinned instance delivers the gateway's change
 * notifications itself: as `subscriptions/listen` notifications in 2026-07-28, as plain `list_changed`
 * notifications in the 2025 era.
 */
import type { Readable, Writable } from 'node:stream';
import type { McpServerFactory } from '@modelcontextprotocol/server';
import { StdioServerTransport, serveStdio } from '@modelcontextprotocol/server/stdio';
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

/** Serves one stdio connection from `factory`. */
export function serveGatewayStdio(
  factory: McpServerFactory,
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
  // Listen subscriptions' resource URIs followed upstream, and the subscription bound told (stdio-listen.ts).
  const { maxSubscriptions, follow } = options;
  const transport = new StdioListenTap(new StdioServerTransport(stdin, options.stdout), {
    maxSubscriptions,
    follow,
  });
  const handle = serveStdio(factory, {
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
