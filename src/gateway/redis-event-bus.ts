/**
 * A `ServerEventBus` (the SDK server's change-event seam for `subscriptions/listen`, MCP spec 2026-07-28,
 * "Subscriptions") over Redis pub/sub, so that several gateway processes behind a load balancer act as one
 * server: a change one process publishes (`handler.notify.toolsChanged()` of `createMcpHandler`) reaches the
 * listen streams open on every process.
 *
 * An event is delivered to this process's listeners at once, as the SDK's in-memory bus does (so a process
 * keeps notifying its own streams while Redis is away), and published on the channel with this bus's origin
 * id; a bus drops what it receives with its own origin, so no listener gets an event twice. Pub/sub is
 * fire-and-forget: an event published while a process is disconnected never reaches it. So when the
 * subscriber connection comes back after a drop, the bus tells its listeners that the tool, prompt and
 * resource lists may have changed (a list-changed notification only makes a client list again); a
 * `notifications/resources/updated` missed meanwhile is lost.
 */
import { randomUUID } from 'node:crypto';
import type { ServerEvent, ServerEventBus } from '@modelcontextprotocol/server';
import {
  closeRedisConnections,
  openRedisConnections,
  type RedisConnections,
  RedisEventBusError,
  type RedisEventBusOperation,
  redisServerName,
} from './redis-connection.js';

export { RedisEventBusError, type RedisEventBusOperation } from './redis-connection.js';

/** Options of {@link createRedisEventBus}. */
export interface RedisEventBusOptions {
  /**
   * The Redis server: `redis://[user:password@]host[:port][/db]`, or `rediss://…` for TLS. The password is
   * used to authenticate and appears in no error or message.
   */
  url: string;
  /**
   * Prefix of the pub/sub channel, which is `<channelPrefix>events`. Gateways that serve different things
   * from one Redis use different prefixes; every process of one gateway must use the same.
   * @default 'agentwire:mcp:'
   */
  channelPrefix?: string;
  /**
   * Told of every failure after the bus exists: a {@link RedisEventBusError} for Redis (an outage: once,
   * when a connection drops, not again for each reconnect that fails while Redis is away; a failed publish;
   * a message on the channel that is not an event), or what a listener threw. Nothing is thrown into the
   * caller of `publish`, and no failure ends the bus. Default: ignored.
   */
  onError?: (error: Error) => void;
  /**
   * Told once an outage `onError` reported is over: both connections are back (and resubscribed). Once per
   * outage. Default: ignored.
   */
  onReconnect?: () => void;
  /** Bound on opening each connection, in milliseconds. @default 5000 */
  connectTimeoutMs?: number;
  /** Longest wait between two reconnect attempts, in milliseconds (they start at 50 ms and double). @default 2000 */
  maxReconnectDelayMs?: number;
  /**
   * After the subscriber connection comes back from a drop, deliver `tools_list_changed`,
   * `prompts_list_changed` and `resources_list_changed` to this process's listeners, since events published
   * meanwhile were missed. @default true
   */
  resyncOnReconnect?: boolean;
}

/** The default {@link RedisEventBusOptions.channelPrefix}. */
export const DEFAULT_REDIS_CHANNEL_PREFIX = 'agentwire:mcp:';

/** What goes on the channel: the event and the bus that published it. */
interface WireMessage {
  origin: string;
  event: ServerEvent;
}

const LIST_KINDS = new Set(['tools_list_changed', 'prompts_list_changed', 'resources_list_changed']);
const RESYNC_EVENTS: ServerEvent[] = [
  { kind: 'tools_list_changed' },
  { kind: 'prompts_list_changed' },
  { kind: 'resources_list_changed' },
];

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** The event in a channel message, or `undefined` when the message is not one this bus writes. */
function decode(message: string): WireMessage | undefined {
  let parsed: unknown;
  try {
    parsed = JSON.parse(message);
  } catch {
    return undefined;
  }
  if (!isRecord(parsed) || typeof parsed.origin !== 'string' || !isRecord(parsed.event)) return undefined;
  const { kind, uri, params } = parsed.event;
  if (params !== undefined && !isRecord(params)) return undefined;
  const extra = params === undefined ? {} : { params };
  if (typeof kind === 'string' && LIST_KINDS.has(kind)) {
    return { origin: parsed.origin, event: { kind, ...extra } as ServerEvent };
  }
  if (kind === 'resource_updated' && typeof uri === 'string') {
    return { origin: parsed.origin, event: { kind, uri, ...extra } };
  }
  return undefined;
}

/**
 * A `ServerEventBus` (of `@modelcontextprotocol/server`) shared by every process connected to one Redis
 * channel. Made by {@link createRedisEventBus}; pass it as `createMcpHandler`'s `bus` option, and `close()`
 * it when the server stops.
 */
export class RedisEventBus implements ServerEventBus {
  /** The pub/sub channel, `<channelPrefix>events`. */
  readonly channel: string;
  /** The Redis server, `host:port`. */
  readonly server: string;
  readonly #origin = randomUUID();
  readonly #listeners = new Set<(event: ServerEvent) => void>();
  readonly #connections: RedisConnections;
  readonly #onError: (error: Error) => void;
  #closed = false;

