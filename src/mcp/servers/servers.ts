/**
 * servers/: many clients as one source of tools, and the one rule for tool-name prefixes.
 *
 * `MCPServers`: many MCP servers (a configuration file's, or clients added one by one) as one source of
 * tools, combined freely. Servers connect in parallel and fail alone: one server that cannot start is
 * reported with its `MCPCallError` while the others connect. Tool-name prefixes are in prefix.ts.
 */
import type { RunContext, Tool } from '../../core/tool.js';
import type { MCPTool } from '../adapter/mcp-tool.js';
import type { MCPClient, MCPClientState, MCPConnectOptions } from '../client/client.js';
import { createClient, type MCPCreateClientOptions } from '../client/create-client.js';
import { type MCPClientEvents, TypedEmitter } from '../client/events.js';
import type { MCPServerConfig, MCPServerEntry } from '../config/load.js';
import { type MCPToolFilter, toolFilter } from '../config/tool-filter.js';
import { MCPCallError, MCPConfigError } from '../protocol/errors.js';
import type { MCPToolDefinition } from '../protocol/types.js';
import { toCallError } from '../session/error-mapping.js';
import { MCPLazyTool } from './lazy-tool.js';
import { DEFAULT_PREFIX_SEPARATOR, MCPPrefixedTool, prefixedToolName, serverPrefix } from './prefix.js';
import { type MCPToolListCache, toolListCacheKey } from './tool-list-cache.js';

export { DEFAULT_PREFIX_SEPARATOR, MCPPrefixedTool } from './prefix.js';

/** Options of {@link MCPServers.getTools}. */
export interface MCPServersToolOptions {
  /**
   * Prefix each tool's name with its server's name: `<server><separator><tool>`. Characters of the server
   * name outside `[A-Za-z0-9_-]` become `_`, so prefixed names stay within what model APIs accept when the
   * tool's own name does. Each prefixed tool is an {@link MCPPrefixedTool}, which agentwire's agent never
   * prefixes again (whatever its `toolNamePrefix`). Default false (names as the servers define them; two
   * servers may then offer the same name).
   */
  prefix?: boolean;
  /** Separator used with `prefix`. Default `'__'`. */
  separator?: string;
}

/** How one server's `connect()` ended, from {@link MCPServers.connectAll}. */
export type MCPServerConnectResult =
  | {
      name: string;
      ok: true;
      /** Tools exposed after filters. */
      toolCount: number;
      /** A server connected when needed: not started; `toolCount` counts its cached or configured tools. */
      lazy?: true;
    }
  | { name: string; ok: false; error: MCPCallError };

/**
 * How a server connected when needed is added ({@link MCPServers.add}; a configuration entry's `lazy`,
 * `toolList`, `deferLoading` and `toolOptions` fields): not started by `connectAll()`, its tools known from
 * the cache or `toolList` until it connects on the first call or tool-search hit of one of them.
 */
export interface MCPLazyServerOptions {
  /** The tools until the server has connected once and no cached list is found. Default: none. */
  toolList?: readonly MCPToolDefinition[];
  /** Where the list of the last connect is kept, under `cacheKey`. */
  cache?: MCPToolListCache;
  /** The cache key (`toolListCacheKey(entry)` for a configuration entry). Needed with `cache`. */
  cacheKey?: string;
  /** Offer the tools only through tool search (default true), or always (`false`). */
  deferLoading?: boolean;
  /** Per tool, by the server's tool name: wins over `deferLoading`. */
  toolOptions?: Readonly<Record<string, { deferLoading?: boolean }>>;
}

/** Options of {@link MCPServers.fromConfig} besides the clients' own. */
export interface MCPServersConfigOptions extends MCPCreateClientOptions {
  /** Where the tool lists of the configuration's `lazy` servers are kept between runs. Default: none. */
  toolListCache?: MCPToolListCache;
}

/** One server's state, from {@link MCPServers.status}. */
export interface MCPServerStatus {
  name: string;
  state: MCPClientState;
  /** Tools exposed after `allowTools` / `blockTools`. */
  toolCount: number;
  /** Tools the server offers, before filters. */
  totalToolCount: number;
  /**
   * Why the last connect failed, or why the connection was lost; cleared by a successful (re)connect. An
   * `MCPConfigError` (with `state: 'failed'`) for an invalid configuration entry, which is never started.
   */
  error?: Error;
}

