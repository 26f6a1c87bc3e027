/**
 * `MCPClientOptions.onWireMessage`: every JSON-RPC message of a connection, as it is sent and as it is
 * received, for tracing (the CLI's `--verbose`). The transport is wrapped only when the option is given, so
 * without it nothing changes on the wire or in the code path.
 */
import type { JSONRPCMessage } from '@modelcontextprotocol/client';
import { isRecord } from '../../core/json.js';
import { MCPCallError } from '../protocol/errors.js';
import type { AgentwireTransport } from '../transports/transport.js';

/** One JSON-RPC message seen by `onWireMessage`. */
export interface MCPWireMessage {
  /** The client's name for the server. */
  server: string;
  /**
   * `send`: to the server; `receive`: from it; `fail`: a request of ours that the transport failed without a
   * response (over HTTP an answer with an error status, or one that held no JSON-RPC response; over stdio
   * the `server/discover` probe unanswered within its bound): `message` is that request, `failure` says what
   * came instead.
   */
  direction: 'send' | 'receive' | 'fail';
  /** The message as sent or received (MCP spec 2025-11-25, "Basic > Messages"); do not modify it. */
  message: JSONRPCMessage;
  /**
   * With `fail`: what came instead of a response, in a few words (`HTTP 500, error -32603`, `HTTP 404`,
   * `the server ended the response stream before the response`, `no answer within 5000 ms`).
   */
  failure?: string;
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
    const sent = inner(message, options);
    if (!('method' in message && 'id' in message)) return sent;
    return sent.catch((error: unknown) => {
      seeFailure(message, failureText(error));
      throw error;
    });
  };
  const seeFailure = (message: JSONRPCMessage, failure: string) => {
    try {
      tap({ server, direction: 'fail', message, failure });
    } catch {
      // As in `see`.
    }
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

/**
 * A failed request's {@link MCPWireMessage.failure}: for an HTTP error status, the status and the JSON-RPC
 * error code its body held, if any (`HTTP 500, error -32603`); else the failure's reason.
 */
export function failureText(error: unknown): string {
  if (!(error instanceof MCPCallError)) return error instanceof Error ? error.message : String(error);
  const status = error.status;
  if (status === undefined || (status >= 200 && status < 300)) return error.reason;
  const code = error.code ?? errorCodeIn(error.body);
  return code === undefined ? `HTTP ${status}` : `HTTP ${status}, error ${code}`;
}

/** The `error.code` of a JSON-RPC error response in `body`, if it is one. */
function errorCodeIn(body: string | undefined): number | undefined {
  if (body === undefined) return undefined;
  try {
    const parsed: unknown = JSON.parse(body);
    const code = isRecord(parsed) && isRecord(parsed.error) ? parsed.error.code : undefined;
    return typeof code === 'number' ? code : undefined;
  } catch {
    return undefined;
  }
}
