/**
 * The Redis event bus of `agentwire serve` (`--redis-url`, `AGENTWIRE_REDIS_URL`, `gateway.redisUrl`): the
 * `ServerEventBus` that carries `subscriptions/listen` change events between gateway processes behind one
 * load balancer (MCP spec 2026-07-28, "Subscriptions"). Only the server's `host:port` is ever printed: the
 * URL may carry a password.
 */
import type { GatewayCluster } from '../../gateway/cluster.js';
import type { RedisEventBus } from '../../gateway/redis-event-bus.js';
import type { CommandContext } from '../context.js';
import { singleLine } from '../io.js';
import { UsageError } from '../usage-error.js';

/** The environment variable read when `--redis-url` is not given. */
export const REDIS_URL_ENV = 'AGENTWIRE_REDIS_URL';

/** Where the Redis URL and channel prefix come from, in order: flags, environment, configuration file. */
export interface ServeRedisSources {
  flagUrl: string | undefined;
  flagPrefix: string | undefined;
  fileUrl: string | undefined;
  filePrefix: string | undefined;
}

/**
 * The outcome of {@link openServeBus}: no Redis asked for, a bus (and the cluster channel that forwards what
 * a client sends for a call held by another process: cluster.ts), or a failure already reported.
 */
export type ServeBus =
  | { kind: 'none' }
  | { kind: 'bus'; bus: RedisEventBus; cluster: GatewayCluster }
  | { kind: 'failed' };

/**
 * Opens the Redis event bus when a URL is configured. A failed connect prints one line on stderr
 * (`error: serve: cannot connect to Redis at host:port (<code>)`, or `(Redis answered: <its error reply>)`)
 * and is returned as `failed`; later failures (a dropped connection, a failed publish) print a `warning:`
 * line each (one per outage, however long it lasts), the end of an outage one `serve: Redis event bus
 * reconnected …` line, and the gateway goes on serving its own listeners.
 * @throws UsageError when the URL is not a `redis:` / `rediss:` URL (the text is not repeated).
 */
export async function openServeBus(sources: ServeRedisSources, context: CommandContext): Promise<ServeBus> {
  const url = sources.flagUrl ?? (process.env[REDIS_URL_ENV] || undefined) ?? sources.fileUrl;
  if (url === undefined) return { kind: 'none' };
  const { redisServerName } = await import('../../gateway/redis-connection.js');
  const { createRedisEventBus } = await import('../../gateway/redis-event-bus.js');
  const { createRedisCluster } = await import('../../gateway/redis-cluster.js');
  let server: string;
  try {
    server = redisServerName(url);
  } catch (error) {
    throw new UsageError(`serve: --redis-url: ${(error as Error).message}`);
  }
  const io = context.io;
  const channelPrefix = sources.flagPrefix ?? sources.filePrefix;
  try {
    const bus = await createRedisEventBus({
      url,
      ...(channelPrefix !== undefined && { channelPrefix }),
      onError: (error) => io.stderr(`warning: serve: ${error.message}\n`),
      onReconnect: () =>
        io.stderr(`serve: Redis event bus reconnected (server ${server}, channel ${bus.channel})\n`),
    });
    let cluster: GatewayCluster;
    try {
      cluster = await createRedisCluster({
        url,
        ...(channelPrefix !== undefined && { channelPrefix }),
        onError: (error) => io.stderr(`warning: serve: ${error.message}\n`),
      });
    } catch (error) {
      await bus.close();
      throw error;
    }
    return { kind: 'bus', bus, cluster };
  } catch (error) {
    io.stderr(`error: serve: cannot connect to Redis at ${server} (${await reason(error)})\n`);
    return { kind: 'failed' };
  }
}

/**
 * A short reason for a failed connect: Redis's own error reply (a refused `AUTH`, say: Redis never repeats
 * the password in it), else the socket's error code (node-redis wraps the socket's error in a
 * `ReconnectStrategyError` as `socketError`), else the error's class name.
 */
async function reason(error: unknown): Promise<string> {
  const { ErrorReply } = await import('@redis/client');
  const cause = error instanceof Error ? error.cause : undefined;
  const candidates = [
    cause,
    (cause as { socketError?: unknown } | undefined)?.socketError,
    ...(cause instanceof AggregateError ? cause.errors : []),
  ];
  for (const one of candidates) {
    if (one instanceof ErrorReply) return `Redis answered: ${singleLine(one.message)}`;
    const code = (one as NodeJS.ErrnoException | undefined)?.code;
    if (one instanceof Error && typeof code === 'string') return code;
  }
  return cause instanceof Error ? cause.name : error instanceof Error ? error.name : 'error';
}