/** Events of {@link MCPServers}: each client's events, tagged with the server's name. */
export interface MCPServersEvents {
  connected: MCPClientEvents['connected'] & { server: string };
  disconnected: MCPClientEvents['disconnected'] & { server: string };
  reconnected: MCPClientEvents['reconnected'] & { server: string };
  /** A server's tool list changed (before filters; call `getTools()` for the exposed list). */
  toolsChanged: MCPClientEvents['toolsChanged'] & { server: string };
  /** A server's background error; `MCPError`s carry the server on `.server`. Only when listened to. */
  error: Error;
}

interface Member {
  client: MCPClient;
  accepts: (toolName: string) => boolean;
  error: Error | undefined;
  detach: () => void;
  lazy?: LazyState;
}

interface LazyState {
  options: MCPLazyServerOptions;
  /** The tools known before the first connect: cached, else configured. */
  known: readonly MCPToolDefinition[];
  connecting: Promise<void> | undefined;
  /** One tool object per definition object, so agents may compare tools by identity. */
  tools: WeakMap<MCPToolDefinition, MCPLazyTool>;
}

/**
 * A set of named MCP clients, connected and disconnected together, plus the invalid entries of the
 * configuration it came from, kept so that they are reported as failed servers rather than forgotten.
 *
 * @example
 * ```ts
 * import { loadServerConfig, MCPServers } from 'agentwire';
 *
 * const servers = MCPServers.fromConfig(await loadServerConfig('.cursor/mcp.json'));
 * for (const result of await servers.connectAll()) {
 *   if (!result.ok) console.warn(`${result.name}: ${result.error.message}`); // the others still connect
 * }
 * const tools = servers.getTools({ prefix: true }); // github__create_issue, files__read_text_file, …
 * console.log(tools.map((tool) => tool.name), servers.status());
 * await servers.disconnectAll();
 * ```
 */
export class MCPServers extends TypedEmitter<MCPServersEvents> {
  readonly #members = new Map<string, Member>();
  readonly #invalid = new Map<string, MCPConfigError>();
  // Same wrapper for the same tool and name across calls, so agents may compare tools by identity.
  readonly #prefixed = new WeakMap<MCPTool | MCPLazyTool, Map<string, MCPPrefixedTool>>();

  /**
   * One (unconnected) client per configured server, with the entry's `allowTools` / `blockTools`, then the
   * config's invalid entries ({@link addInvalid}). `options` apply to every client (timeouts, handlers,
   * `stderr`, …).
   */
  static fromConfig(
    config: MCPServerConfig | readonly MCPServerEntry[],
    options: MCPServersConfigOptions = {},
  ): MCPServers {
    const servers = new MCPServers();
    const entries = 'servers' in config ? config.servers : config;
    const { toolListCache, ...clientOptions } = options;
    for (const entry of entries) {
      const lazy: MCPLazyServerOptions | undefined = entry.lazy
        ? {
            ...(entry.toolList && { toolList: entry.toolList }),
            ...(toolListCache && { cache: toolListCache, cacheKey: toolListCacheKey(entry) }),
            ...(entry.deferLoading !== undefined && { deferLoading: entry.deferLoading }),
            ...(entry.toolOptions && { toolOptions: entry.toolOptions }),
          }
        : undefined;
      servers.add(createClient(entry, clientOptions), entry, lazy);
    }
    if ('invalid' in config) for (const { name, error } of config.invalid) servers.addInvalid(name, error);
    return servers;
  }

  /**
   * Adds a client under its `name`. It is not connected here. With `lazy`, it is a server connected when
   * needed ({@link MCPLazyServerOptions}): `connectAll()` only reads its cached tool list, and its tools
   * (`MCPLazyTool`s) connect it on their first call or `prepare()`.
   * @throws MCPConfigError when a server of that name is already present.
   */
  add(client: MCPClient, filter: MCPToolFilter = {}, lazy?: MCPLazyServerOptions): this {
    this.#checkFree(client.name);
    const member: Member = { client, accepts: toolFilter(filter), error: undefined, detach: () => {} };
    if (lazy) {
      member.lazy = {
        options: lazy,
        known: lazy.toolList ?? [],
        connecting: undefined,
        tools: new WeakMap(),
      };
    }
    member.detach = this.#follow(member);
    this.#members.set(client.name, member);
    return this;
  }

