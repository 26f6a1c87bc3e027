/**
 * The processes of one gateway over Redis pub/sub (cluster.ts): each process subscribes to a channel of its
 * own, `<prefix>process:<id>`, and to `<prefix>processes`, which every process hears. A send is one PUBLISH
 * to the target's channel, whose reply (the number of subscribers that got it) tells at once whether the
 * process is still there: 0 means it has ended, and the caller treats what it held as lost. `alive` asks
 * Redis the same (`PUBSUB NUMSUB`). Delivery is at most once, as pub/sub is; the messages are small and few
 * (answers to server requests, cancellations, `input_required` retries), never the calls themselves.
 */
import type { ClusterMessage, GatewayCluster } from './cluster.js';
import { newProcessId } from './cluster.js';
import {
  closeRedisConnections,
  openRedisConnections,
  type RedisConnections,
  redisServerName,
} from './redis-connection.js';

/** Options of {@link createRedisCluster}. */
export interface RedisClusterOptions {
  /** The Redis server (`redis://…` / `rediss://…`); its password is never shown. */
  url: string;
  /** Prefix of the channels; every process of one gateway must use the same. @default 'agentwire:mcp:' */
  channelPrefix?: string;
  /** Told of Redis failures after the connect (dropped connection, failed publish). */
  onError?: (error: Error) => void;
  /** Bound on opening each connection, in ms. @default 5000 */
  connectTimeoutMs?: number;
}

/** Connects the two connections and subscribes; rejects when Redis cannot be reached. */
export async function createRedisCluster(options: RedisClusterOptions): Promise<GatewayCluster> {
  const prefix = options.channelPrefix ?? 'agentwire:mcp:';
  const server = redisServerName(options.url);
  const onError = options.onError ?? (() => {});
  const id = newProcessId();
  const own = `${prefix}process:${id}`;
  const all = `${prefix}processes`;
  const connections: RedisConnections = await openRedisConnections(
    { url: options.url, connectTimeoutMs: options.connectTimeoutMs ?? 5_000, maxReconnectDelayMs: 2_000 },
    (cause) => onError(new Error(`gateway cluster: Redis at ${server}: ${describe(cause)}`, { cause })),
  );
  let receiver: (message: ClusterMessage) => void = () => {};
  let closed = false;
  const receive = (raw: string) => {
    let message: unknown;
    try {
      message = JSON.parse(raw);
    } catch {
      return;
    }
    if (
      typeof message !== 'object' ||
      message === null ||
      typeof (message as { type?: unknown }).type !== 'string'
    )
      return;
    // A broadcast reaches its sender too: it is not for it.
    if ((message as { from?: unknown }).from === id) return;
    try {
      receiver(message as ClusterMessage);
    } catch (error) {
      onError(error instanceof Error ? error : new Error(String(error)));
    }
  };
  try {
    await connections.subscriber.subscribe([own, all], receive);
  } catch (error) {
    closeRedisConnections(connections);
    throw error;
  }
  const publish = async (channel: string, message: ClusterMessage): Promise<number> => {
    if (closed) return 0;
    try {
      return await connections.publisher.publish(channel, JSON.stringify({ ...message, from: id }));
    } catch (cause) {
      if (!closed) onError(new Error(`gateway cluster: publish to Redis at ${server} failed`, { cause }));
      return 0;
    }
  };
  return {
    id,
    send: async (to, message) => (await publish(`${prefix}process:${to}`, message)) > 0,
    broadcast: async (message) => {
      await publish(all, message);
    },
    alive: async (other) => {
      if (other === id) return true;
      if (closed) return false;
      try {
        const counts = (await connections.publisher.PUBSUB_NUMSUB(`${prefix}process:${other}`)) as Record<
          string,
          number
        >;
        return (counts[`${prefix}process:${other}`] ?? 0) > 0;
      } catch {
        // Redis away: assume the process is there, as nothing says otherwise.
        return true;
      }
    },
    onMessage: (next) => {
      receiver = next;
    },
    close: async () => {
      if (closed) return;
      closed = true;
      closeRedisConnections(connections);
    },
  };
}

function describe(cause: unknown): string {
  const code = (cause as NodeJS.ErrnoException | undefined)?.code;
  return typeof code === 'string' ? code : cause instanceof Error ? cause.name : 'error';
}
