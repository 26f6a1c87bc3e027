/**
 * The Redis side of {@link RedisEventBus}: the two connections a pub/sub bus needs (Redis puts a connection
 * that subscribes into subscriber mode, where it can no longer PUBLISH), opened with the official Redis
 * client for Node.js (`@redis/client`, imported on first use so that code which never serves pays nothing for
 * it), its reconnection, and the bus's typed error, which names the server by host and port only: a Redis URL
 * may carry a password (`redis://:secret@host`), and no error, event or message ever shows it.
 */
import type { RedisClientType } from '@redis/client';

/** What the bus was doing when a Redis failure happened. */
export type RedisEventBusOperation =
  /** Opening the connections (`createRedisEventBus`): nothing was connected, no bus exists. */
  | 'connect'
  /** An open connection failed (dropped, refused while reconnecting); the client is reconnecting. */
  | 'connection'
  /** Publishing an event: this process's listeners had it, other processes may not. */
  | 'publish'
  /** A message on the channel that is not an event this bus writes; it was dropped. */
  | 'decode';

/**
 * A failure of a {@link RedisEventBus}. `server` is `host:port` (never the URL's user or password), `cause`
 * the client library's error.
 */
export class RedisEventBusError extends Error {
  override readonly name = 'RedisEventBusError';
  readonly operation: RedisEventBusOperation;
  /** The Redis server, `host:port`. */
  readonly server: string;
  /** The pub/sub channel the bus uses. */
  readonly channel: string;

  constructor(
    operation: RedisEventBusOperation,
    server: string,
    channel: string,
    options?: { cause?: unknown },
  ) {
    super(redisErrorMessage(operation, server, channel), options);
    this.operation = operation;
    this.server = server;
    this.channel = channel;
  }
}

const WHAT: Record<RedisEventBusOperation, string> = {
  connect: 'could not connect to Redis',
  connection: 'lost its Redis connection (reconnecting)',
  publish: 'could not publish an event to Redis',
  decode: 'dropped a message that is not an event',
};

function redisErrorMessage(operation: RedisEventBusOperation, server: string, channel: string): string {
  return `Redis event bus ${WHAT[operation]} (server ${server}, channel ${channel})`;
}

/**
 * The server of a Redis URL as errors name it: `host:port` (port 6379 when the URL has none). Throws a
 * `TypeError` naming only the scheme rule when `url` is not a `redis:` or `rediss:` URL (the text itself
 * is not repeated: it may hold a password).
 */
export function redisServerName(url: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new TypeError('The Redis URL is not a URL (expected redis://[user:password@]host[:port][/db])');
  }
  if (parsed.protocol !== 'redis:' && parsed.protocol !== 'rediss:') {
    throw new TypeError(`The Redis URL's scheme is ${parsed.protocol} (expected redis: or rediss:)`);
  }
  return `${parsed.hostname}:${parsed.port === '' ? '6379' : parsed.port}`;
}

/** Most commands a connection holds while it reconnects. */
export const MAX_QUEUED_COMMANDS = 10_000;

/** The bus's two connections. */
export interface RedisConnections {
  /** Publishes; never subscribes. */
  readonly publisher: RedisClientType;
  /** Subscribes (subscriber mode); never publishes. */
  readonly subscriber: RedisClientType;
}

/** How the connections are opened. */
export interface RedisConnectionOptions {
  url: string;
  connectTimeoutMs: number;
  maxReconnectDelayMs: number;
}

/**
 * Opens both connections. The first connect fails at once (no retry: a wrong URL or a Redis that is not up
 * should stop a starting gateway, not hang it); once connected, a dropped connection is retried after
 * 50 ms, 100 ms, 200 ms, … up to `maxReconnectDelayMs`, forever, and node-redis re-subscribes on its own.
 * `onError` gets each failure of an open connection. Rejects with the library's error after closing what was opened.
 */
export async function openRedisConnections(
  options: RedisConnectionOptions,
  onError: (cause: unknown) => void,
): Promise<RedisConnections> {
  const { createClient } = await import('@redis/client');
  let opened = false;
  const reconnectStrategy = (retries: number, cause: Error): number | Error =>
    opened ? Math.min(50 * 2 ** Math.min(retries, 16), options.maxReconnectDelayMs) : cause;
  const publisher: RedisClientType = createClient({
    url: options.url,
    socket: { connectTimeout: options.connectTimeoutMs, reconnectStrategy },
    // While reconnecting, publishes wait in the client's queue and go out on reconnect; the bound keeps a
    // long outage from growing it without end (a publish beyond it fails, and is reported).
    commandsQueueMaxLength: MAX_QUEUED_COMMANDS,
  });
  const subscriber = publisher.duplicate();
  // Before the first connect, failures reject the connect itself; reporting them too would say it twice.
  for (const client of [publisher, subscriber]) client.on('error', (cause) => opened && onError(cause));
  try {
    await Promise.all([publisher.connect(), subscriber.connect()]);
  } catch (error) {
    closeRedisConnections({ publisher, subscriber });
    throw error;
  }
  opened = true;
  return { publisher, subscriber };
}

/**
 * Ends both connections now (pending commands are dropped: a bus that closes has no one left to tell), and
 * with them their sockets and reconnect timers.
 */
export function closeRedisConnections(connections: RedisConnections): void {
  for (const client of [connections.publisher, connections.subscriber]) {
    if (client.isOpen) client.destroy();
  }
}
