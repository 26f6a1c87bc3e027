/**
 * Automatic reconnection policy after an unexpected connection loss: exponential backoff with jitter, so that
 * many clients of one restarted server do not reconnect in lockstep.
 */
import { backoffDelayMs } from '../../core/backoff.js';

/** `reconnect` option of `MCPClient`. */
export interface MCPReconnectOptions {
  /** Reconnect automatically after an unexpected loss. Default false. */
  enabled?: boolean;
  /**
   * Attempts before giving up (state `failed`). Default 10. An attempt whose token request was refused
   * (an `MCPOAuthGrantError` in its failure's cause chain) gives up at once: the refusal is final.
   */
  maxRetries?: number;
  /** Delay before the first attempt, in ms. Default 500. */
  initialDelayMs?: number;
  /** Ceiling on the delay, in ms. Default 30 000. */
  maxDelayMs?: number;
}

/** `MCPReconnectOptions` with every default applied. */
export type ReconnectPolicy = Required<MCPReconnectOptions>;

/** Applies the defaults. */
export function reconnectPolicy(options: MCPReconnectOptions | undefined): ReconnectPolicy {
  return {
    enabled: options?.enabled ?? false,
    maxRetries: options?.maxRetries ?? 10,
    initialDelayMs: options?.initialDelayMs ?? 500,
    maxDelayMs: options?.maxDelayMs ?? 30_000,
  };
}

/**
 * The delay before attempt `attempt` (1-based), in ms: the policy's exponential backoff
 * (`initialDelayMs · 2^(attempt-1)`, capped at `maxDelayMs`; core/backoff.ts) with equal jitter.
 * `random` is injectable for tests.
 */
export function backoffDelay(
  policy: ReconnectPolicy,
  attempt: number,
  random: () => number = Math.random,
): number {
  return backoffDelayMs(policy, attempt - 1, random);
}
