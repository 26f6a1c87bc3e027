/**
 * The client's memory of which era a server speaks, by HTTP origin or stdio command line, so that a
 * reconnect does not probe again (MCP spec 2026-07-28, "Basic > Versioning > Backward Compatibility": a
 * client caches the era "for the lifetime of the server process (stdio) or origin (HTTP)", MAY keep it
 * "across restarts of the same server configuration", and re-probes if it later fails).
 *
 * - A legacy verdict sends `initialize` at once: no `server/discover`, no extra round trip, and for a stdio
 *   server that ignores the probe no wait for its bound.
 * - A modern verdict probes at the revision agreed before (no -32022 correction round), or, while its
 *   `DiscoverResult` is fresh (its `ttlMs`, MCP spec 2026-07-28, "Server > Utilities > Caching"), adopts
 *   that result and sends nothing.
 * - When a connect that used a verdict is refused ({@link refusedByServer}), the verdict is dropped and the
 *   connect runs again, once, with a probe.
 * Only `'auto'` reads legacy verdicts: a pin decides the era itself. One {@link EraVerdicts} belongs to one
 * `MCPClient` and lives as long as it.
 */
import type { DiscoverResult, PriorDiscovery } from '@modelcontextprotocol/client';
import { MCPCallError } from '../../protocol/errors.js';
import { MAX_CACHE_TTL_MS } from '../request-options.js';

/** What an origin was found to speak. */
export type EraVerdict =
  | { era: 'legacy' }
  | {
      era: 'modern';
      /** The revision both sides speak. */
      version: string;
      discover: DiscoverResult;
      /** `performance.now()` after which `discover` is stale. */
      staleAt: number;
    };

/** One origin's verdict, as negotiation sees it. */
export interface VerdictSlot {
  /** The stored verdict; reading one marks it used by the connect under way. */
  get(): EraVerdict | undefined;
  set(verdict: EraVerdict): void;
}

/** The verdicts of one client, by origin (see the file header). */
export class EraVerdicts {
  readonly #verdicts = new Map<string, EraVerdict>();
  /** The origins whose stored verdict the connect under way relied on. */
  readonly #used = new Set<string>();

  /** The slot of `origin` (e.g. `http://127.0.0.1:3000`, or a stdio command line). */
  slot(origin: string): VerdictSlot {
    return {
      get: () => {
        const verdict = this.#verdicts.get(origin);
        if (verdict) this.#used.add(origin);
        return verdict;
      },
      set: (verdict) => {
        this.#verdicts.set(origin, verdict);
      },
    };
  }

  /**
   * Runs one connect `attempt`; when it fails with a refusal ({@link refusedByServer}) after relying on a
   * stored verdict, drops that verdict and runs `attempt` again, once, which probes.
   */
  async connect<T>(attempt: () => Promise<T>): Promise<T> {
    this.#used.clear();
    try {
      return await attempt();
    } catch (error) {
      if (this.#used.size === 0 || !refusedByServer(error)) throw error;
      for (const origin of this.#used) this.#verdicts.delete(origin);
      this.#used.clear();
      return attempt();
    }
  }
}

/**
 * The verdict a negotiation reached, for the cache: the era of `prior`, and for the modern one the first of
 * `offered` the server supports and how long its `DiscoverResult` is fresh. `undefined`: nothing was probed.
 */
export function verdictOf(
  prior: PriorDiscovery | undefined,
  offered: readonly string[],
): EraVerdict | undefined {
  if (prior === undefined) return undefined;
  if (prior.kind === 'legacy') return { era: 'legacy' };
  const { discover } = prior;
  const version = offered.find((v) => discover.supportedVersions.includes(v));
  if (version === undefined) return undefined;
  const ttlMs = typeof discover.ttlMs === 'number' && discover.ttlMs > 0 ? discover.ttlMs : 0;
  return { era: 'modern', version, discover, staleAt: performance.now() + Math.min(ttlMs, MAX_CACHE_TTL_MS) };
}

/**
 * Whether `error` says the server no longer speaks what the verdict said: -32022 (unsupported protocol
 * version), -32601 (a method of the other era), or an HTTP 4xx other than 401/403 (which OAuth owns), such
 * as a 2025 server's 400 to a stateless request.
 */
export function refusedByServer(error: unknown): boolean {
  if (!(error instanceof MCPCallError)) return false;
  if (error.code === -32022 || error.code === -32601) return true;
  const status = error.status;
  return status !== undefined && status >= 400 && status < 500 && status !== 401 && status !== 403;
}
