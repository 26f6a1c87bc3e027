/**
 * Rate limits of `tools/call` through the gateway: per caller (every tool), and per caller and tool for the
 * tools a limit names (by server and name globs, as the access policy names them). Each is a token bucket:
 * `calls` at once at most, refilled evenly over `perSeconds`. A call over a limit is refused before it
 * reaches its upstream with `-32603` and `data: { kind: 'rate_limited', retryAfterMs, limit }`: the same
 * code as every refusal of the gateway's own (`forbidden`, `unavailable`), told apart by `data.kind` (no MCP
 * code exists for it, and one of the implementation-defined range could meet a code a later MCP revision
 * assigns).
 */
import { ProtocolError, ProtocolErrorCode } from '@modelcontextprotocol/server';
import { grantMatcher } from './access-policy.js';
import type { MCPGatewayCaller } from './caller.js';

/** One limit: at most `calls` in any `perSeconds`, refilled evenly. */
export interface MCPGatewayRate {
  calls: number;
  perSeconds: number;
}

/** The rate limits of `tools/call`. */
export interface MCPGatewayRateLimits {
  /** Each caller's calls of every tool together. */
  perCaller?: MCPGatewayRate;
  /** Each caller's calls of each tool that `tools` names (server-name glob → tool-name globs). */
  perTool?: (MCPGatewayRate & { tools: Record<string, string[]> })[];
}

interface Bucket {
  tokens: number;
  at: number;
}

/** Buckets idle this long are full again and forgotten, in ms (a sweep at most this often). */
const SWEEP_MS = 60_000;

/** The gateway's rate limits; see the file header. */
export class RateLimits {
  readonly #limits: MCPGatewayRateLimits;
  readonly #perTool: { rate: MCPGatewayRate; matches: (server: string, name: string) => boolean }[];
  readonly #buckets = new Map<string, Bucket>();
  #swept = Date.now();

  constructor(limits: MCPGatewayRateLimits = {}) {
    this.#limits = limits;
    this.#perTool = (limits.perTool ?? []).map(({ tools, ...rate }) => ({
      rate,
      matches: grantMatcher(tools),
    }));
  }

  /** Takes one call of `caller` to tool `name` of `server`; the refusal when a limit is spent. */
  take(caller: MCPGatewayCaller, server: string, name: string): ProtocolError | undefined {
    const now = Date.now();
    this.#sweep(now);
    const who = `${caller.auth}:${caller.id}`;
    const checks: { key: string; rate: MCPGatewayRate; limit: 'caller' | 'tool' }[] = [];
    if (this.#limits.perCaller) checks.push({ key: who, rate: this.#limits.perCaller, limit: 'caller' });
    for (const [index, { rate, matches }] of this.#perTool.entries())
      if (matches(server, name))
        checks.push({ key: `${who}\0${index}\0${server}\0${name}`, rate, limit: 'tool' });
    // Every bucket is checked before any is spent: a refused call costs nothing.
    for (const check of checks) {
      const tokens = this.#tokens(check.key, check.rate, now);
      if (tokens < 1) {
        const retryAfterMs = Math.ceil(((1 - tokens) * check.rate.perSeconds * 1000) / check.rate.calls);
        return new ProtocolError(
          ProtocolErrorCode.InternalError,
          `Rate limit: at most ${check.rate.calls} calls in ${check.rate.perSeconds} s ${check.limit === 'caller' ? 'per caller' : `of tool "${name}"`}; try again in ${retryAfterMs} ms`,
          { kind: 'rate_limited', retryAfterMs, limit: check.limit },
        );
      }
    }
    for (const check of checks)
      this.#buckets.set(check.key, { tokens: this.#tokens(check.key, check.rate, now) - 1, at: now });
    return undefined;
  }

  #tokens(key: string, rate: MCPGatewayRate, now: number): number {
    const bucket = this.#buckets.get(key);
    if (!bucket) return rate.calls;
    const refill = ((now - bucket.at) / 1000 / rate.perSeconds) * rate.calls;
    return Math.min(rate.calls, bucket.tokens + refill);
  }

  #sweep(now: number): void {
    if (now - this.#swept < SWEEP_MS) return;
    this.#swept = now;
    const longest = Math.max(
      this.#limits.perCaller?.perSeconds ?? 0,
      ...this.#perTool.map(({ rate }) => rate.perSeconds),
    );
    for (const [key, bucket] of this.#buckets)
      if (now - bucket.at > longest * 1000) this.#buckets.delete(key);
  }
}
