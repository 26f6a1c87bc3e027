/**
 * `agentwire serve --config <file>`: the enabled servers of a configuration file served as one MCP server
 * (src/gateway/), over Streamable HTTP (`--port`, `--host`) or stdio (`--stdio`), until SIGINT / SIGTERM or,
 * with `--stdio`, the end of stdin. The HTTP endpoint requires a bearer token: the static one, read from the
 * environment variable `--token-env` (or the file's `gateway.bearerTokenEnv`) names, never printed, and/or
 * JWTs of the issuer `gateway.jwt` names; `gateway.policy`, `gateway.rateLimits` and `gateway.audit` apply
 * on both transports (docs/gateway-access.md). With
 * `--redis-url` (or `AGENTWIRE_REDIS_URL`, or `gateway.redisUrl`) the change events of `subscriptions/listen`
 * go through Redis pub/sub (serve-redis.ts), so several `serve` processes behind one load balancer notify
 * each other's listeners (MCP spec 2026-07-28, "Subscriptions"), and what a client sends for a call held by
 * another process (an `input_required` retry, a 2025 client's answer or cancellation) is forwarded to it.
 * The secret that seals 2025-era session ids comes from the variable `gateway.sessionSecretEnv` names, or
 * `AGENTWIRE_SESSION_SECRET`; every process of one gateway needs the same (docs/gateway-deploy.md).
 */
import { type Command, InvalidArgumentError } from 'commander';
import type { MCPGateway } from '../../gateway/gateway.js';
import type { CommandContext } from '../context.js';
import { ExitCode, singleLine } from '../io.js';
import { positiveInteger } from '../server-flags.js';
import { UsageError } from '../usage-error.js';
import { openServeBus } from './serve-redis.js';

interface ServeOptions {
  config: string;
  port?: number;
  host?: string;
  stdio?: boolean;
  tokenEnv?: string;
  connectTimeout?: number;
  callTimeout?: number;
  redisUrl?: string;
  redisChannelPrefix?: string;
  shutdownGrace?: number;
}

/** Default `--port`. */
export const DEFAULT_SERVE_PORT = 8787;

/**
 * Registers `serve`. Status lines go to stderr (stdout is the protocol with `--stdio`): which servers
 * connected, then `serving on <url>` or `serving on stdio`.
 *
 * Exit codes: 0 stopped by a signal or the end of stdin, 2 the command line or file is wrong (no token for
 * HTTP included, a Redis URL that is not `redis:` / `rediss:`), 3 the port cannot be bound or Redis cannot be
 * connected to.
 */
