/**
 * `subscriptions/listen` on the gateway's stdio connection (MCP spec 2026-07-28, "Subscriptions",
 * "Transports > stdio"). The MCP SDK's `serveStdio` serves listen requests itself, at the connection's
 * entry, so the gateway's handlers never see them; this transport sits between it and the stdio streams
 * and watches them go by, as the HTTP host watches its listen requests:
 * - a subscription's acknowledgement names the resource URIs it honours: those are followed at their
 *   upstreams (`follow`), and each upstream update is written on the connection stamped with that
 *   subscription's id, until the client cancels it, the server ends it, or the connection closes;
 * - past `maxSubscriptions` open subscriptions, a further listen is answered at once with the gateway's
 *   refusal (listen-limit.ts), which names the limit, and never reaches the SDK.
 */
import {
  isJSONRPCErrorResponse,
  isJSONRPCNotification,
  isJSONRPCRequest,
  isJSONRPCResultResponse,
  type JSONRPCMessage,
  type MessageExtraInfo,
  type RequestId,
  SUBSCRIPTION_ID_META_KEY,
  type Transport,
  type TransportSendOptions,
} from '@modelcontextprotocol/server';
import { filterUris, subscriptionLimitError } from './listen-limit.js';

/**
 * Follows `uris` at their upstreams while a subscription is open, calling `updated` for each update;
 * returns the function that lets them go.
 */
export type StdioListenFollower = (uris: string[], updated: (uri: string) => void) => () => void;

/** Options of {@link StdioListenTap}. */
export interface StdioListenTapOptions {
  /** Most subscriptions open at once on the connection. */
  maxSubscriptions: number;
  /** Follows a subscription's resource URIs; without it, none are followed. */
  follow?: StdioListenFollower | undefined;
}

/** A transport around the stdio one that follows the listen subscriptions through it; see the file header. */
export class StdioListenTap implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage, extra?: MessageExtraInfo) => void;
  readonly #inner: Transport;
  readonly #options: StdioListenTapOptions;
  // Open subscriptions, by listen request id: the release of what they follow, once acknowledged.
  readonly #open = new Map<RequestId, (() => void) | undefined>();

  constructor(inner: Transport, options: StdioListenTapOptions) {
    this.#inner = inner;
    this.#options = options;
  }

  async start(): Promise<void> {
    this.#inner.onmessage = (message, extra) => this.#inbound(message, extra);
    this.#inner.onerror = (error) => this.onerror?.(error);
    this.#inner.onclose = () => {
      this.#endAll();
      this.onclose?.();
    };
    await this.#inner.start();
  }

  send(message: JSONRPCMessage, options?: TransportSendOptions): Promise<void> {
    this.#outbound(message);
    return this.#inner.send(message, options);
  }

  setProtocolVersion = (version: string): void => {
    this.#inner.setProtocolVersion?.(version);
  };

  async close(): Promise<void> {
    this.#endAll();
    await this.#inner.close();
  }

  #inbound(message: JSONRPCMessage, extra?: MessageExtraInfo): void {
    if (isJSONRPCRequest(message) && message.method === 'subscriptions/listen') {
      const { maxSubscriptions } = this.#options;
      if (this.#open.size >= maxSubscriptions) {
        this.#write(subscriptionLimitError(message.id, maxSubscriptions));
        return;
      }
      this.#open.set(message.id, undefined);
    } else if (isJSONRPCNotification(message) && message.method === 'notifications/cancelled') {
      const id = (message.params as { requestId?: RequestId } | undefined)?.requestId;
      if (id !== undefined) this.#end(id);
    }
    this.onmessage?.(message, extra);
  }

  #outbound(message: JSONRPCMessage): void {
    if (isJSONRPCNotification(message) && message.method === 'notifications/subscriptions/acknowledged') {
      const params = message.params as
        | { notifications?: unknown; _meta?: Record<string, unknown> }
        | undefined;
      const id = params?._meta?.[SUBSCRIPTION_ID_META_KEY] as RequestId | undefined;
      const uris = filterUris(params?.notifications);
      const { follow } = this.#options;
      if (id === undefined || !this.#open.has(id) || uris.length === 0 || !follow) return;
      this.#open.get(id)?.();
      this.#open.set(
        id,
        follow(uris, (uri) => this.#updated(id, uri)),
      );
    } else if (
      (isJSONRPCResultResponse(message) || isJSONRPCErrorResponse(message)) &&
      message.id !== undefined
    ) {
      // The listen's own response ends it: a refusal, or the server's graceful end.
      this.#end(message.id);
    }
  }

  #updated(id: RequestId, uri: string): void {
    if (!this.#open.has(id)) return;
    this.#write({
      jsonrpc: '2.0',
      method: 'notifications/resources/updated',
      params: { uri, _meta: { [SUBSCRIPTION_ID_META_KEY]: id } },
    });
  }

  #write(message: JSONRPCMessage): void {
    this.#inner.send(message).catch((error: unknown) => {
      // The connection is closing: it has nobody left to tell.
      this.onerror?.(error instanceof Error ? error : new Error(String(error)));
    });
  }

  #end(id: RequestId): void {
    if (!this.#open.has(id)) return;
    const release = this.#open.get(id);
    this.#open.delete(id);
    release?.();
  }

  #endAll(): void {
    for (const id of [...this.#open.keys()]) this.#end(id);
  }
}