  private constructor(
    connections: RedisConnections,
    server: string,
    channel: string,
    onError: (error: Error) => void,
  ) {
    this.#connections = connections;
    this.server = server;
    this.channel = channel;
    this.#onError = onError;
  }

  /** Opens the connections and subscribes; see {@link createRedisEventBus}. */
  static async connect(options: RedisEventBusOptions): Promise<RedisEventBus> {
    const server = redisServerName(options.url);
    const channel = `${options.channelPrefix ?? DEFAULT_REDIS_CHANNEL_PREFIX}events`;
    const onError = options.onError ?? (() => {});
    const report = (operation: RedisEventBusOperation, cause: unknown) => {
      try {
        onError(new RedisEventBusError(operation, server, channel, { cause }));
      } catch {
        // The host's error callback failing must not end the bus either.
      }
    };
    // An outage is one failure, reported when it starts: while Redis is away, every reconnect of each
    // connection fails again (every 50 ms … maxReconnectDelayMs), which says nothing new.
    let down = false;
    const dropped = (cause: unknown) => {
      if (down) return;
      down = true;
      report('connection', cause);
    };
    let connections: RedisConnections;
    try {
      connections = await openRedisConnections(
        {
          url: options.url,
          connectTimeoutMs: options.connectTimeoutMs ?? 5_000,
          maxReconnectDelayMs: options.maxReconnectDelayMs ?? 2_000,
        },
        dropped,
      );
    } catch (cause) {
      throw new RedisEventBusError('connect', server, channel, { cause });
    }
    const bus = new RedisEventBus(connections, server, channel, (error) => {
      try {
        onError(error);
      } catch {
        // As above.
      }
    });
    try {
      await connections.subscriber.subscribe(channel, (message) => bus.#receive(message, report));
    } catch (cause) {
      closeRedisConnections(connections);
      throw new RedisEventBusError('connect', server, channel, { cause });
    }
    for (const client of [connections.publisher, connections.subscriber]) {
      client.on('ready', () => {
        if (!down || bus.#closed || !connections.publisher.isReady || !connections.subscriber.isReady) return;
        down = false;
        try {
          options.onReconnect?.();
        } catch {
          // As the error callback.
        }
      });
    }
    if (options.resyncOnReconnect ?? true) {
      let dropped = false;
      connections.subscriber.on('reconnecting', () => {
        dropped = true;
      });
      connections.subscriber.on('ready', () => {
        if (!dropped || bus.#closed) return;
        dropped = false;
        for (const event of RESYNC_EVENTS) bus.#deliver(event);
      });
    }
    return bus;
  }

  /** Whether both connections are up now (`false` while reconnecting and after `close()`). */
  get connected(): boolean {
    return !this.#closed && this.#connections.publisher.isReady && this.#connections.subscriber.isReady;
  }

  /** The number of listeners registered in this process. */
  get listenerCount(): number {
    return this.#listeners.size;
  }

  /**
   * Delivers `event` to this process's listeners now, and publishes it to the other processes. While Redis
   * is unreachable the publish waits in the client's queue (at most 10 000 commands; beyond, it fails and
   * `onError` gets a `publish` error) and goes out on reconnect; after `close()` the event stays in this
   * process.
   */
  publish(event: ServerEvent): void {
    this.#deliver(event);
    if (this.#closed) return;
    const message: WireMessage = { origin: this.#origin, event };
    this.#connections.publisher.publish(this.channel, JSON.stringify(message)).then(
      () => {},
      (cause: unknown) => {
        if (!this.#closed)
          this.#onError(new RedisEventBusError('publish', this.server, this.channel, { cause }));
      },
    );
  }

  /** Registers a listener for every event, this process's and the others'; returns an idempotent unsubscribe. */
  subscribe(listener: (event: ServerEvent) => void): () => void {
    const entry = (event: ServerEvent) => listener(event);
    this.#listeners.add(entry);
    return () => {
      this.#listeners.delete(entry);
    };
  }

  /**
   * Closes both Redis connections (their sockets and reconnect timers). Listeners stay registered and
   * `publish` keeps delivering within this process. Idempotent.
   */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    closeRedisConnections(this.#connections);
  }

  #receive(message: string, report: (operation: RedisEventBusOperation, cause: unknown) => void): void {
    const decoded = decode(message);
    if (decoded === undefined) {
      report('decode', new SyntaxError(`not an event message (${message.length} characters)`));
      return;
    }
    if (decoded.origin === this.#origin || this.#closed) return;
    this.#deliver(decoded.event);
  }

  #deliver(event: ServerEvent): void {
    for (const listener of this.#listeners) {
      try {
        listener(event);
      } catch (error) {
        this.#onError(error instanceof Error ? error : new Error(String(error)));
      }
    }
  }
}

/**
 * Connects a {@link RedisEventBus}: two connections to `options.url` (one publishes, one subscribes to
 * `<channelPrefix>events`). Rejects with a {@link RedisEventBusError} (`operation: 'connect'`, the client's
 * error as `cause`) when Redis cannot be reached within `connectTimeoutMs` or refuses the credentials, and
 * with a `TypeError` when `url` is not a `redis:`/`rediss:` URL; the URL's password is in neither.
 */
export function createRedisEventBus(options: RedisEventBusOptions): Promise<RedisEventBus> {
  return RedisEventBus.connect(options);
}