export function registerServeCommand(program: Command, context: CommandContext): void {
  program
    .command('serve')
    .description('serve the servers of a config file as one MCP server (Streamable HTTP or stdio)')
    .requiredOption('--config <file>', 'server configuration file (mcpServers / VS Code servers JSON)')
    .option(
      '--port <n>',
      `TCP port of the HTTP endpoint, 0 for any free one (default ${DEFAULT_SERVE_PORT})`,
      port,
    )
    .option('--host <address>', 'interface to bind (default 127.0.0.1)')
    .option('--stdio', 'serve one client on stdin/stdout instead of HTTP')
    .option('--token-env <name>', 'environment variable holding the bearer token HTTP clients must send')
    .option('--connect-timeout <ms>', 'bound on connecting to each server, in ms', positiveInteger)
    .option('--call-timeout <ms>', 'bound on each relayed tool call, in ms (default 60000)', positiveInteger)
    .option(
      '--shutdown-grace <ms>',
      'on SIGINT / SIGTERM, how long HTTP calls in flight may take to finish, in ms (default 5000)',
      positiveInteger,
    )
    .option(
      '--redis-url <url>',
      'share change notifications with other serve processes through Redis (redis://[user:password@]host[:port][/db]; default $AGENTWIRE_REDIS_URL, then gateway.redisUrl)',
    )
    .option(
      '--redis-channel-prefix <prefix>',
      'prefix of the Redis pub/sub channel, the same for every process of one gateway (default agentwire:mcp:)',
    )
    .action(async (options: ServeOptions) => {
      const { loadServerConfig } = await import('../../mcp/index.js');
      const { MCPGateway, openAuditLog, readGatewaySettings } = await import('../../gateway/index.js');
      const config = await loadServerConfig(options.config);
      for (const warning of config.warnings) context.io.stderr(`warning: ${warning.message}\n`);
      // One rule with `servers` / `run` / `MCPServers`: an entry that cannot be used (an unset secret, a
      // field of the wrong type) does not stop the others; it is served as `failed` (its reason in /status)
      // and named at start. With no usable entry at all there is nothing to serve: the first error stops it.
      const [invalid] = config.invalid;
      if (invalid !== undefined && config.servers.length === 0) throw invalid.error;
      for (const { error } of config.invalid) context.io.stderr(`warning: ${error.message}\n`);
      const settings = readGatewaySettings(config.source);
      const io = context.io;
      let token: string | undefined;
      if (!options.stdio) {
        const variable = options.tokenEnv ?? settings.bearerTokenEnv;
        if (variable === undefined && settings.jwt === undefined)
          throw new UsageError(
            'serve over HTTP needs a bearer token: give --token-env <name> or gateway.bearerTokenEnv, or gateway.jwt',
          );
        token = variable === undefined ? undefined : process.env[variable];
        if (variable !== undefined && !token)
          throw new UsageError(`serve: the environment variable ${variable} (the bearer token) is not set`);
      }
      const opened = await openServeBus(
        {
          flagUrl: options.redisUrl,
          flagPrefix: options.redisChannelPrefix,
          fileUrl: settings.redisUrl,
          filePrefix: settings.redisChannelPrefix,
        },
        context,
      );
      if (opened.kind === 'failed') {
        context.exit(ExitCode.connection);
        return;
      }
      const bus = opened.kind === 'bus' ? opened.bus : undefined;
      const cluster = opened.kind === 'bus' ? opened.cluster : undefined;
      if (bus) io.stderr(`sharing change notifications through Redis at ${bus.server} (${bus.channel})\n`);
      const {
        redisUrl: _url,
        redisChannelPrefix: _prefix,
        jwt,
        auditLog,
        bearerTokenEnv: _token,
        sessionSecretEnv,
        ...gatewaySettings
      } = settings;
      // One JSON line per routed request (audit-log.ts), on stderr or appended to a file.
      const audit = auditLog === undefined ? undefined : openAuditLog(auditLog);
      const sessionSecret = readSessionSecret(sessionSecretEnv);
      if (bus && sessionSecret === undefined && !options.stdio)
        io.stderr(
          `warning: serve: no session secret (${SESSION_SECRET_ENV} or gateway.sessionSecretEnv): a 2025-era client's session is served only by the process that opened it\n`,
        );
      let gateway: InstanceType<typeof MCPGateway> | undefined;
      try {
        gateway = MCPGateway.fromConfig(config, {
          ...gatewaySettings,
          ...(bus && { bus }),
          ...(audit && { audit: audit.write }),
          ...(cluster && { cluster }),
          ...(sessionSecret !== undefined && { sessionSecret }),
          clients: {
            ...(options.connectTimeout !== undefined && { connectTimeoutMs: options.connectTimeout }),
            callOptions: { timeoutMs: options.callTimeout ?? 60_000, resetTimeoutOnProgress: true },
            // Kept for their errors only, never written out: with --stdio our stdout is the protocol.
            stderr: 'capture',
          },
        });
        // An upstream's failure reaches the gateway's clients without its stderr (upstream-failure.ts): the
        // whole of it, stderr tail included, is the operator's, here.
        gateway.servers.on('disconnected', ({ server, error, deliberate }) => {
          if (!deliberate && error) io.stderr(`lost ${server}: ${singleLine(error.message)}\n`);
        });
        const stopped = new Promise<void>((resolve) => {
          if (io.signal?.aborted) resolve();
          io.signal?.addEventListener('abort', () => resolve(), { once: true });
        });
        if (options.stdio) {
          await startUpstreams(gateway, context);
          const host = gateway.serveStdio();
          io.stderr('serving on stdio\n');
          await Promise.race([stopped, host.ended]);
        } else {
          // The port is bound before any upstream is started, so an address that cannot be had is told at
          // once, not after every connect; requests arriving meanwhile wait until the upstreams are up.
          let ready: () => void = () => {};
          const started = new Promise<void>((resolve) => {
            ready = resolve;
          });
          const address = `${options.host ?? '127.0.0.1'}:${options.port ?? DEFAULT_SERVE_PORT}`;
          const host = await gateway
            .listen({
              port: options.port ?? DEFAULT_SERVE_PORT,
              host: options.host ?? '127.0.0.1',
              ...(token !== undefined && { bearerToken: token }),
              ...(jwt && { jwt }),
              ready: started,
              ...(options.shutdownGrace !== undefined && { shutdownGraceMs: options.shutdownGrace }),
              ...(settings.allowedHosts && { allowedHosts: settings.allowedHosts }),
            })
            .catch((error: unknown) => {
              io.stderr(
                `error: serve: cannot listen on ${address}: ${(error as NodeJS.ErrnoException).code ?? 'error'}\n`,
              );
              context.exit(ExitCode.connection);
              return undefined;
            });
          if (!host) return;
          await startUpstreams(gateway, context);
          ready();
          io.stderr(`serving on ${host.url}\n`);
          await stopped;
        }
        io.stderr('stopping\n');
      } finally {
        await gateway?.close();
        await bus?.close();
        await audit?.close();
        await cluster?.close();
      }
    });
}

/** The environment variable read for the session secret when the file names none. */
export const SESSION_SECRET_ENV = 'AGENTWIRE_SESSION_SECRET';

/**
 * The secret that seals 2025-era session ids: from the variable `gateway.sessionSecretEnv` names, else
 * from `AGENTWIRE_SESSION_SECRET`; undefined when neither is set (each process then seals with a key of its
 * own). Never printed.
 * @throws UsageError when the file names a variable that is not set, or the secret is too short.
 */
function readSessionSecret(variable: string | undefined): string | undefined {
  const secret = process.env[variable ?? SESSION_SECRET_ENV] || undefined;
  if (variable !== undefined && secret === undefined)
    throw new UsageError(`serve: the environment variable ${variable} (the session secret) is not set`);
  if (secret !== undefined && secret.length < 32)
    throw new UsageError(
      `serve: the session secret in ${variable ?? SESSION_SECRET_ENV} must be at least 32 characters long`,
    );
  return secret;
}

/** Connects every upstream, one status line each on stderr. */
async function startUpstreams(
  gateway: { start: MCPGateway['start'] },
  context: CommandContext,
): Promise<void> {
  const { io } = context;
  const results = await gateway.start(io.signal ? { signal: io.signal } : {});
  for (const result of results)
    io.stderr(
      result.ok
        ? `connected ${result.name} (${result.toolCount} tools)\n`
        : `failed ${result.name}: ${result.error.message}\n`,
    );
}

function port(value: string): number {
  const parsed = Number(value);
  if (!/^\d+$/.test(value) || parsed > 65535) throw new InvalidArgumentError('Expected a port, 0 to 65535.');
  return parsed;
}
