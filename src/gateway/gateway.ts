/**
 * `MCPGateway`: the upstream MCP servers of an `MCPServers` served as one MCP server, over Streamable HTTP
 * (http-host.ts) and stdio (stdio-host.ts), to clients of the 2026-07-28 and 2025 revisions alike, while
 * agentwire's client speaks to each upstream in the revision it speaks. Lists come from the catalog
 * (catalog.ts), requests are routed by routing.ts, upstream questions relayed by relay.ts.
 *
 * Changes propagate: an upstream's `list_changed` (and its return after a failure, which may change what it
 * offers) becomes the gateway's own change notification (MCP spec 2026-07-28, "Subscriptions": on every open
 * `subscriptions/listen` stream, through the event bus; 2025 stdio connections get `list_changed`), when
 * what the gateway lists differs. An upstream that fails leaves the others working, keeps its last known
 * tools in the list, and is connected again for as long as the gateway runs (upstream-health.ts).
 */
import {
  createMcpHandler,
  InMemoryServerEventBus,
  type McpHttpHandler,
  type Server,
  type ServerEventBus,
} from '@modelcontextprotocol/server';
import { VERSION } from '../core/version.js';
import {
  type MCPConnectOptions,
  type MCPCreateClientOptions,
  type MCPServerConfig,
  MCPServers,
} from '../mcp/for-gateway.js';
import { createAccessCheck, type MCPGatewayAccessOptions, publicDocuments } from './access.js';
import { AccessPolicy } from './access-policy.js';
import { CallGate } from './call-gate.js';
import { GatewayCatalog } from './catalog.js';
import { type GatewayCluster, localCluster } from './cluster.js';
import { DirectUpstreams } from './direct-upstream.js';
import { HttpFastCalls } from './http-fast-call.js';
import { listenHttp, type MCPGatewayHttpHost, type MCPGatewayListenOptions } from './http-host.js';
import { LegacySessions } from './legacy-sessions.js';
import {
  checkCount,
  DEFAULT_INPUT_WAIT_MS,
  DEFAULT_MAX_REQUEST_BODY_BYTES,
  DEFAULT_MAX_SUBSCRIPTIONS,
  DEFAULT_SESSION_MAX_AGE_MS,
  type MCPGatewayOptions,
} from './options.js';
import { RateLimits } from './rate-limits.js';
import { InputRelay } from './relay.js';
import { RemoteRounds } from './remote-rounds.js';
import { type GatewayRoutes, gatewayServerFactory, upstreamError } from './routing.js';
import { SessionSeal } from './session-seal.js';
import { GatewayStatus, type MCPGatewayStatusDocument } from './status.js';
import { type MCPGatewayStdioHost, type MCPGatewayStdioOptions, serveGatewayStdio } from './stdio-host.js';
import { ResourceSubscriptions } from './subscriptions.js';
import { GatewayTasks } from './tasks.js';
import { UpstreamHealth } from './upstream-health.js';

type Change = 'tools' | 'prompts' | 'resources';

/** Options of {@link MCPGateway.fromConfig}: the gateway's, plus the options of every upstream client. */
export interface MCPGatewayConfigOptions extends MCPGatewayOptions {
  /**
   * Options for every upstream client (timeouts, `stderr`, …); the relay's handlers are added, and the
   * clients' own reconnection is off: the gateway reconnects them (`reconnect` of {@link MCPGatewayOptions}).
   */
  clients?: Omit<MCPCreateClientOptions, 'onElicitation' | 'onSampling' | 'reconnect'>;
}

/**
 * Many MCP servers as one; see the file header.
 *
 * @example
 * ```ts
 * import { loadServerConfig } from 'agentwire';
 * import { MCPGateway } from 'agentwire/gateway';
 *
 * const gateway = MCPGateway.fromConfig(await loadServerConfig('gateway.json'), { separator: '__' });
 * await gateway.start(); // an upstream that fails costs only its own tools
 * const http = await gateway.listen({ port: 8787, bearerToken: process.env.GATEWAY_TOKEN! }); // 127.0.0.1
 * console.log(`serving ${http.url}`, gateway.status().upstreams);
 * process.once('SIGTERM', () => void gateway.close());
 * ```
 */