  /**
   * Records a server whose configuration entry cannot be used: it has no client, offers no tools, and
   * `connectAll()` skips it; `status()` reports it as failed with `error`, after the clients.
   * @throws MCPConfigError when a server of that name is already present.
   */
  addInvalid(name: string, error: MCPConfigError): this {
    this.#checkFree(name);
    this.#invalid.set(name, error);
    return this;
  }

  #checkFree(name: string): void {
    if (this.#members.has(name) || this.#invalid.has(name)) {
      throw new MCPConfigError(`MCPServers: a server named "${name}" was already added`, { entry: name });
    }
  }

  /** Disconnects and forgets the server `name` (or forgets the invalid entry); false when there is none. */
  async remove(name: string): Promise<boolean> {
    if (this.#invalid.delete(name)) return true;
    const member = this.#members.get(name);
    if (!member) return false;
    this.#members.delete(name);
    member.detach();
    await member.client.disconnect();
    return true;
  }

  /** The client of server `name`. */
  get(name: string): MCPClient | undefined {
    return this.#members.get(name)?.client;
  }

  /** Every client, in the order added. */
  clients(): MCPClient[] {
    return [...this.#members.values()].map((member) => member.client);
  }

  /**
   * Connects every server in parallel. Never rejects for a server's failure: each result says whether its
   * server connected (with its exposed tool count) or why not (an `MCPCallError` naming the server: kind
   * `spawn` for a command that does not exist, `connection_closed` for one that exits, `timeout`, …).
   * Already connected servers resolve at once. Invalid entries ({@link addInvalid}) have nothing to
   * connect and no result here; `status()` reports them.
   *
   * `options.signal` is handed to every `connect()` (see `MCPClient.connect`): when it fires, the servers
   * still connecting stop (processes ended, requests aborted) and report kind `aborted`; those already
   * connected stay connected (`disconnectAll()` ends them). An already-aborted signal starts nothing.
   *
   * @returns one result per client, in the order added.
   */
  connectAll(options: MCPConnectOptions = {}): Promise<MCPServerConnectResult[]> {
    return Promise.all([...this.#members.values()].map((member) => this.#connect(member, options)));
  }

  async #connect(member: Member, options: MCPConnectOptions): Promise<MCPServerConnectResult> {
    const name = member.client.name;
    const { lazy } = member;
    if (lazy && !member.client.isConnected()) {
      const { cache, cacheKey } = lazy.options;
      const cached = cache && cacheKey !== undefined ? await cache.read(cacheKey) : undefined;
      if (cached) lazy.known = cached;
      return { name, ok: true, toolCount: this.#exposed(member).length, lazy: true };
    }
    try {
      await member.client.connect(options);
      member.error = undefined;
      return { name, ok: true, toolCount: this.#exposed(member).length };
    } catch (thrown) {
      const error =
        thrown instanceof MCPCallError ? thrown : toCallError(thrown, { server: name, method: 'initialize' });
      member.error = error;
      return { name, ok: false, error };
    }
  }

  /**
   * The exposed tools of every server, in the order servers were added and each server's own order.
   * A server that is reconnecting keeps its tools (calls wait for the reconnect); one that has `failed`
   * contributes none, since every call to it could only fail.
   */
  getTools(options: MCPServersToolOptions = {}): Tool[] {
    // A lazy server that has not connected yet offers its cached or configured tools (MCPLazyTool).
    const separator = options.separator ?? DEFAULT_PREFIX_SEPARATOR;
    return [...this.#members.values()].flatMap((member): Tool[] => {
      if (member.client.getState() === 'failed') return [];
      const tools = this.#exposed(member);
      if (!options.prefix) return tools;
      const server = member.client.name;
      return tools.map((tool) =>
        this.#prefixedTool(tool, prefixedToolName(server, tool.name, separator), serverPrefix(server)),
      );
    });
  }

  /**
   * Each server's state and tool counts, in the order added (for `agentwire servers`); the invalid entries
   * last, as `failed` with no tools and their `MCPConfigError`.
   */
  status(): MCPServerStatus[] {
    const clients = [...this.#members.values()].map((member) => ({
      name: member.client.name,
      state: member.client.getState(),
      toolCount: this.#exposed(member).length,
      totalToolCount: member.client.getTools().length,
      ...(member.error && { error: member.error }),
    }));
    const invalid = [...this.#invalid].map(([name, error]) => ({
      name,
      state: 'failed' as const,
      toolCount: 0,
      totalToolCount: 0,
      error,
    }));
    return [...clients, ...invalid];
  }

  /** Disconnects every server in parallel (stops stdio processes, ends HTTP sessions). Never rejects. */
  async disconnectAll(): Promise<void> {
    await Promise.allSettled(this.clients().map((client) => client.disconnect()));
  }

  #exposed(member: Member): (MCPTool | MCPLazyTool)[] {
    const { lazy, client } = member;
    if (!lazy) return client.getTools().filter((tool) => member.accepts(tool.name));
    // A lazy server's tools stay lazy tools once it runs, so that they keep their `deferLoading`.
    const definitions = client.isConnected() ? client.getTools().map((tool) => tool.definition) : lazy.known;
    return definitions
      .filter((definition) => member.accepts(definition.name))
      .map((definition) => {
        let tool = lazy.tools.get(definition);
        if (!tool) {
          const perTool = lazy.options.toolOptions?.[definition.name]?.deferLoading;
          const host = {
            connect: (signal?: AbortSignal, run?: RunContext) => this.#connectLazy(member, signal, run),
            current: (name: string) => client.getTools().find((candidate) => candidate.name === name),
          };
          tool = new MCPLazyTool(definition, client.name, host, perTool ?? lazy.options.deferLoading ?? true);
          lazy.tools.set(definition, tool);
        }
        return tool;
      });
  }

  /**
   * Connects a lazy member once, however many calls wait, for the first caller's `run`; a failed attempt
   * lets the next call try again.
   */
  #connectLazy(member: Member, signal?: AbortSignal, run?: RunContext): Promise<void> {
    const { lazy, client } = member;
    if (!lazy || client.isConnected()) return Promise.resolve();
    lazy.connecting ??= (async () => {
      try {
        await client.connect({ ...(signal && { signal }), ...(run && { context: run }) });
        member.error = undefined;
        await this.#saveToolList(member);
      } catch (error) {
        member.error = error instanceof Error ? error : new Error(String(error));
        throw error;
      } finally {
        lazy.connecting = undefined;
      }
    })();
    return lazy.connecting;
  }

  /** Writes a lazy member's current tool list to its cache, if it has one. Never rejects. */
  async #saveToolList(member: Member): Promise<void> {
    const { cache, cacheKey } = member.lazy?.options ?? {};
    if (!cache || cacheKey === undefined || !member.client.isConnected()) return;
    try {
      await cache.write(
        cacheKey,
        member.client.getTools().map((tool) => tool.definition),
      );
    } catch (error) {
      this.emit('error', error instanceof Error ? error : new Error(String(error)));
    }
  }

  #prefixedTool(tool: MCPTool | MCPLazyTool, name: string, namePrefix: string): MCPPrefixedTool {
    let byName = this.#prefixed.get(tool);
    if (!byName) {
      byName = new Map();
      this.#prefixed.set(tool, byName);
    }
    let wrapper = byName.get(name);
    if (!wrapper) {
      wrapper = new MCPPrefixedTool(name, tool, namePrefix);
      byName.set(name, wrapper);
    }
    return wrapper;
  }

  /** Re-emits the client's events tagged with its name; returns the function that stops it. */
  #follow(member: Member): () => void {
    const { client } = member;
    const server = client.name;
    const onConnected = (payload: MCPClientEvents['connected']) =>
      this.emit('connected', { ...payload, server });
    const onReconnected = (payload: MCPClientEvents['reconnected']) => {
      member.error = undefined;
      this.emit('reconnected', { ...payload, server });
    };
    const onDisconnected = (payload: MCPClientEvents['disconnected']) => {
      if (payload.error) member.error = payload.error;
      this.emit('disconnected', { ...payload, server });
    };
    const onToolsChanged = (payload: MCPClientEvents['toolsChanged']) => {
      if (member.lazy) void this.#saveToolList(member);
      this.emit('toolsChanged', { ...payload, server });
    };
    const onError = (error: Error) => this.emit('error', error);
    client.on('connected', onConnected);
    client.on('reconnected', onReconnected);
    client.on('disconnected', onDisconnected);
    client.on('toolsChanged', onToolsChanged);
    client.on('error', onError);
    return () => {
      client.off('connected', onConnected);
      client.off('reconnected', onReconnected);
      client.off('disconnected', onDisconnected);
      client.off('toolsChanged', onToolsChanged);
      client.off('error', onError);
    };
  }
}
