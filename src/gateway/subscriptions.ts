/**
 * Resource subscriptions through the gateway (MCP spec 2025-11-25, "Server Features > Resources >
 * Subscriptions"; 2026-07-28, "Subscriptions": a `subscriptions/listen` filter's `resourceSubscriptions`).
 * A gateway client's subscription to a URI becomes one `resources/subscribe` at the upstream that owns the
 * URI, shared by every client holding it and dropped (`resources/unsubscribe`) when the last lets go. The
 * upstream's `notifications/resources/updated` goes to each holder that subscribed that URI, and onto the
 * event bus, whose listen streams pass it on only where their filter names the URI.
 */
import type { ServerEventBus } from '@modelcontextprotocol/server';
import type { MCPClient, MCPServers } from '../mcp/for-gateway.js';

/** Who holds subscriptions: a 2025-era connection's instance, or one listen stream. */
export interface SubscriptionHolder {
  /** Tells the holder that `uri` changed (a 2025 holder sends `notifications/resources/updated`). */
  updated(uri: string): void;
}

interface Upstream {
  client: MCPClient;
  holders: Set<SubscriptionHolder>;
}

/** The gateway's resource subscriptions; see the file header. */
export class ResourceSubscriptions {
  readonly #bus: ServerEventBus;
  // URI → the upstream subscribed for it and the holders that asked.
  readonly #byUri = new Map<string, Upstream>();
  readonly #detach: (() => void)[] = [];

  constructor(servers: MCPServers, bus: ServerEventBus) {
    this.#bus = bus;
    for (const client of servers.clients()) {
      const onUpdated = ({ uri }: { uri: string }) => this.#updated(client, uri);
      client.on('resourceUpdated', onUpdated);
      this.#detach.push(() => client.off('resourceUpdated', onUpdated));
    }
  }

  /**
   * `holder` subscribes to `uri` of upstream `client`; the first holder of a URI subscribes upstream.
   * @throws MCPCallError the upstream's failure of its `resources/subscribe` (nothing is held then).
   */
  async subscribe(holder: SubscriptionHolder, uri: string, client: MCPClient): Promise<void> {
    const held = this.#byUri.get(uri);
    if (held) {
      held.holders.add(holder);
      return;
    }
    const entry: Upstream = { client, holders: new Set([holder]) };
    this.#byUri.set(uri, entry);
    try {
      await client.subscribeResource(uri);
    } catch (error) {
      if (this.#byUri.get(uri) === entry) this.#byUri.delete(uri);
      throw error;
    }
  }

  /**
   * Subscribes again, on `client`'s new connection, to each URI held at it: a new session holds no
   * subscription of the old one (MCP spec 2025-11-25, "Server Features > Resources > Subscriptions";
   * 2026-07-28, "Subscriptions > Graceful Closure"). Never rejects: a URI it refuses now stays held, and its
   * holders hear nothing more of it.
   */
  renew(client: MCPClient): void {
    for (const [uri, entry] of this.#byUri)
      if (entry.client === client) client.subscribeResource(uri).catch(() => {});
  }

  /** `holder` lets go of `uri`; the last holder's unsubscribe reaches the upstream. Never rejects. */
  async unsubscribe(holder: SubscriptionHolder, uri: string): Promise<void> {
    const held = this.#byUri.get(uri);
    if (!held?.holders.delete(holder) || held.holders.size > 0) return;
    this.#byUri.delete(uri);
    await held.client.unsubscribeResource(uri).catch(() => {
      // An upstream gone meanwhile holds no subscription any more.
    });
  }

  /** Every subscription of `holder` let go (its connection or stream has closed). Never rejects. */
  async release(holder: SubscriptionHolder): Promise<void> {
    const uris = [...this.#byUri].filter(([, held]) => held.holders.has(holder)).map(([uri]) => uri);
    await Promise.all(uris.map((uri) => this.unsubscribe(holder, uri)));
  }

  /**
   * A 2026-07-28 listen subscription's `resourceSubscriptions`: each URI with an owner (`resolve`) is
   * followed at its upstream while the subscription is open. Updates reach HTTP listen streams through the
   * bus; `updated`, when given, is told of them too (a stdio connection's subscription, which the bus does
   * not reach). Returns the subscription's release.
   */
  listen(
    uris: string[],
    resolve: (uri: string) => Promise<MCPClient | undefined>,
    updated: (uri: string) => void = () => {},
  ): () => void {
    const holder: SubscriptionHolder = { updated };
    let released = false;
    const held = Promise.all(
      uris.map(async (uri) => {
        const client = await resolve(uri).catch(() => undefined);
        if (client && !released) await this.subscribe(holder, uri, client).catch(() => {});
      }),
    );
    return () => {
      released = true;
      void held.then(() => this.release(holder));
    };
  }

  /** Stops following the upstreams' notifications. */
  close(): void {
    for (const detach of this.#detach) detach();
    this.#byUri.clear();
  }

  #updated(client: MCPClient, uri: string): void {
    const held = this.#byUri.get(uri);
    // Only the upstream that owns the subscription speaks for its URI.
    if (held?.client !== client) return;
    for (const holder of held.holders) holder.updated(uri);
    this.#bus.publish({ kind: 'resource_updated', uri });
  }
}