export class MCPGateway {
  /** The upstreams. */
  readonly servers: MCPServers;
  readonly #relay: InputRelay;
  readonly #catalog: GatewayCatalog;
  readonly #status: GatewayStatus;
  readonly #options: MCPGatewayOptions;
  readonly #bus: ServerEventBus;
  readonly #subscriptions: ResourceSubscriptions;
  readonly #tasks: GatewayTasks;
  readonly #health: UpstreamHealth;
  readonly #gate: CallGate;
  readonly #stdioInstances = new Set<Server>();
  readonly #hosts = new Set<{ close(): Promise<void> }>();
  readonly #handlers = new Set<McpHttpHandler>();
  readonly #cluster: GatewayCluster;
  readonly #rounds: RemoteRounds;
  readonly #seal: SessionSeal;
  readonly #direct: DirectUpstreams | undefined;
  readonly #sessions = new Set<LegacySessions>();
  readonly #detach: (() => void)[] = [];
  #closing: Promise<void> | undefined;

  /**
   * A gateway over the servers of `config` (one client each, with the entry's `allowTools` / `blockTools`
   * and `maxConcurrentCalls`), whose elicitation and sampling requests are relayed to the gateway's clients.
   * Nothing is started: call {@link start}.
   */
  static fromConfig(config: MCPServerConfig, options: MCPGatewayConfigOptions = {}): MCPGateway {
    const { clients, ...gateway } = options;
    const relay = new InputRelay(gateway.inputWaitMs ?? DEFAULT_INPUT_WAIT_MS);
    const direct = new DirectUpstreams(config, clients);
    const servers = MCPServers.fromConfig(config, {
      ...clients,
      ...relay.handlers(),
      // The direct path learns each plain upstream's `tools/call` from its client's wire (direct-upstream.ts).
      ...(direct.any && { onWireMessage: direct.listener }),
      // One owner of the retries: the gateway (upstream-health.ts), which never gives up and never parks calls.
      reconnect: { enabled: false },
    });
    direct.attach(servers);
    return new MCPGateway(servers, gateway, relay, direct.any ? direct : undefined);
  }

