/**
 * `MCPClientOptions.onWireMessage`: every JSON-RPC message of a connection, as it is sent and as it is
 * received, for tracing (the CLI's `--verbose`). The transport is wrapped only when the option is given, so
 * without it nothing changes on the wire or in the code path.
 */
import type { JSONRPCMessage } from '@modelcontextprotocol/client';
import type { AgentwireTransport } from '../transports/transport.js';

/** One JSON-RPC message seen by `onWireMessage`. */
export interface MCPWireMessage {
  /** The client's name for the server. */
  server: string;
  /** `send`: to the server; `receive`: from it. */
  direction: 'send' | 'receive';
  /** The message as sent or received (MCP spec 2025-11-25, "Basic > Messages"); do not modify it. */
  message: JSONRPCMessage;
}

type Deliver = NonNullable<AgentwireTransport['onmessage']>;

/**
 * `transport` with every message it sends and delivers passed to `tap` first. A listener that throws is
 * ignored: tracing never breaks the connection. Every other member is the transport's own.
 */
export function tapTransport(
  transport: AgentwireTransport,
  server: string,
  tap: (message: MCPWireMessage) => void,
): AgentwireTransport {
  const see = (direction: MCPWireMessage['direction'], message: JSONRPCMessage) => {
    try {
      tap({ server, direction, message });
    } catch {
      // A tracer's failure is not the connection's.
    }
  };
  let handler: Deliver | undefined;
  // The transport's own `send`, taken now: a wrapper installed later through the proxy (the session's span
  // bookkeeping, say) calls the proxy's `send`, which must not lead back into that wrapper.
  const inner = transport.send.bind(transport);
  const tapped: AgentwireTransport['send'] = (message, options) => {
    see('send', message);
    return inner(message, options);
  };
  let send = tapped;
  return new Proxy(transport, {
    get(target, key) {
      if (key === 'send') return send;
      if (key === 'onmessage') return handler;
      const value: unknown = Reflect.get(target, key, target);
      // Methods run on the transport itself: its private fields are not the proxy's.
      return typeof value === 'function' ? value.bind(target) : value;
    },
    set(target, key, value) {
      if (key === 'send') {
        send = value as AgentwireTransport['send'];
        return true;
      }
      if (key !== 'onmessage') return Reflect.set(target, key, value, target);
      handler = value as Deliver | undefined;
      const deliver = handler;
      target.onmessage = deliver
        ? (message, extra) => {
            see('receive', message);
            deliver(message, extra);
          }
        : undefined;
      return true;
    },
  });
}