  /**
   * A gateway over `servers`. Their clients' `onElicitation` / `onSampling` should be
   * `gateway.relayHandlers()`' for questions to reach the gateway's clients; `fromConfig` does that.
   * @throws RangeError when a count option is not a whole number ≥ 1.
   */
  constructor(
    servers: MCPServers,
    options: MCPGatewayOptions = {},
    relay?: InputRelay,
    direct?: DirectUpstreams,
  ) {
    this.#direct = direct;
    checkCount('maxSubscriptions', options.maxSubscriptions);
    checkCount('maxRequestBodyBytes', options.maxRequestBodyBytes);
    checkCount('inputWaitMs', options.inputWaitMs);
    checkCount('sessionMaxAgeMs', options.sessionMaxAgeMs);
    this.servers = servers;
    this.#options = options;
    this.#relay = relay ?? new InputRelay(options.inputWaitMs ?? DEFAULT_INPUT_WAIT_MS);
    this.#health = new UpstreamHealth(servers, options.reconnect ?? {}, (client, afterFailure) =>
      this.#joined(client.name, afterFailure),
    );
    this.#catalog = new GatewayCatalog(servers, options, (client, error) =>
      this.#health.noticed(client, error),
    );
    this.#status = new GatewayStatus(servers, this.#health, (server) => this.#toolCount(server));
    this.#gate = new CallGate(
      new AccessPolicy(options.policy),
      new RateLimits(options.rateLimits),
      options.audit,
    );
    this.#bus = options.bus ?? new InMemoryServerEventBus();
    this.#subscriptions = new ResourceSubscriptions(servers, this.#bus);
    const maxAgeMs = options.sessionMaxAgeMs ?? DEFAULT_SESSION_MAX_AGE_MS;
    const seal =
      options.sessionSecret === undefined
        ? SessionSeal.ephemeral(maxAgeMs)
        : new SessionSeal(options.sessionSecret, maxAgeMs);
    this.#seal = seal;
    this.#tasks = new GatewayTasks(servers, this.#relay, upstreamError, {
      policy: this.#gate.policy,
      tag: (text) => seal.tag(text),
    });
    this.#cluster = options.cluster ?? localCluster();
    this.#rounds = new RemoteRounds(this.#cluster, this.#relay);
    this.#cluster.onMessage((message) => {
      if (this.#rounds.receive(message)) return;
      for (const sessions of this.#sessions) if (sessions.receive(message)) return;
    });
    this.#follow();
  }

  /** The handlers for upstream clients that relay their questions to the gateway's clients. */
  relayHandlers(): ReturnType<InputRelay['handlers']> {
    return this.#relay.handlers();
  }

  /**
   * Connects every upstream in parallel; see `MCPServers.connectAll` (never rejects for one's failure;
   * `options.signal` stops the connects still under way). An upstream that does not connect is tried again
   * on the reconnection backoff for as long as the gateway runs, and joins when it comes up.
   */
  async start(options: MCPConnectOptions = {}): ReturnType<MCPServers['connectAll']> {
    this.#health.starting();
    const results = await this.servers.connectAll(options);
    if (!options.signal?.aborted)
      this.#health.started(
        results.flatMap((result) => {
          const client = this.servers.get(result.name);
          return result.ok || !client ? [] : [{ client, error: result.error }];
        }),
      );
    return results;
  }

  /** The status document (status.ts). */
  status(): MCPGatewayStatusDocument {
    return this.#status.document();
  }

  /**
   * Serves the gateway over Streamable HTTP at `http://<host>:<port>/mcp`, bound to 127.0.0.1 unless
   * `host` says otherwise, behind the access check (a bearer token or an OAuth verifier is required).
   * @throws TypeError from the access check's options; the `listen` error when the port cannot be bound.
   */
  async listen(options: MCPGatewayListenOptions & MCPGatewayAccessOptions): Promise<MCPGatewayHttpHost> {
    const access = createAccessCheck(options);
    const maxRequestBodyBytes = this.#options.maxRequestBodyBytes ?? DEFAULT_MAX_REQUEST_BODY_BYTES;
    const routes = this.#routes(false);
    const fast = new HttpFastCalls(routes, this.#direct);
    const factory = gatewayServerFactory({
      ...routes,
      settledCall: (_id, server) => fast.settled(server),
    });
    const handler = createMcpHandler(fast.wrap(factory), {
      bus: this.#bus,
      maxSubscriptions: this.#options.maxSubscriptions ?? DEFAULT_MAX_SUBSCRIPTIONS,
      maxRequestBodySize: maxRequestBodyBytes,
    });
    this.#handlers.add(handler);
    const sessions = new LegacySessions({
      // 2025-era sessions can be asked (their answers come back on a POST, to whichever process), but hold
      // no resource subscriptions (legacy-sessions.ts).
      factory: gatewayServerFactory({ ...this.#routes(true), legacySubscriptions: false }),
      seal: this.#seal,
      cluster: this.#cluster,
      bus: this.#bus,
    });
    this.#sessions.add(sessions);
    const host = await listenHttp(
      {
        handler,
        access,
        published: publicDocuments(options),
        status: () => this.status(),
        maxRequestBodyBytes,
        maxSubscriptions: this.#options.maxSubscriptions ?? DEFAULT_MAX_SUBSCRIPTIONS,
        onListen: (uris) => this.#subscriptions.listen(uris, (uri) => this.#catalog.resolveResource(uri)),
        sessions,
        fast,
      },
      options,
    ).catch(async (error: unknown) => {
      this.#handlers.delete(handler);
      this.#sessions.delete(sessions);
      await sessions.close();
      throw error;
    });
    this.#hosts.add(host);
    return host;
  }

  /** Serves the gateway on one stdio connection (default: this process's stdin and stdout). */
  serveStdio(options: MCPGatewayStdioOptions = {}): MCPGatewayStdioHost {
    const routes = this.#routes(true, (server) => {
      this.#stdioInstances.add(server);
      server.onclose = () => this.#stdioInstances.delete(server);
    });
    const host = serveGatewayStdio(routes, {
      ...options,
      maxSubscriptions: this.#options.maxSubscriptions ?? DEFAULT_MAX_SUBSCRIPTIONS,
      follow: (uris, updated) =>
        this.#subscriptions.listen(uris, (uri) => this.#catalog.resolveResource(uri), updated),
    });
    this.#hosts.add(host);
    return host;
  }

  /** Closes every host (ports closed, exchanges ended), then disconnects every upstream. Idempotent. */
  close(): Promise<void> {
    this.#closing ??= (async () => {
      for (const detach of this.#detach) detach();
      this.#health.close();
      this.#subscriptions.close();
      this.#tasks.close();
      // The hosts let the calls in flight finish first (their shutdown grace); the relay's are ended after.
      await Promise.allSettled([...this.#hosts].map((host) => host.close()));
      this.#rounds.close();
      this.#relay.close();
      await this.servers.disconnectAll();
    })();
    return this.#closing;
  }

  #routes(legacyCanAsk: boolean, track?: (server: Server) => void): GatewayRoutes {
    return {
      legacyCanAsk,
      catalog: this.#catalog,
      relay: this.#relay,
      status: this.#status,
      health: this.#health,
      gate: this.#gate,
      subscriptions: this.#subscriptions,
      tasks: this.#tasks,
      serverInfo: this.#options.serverInfo ?? { name: 'agentwire-gateway', version: VERSION },
      ...(track && { track }),
    };
  }

  /** Publishes a change to every open subscription: the HTTP listen streams (bus) and stdio connections. */
  #publish(what: Change): void {
    this.#bus.publish({ kind: `${what}_list_changed` as const });
    for (const server of this.#stdioInstances) {
      const sent =
        what === 'tools'
          ? server.sendToolListChanged()
          : what === 'prompts'
            ? server.sendPromptListChanged()
            : server.sendResourceListChanged();
      sent.catch(() => {
        // A connection closing meanwhile: it has nobody left to tell.
      });
    }
  }

  /** The tool list is built again; a change is published only when it lists something else. */
  #toolsMayHaveChanged(): void {
    if (this.#catalog.toolsChanged()) this.#publish('tools');
  }

  /**
   * Upstream `server` is connected. Its tools are compared with those listed; after a failure its prompts
   * and resources may have changed too (nothing was heard from it meanwhile), and its resource
   * subscriptions are made again on the new connection.
   */
  #joined(server: string, afterFailure: boolean): void {
    // A first, clean connect (at start) has nobody to tell: the list is only built.
    if (!afterFailure) return void this.#catalog.toolsChanged();
    this.#toolsMayHaveChanged();
    this.#publish('prompts');
    this.#publish('resources');
    const client = this.servers.get(server);
    if (client) this.#subscriptions.renew(client);
  }

  #toolCount(server: string): number {
    return this.#catalog.tools().filter((tool) => tool.client.name === server).length;
  }

  #follow(): void {
    const tools = () => this.#toolsMayHaveChanged();
    this.servers.on('toolsChanged', tools);
    this.servers.on('disconnected', tools);
    // An upstream's background errors are its status's business; listening keeps them from being thrown.
    const onError = () => {};
    this.servers.on('error', onError);
    this.#detach.push(() => {
      this.servers.off('toolsChanged', tools);
      this.servers.off('disconnected', tools);
      this.servers.off('error', onError);
    });
    for (const client of this.servers.clients()) {
      const prompts = () => this.#publish('prompts');
      const resources = () => this.#publish('resources');
      client.on('promptsChanged', prompts);
      client.on('resourcesChanged', resources);
      this.#detach.push(() => {
        client.off('promptsChanged', prompts);
        client.off('resourcesChanged', resources);
      });
    }
  }
}
