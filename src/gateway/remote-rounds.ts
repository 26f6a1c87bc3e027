/**
 * `input_required` rounds (MCP spec 2026-07-28, "Basic > Patterns > Multi Round-Trip Requests") across the
 * processes of one gateway: the upstream call of a relayed request stays on the process that started it
 * (relay.ts), whose id begins the `requestState`. A retry that a balancer sends to another process is
 * forwarded there over the cluster (cluster.ts): `round` carries the `requestState` and the client's
 * `inputResponses`, `round-outcome` brings back the upstream's result, its next question or its error, and
 * `round-cancel` follows a retry the client cancels.
 *
 * What happens to a round whose process died: the upstream call died with it. A retry that reaches a live
 * process finds the owner gone (nobody receives the forward) and starts the request over there: the
 * upstream is called again and asks its question again, the client answers again. A retry already
 * forwarded when the owner dies is answered with a JSON-RPC error, `-32603` with `data.kind`
 * `'process_ended'`, once a liveness check (every {@link LIVENESS_MS} ms) finds the owner gone: it was in
 * flight on the process that ended.
 */
import { randomUUID } from 'node:crypto';
import { ProtocolError } from '@modelcontextprotocol/server';
import { MCPCallError } from '../mcp/for-gateway.js';
import type { ClusterMessage, GatewayCluster } from './cluster.js';
import type { InputRelay, RemoteRoundResumer, RoundOutcome } from './relay.js';
import { upstreamError } from './routing.js';

/** How often a forwarded round checks that its owner still runs, in ms. */
export const LIVENESS_MS = 2_000;

interface Waiting {
  resolve: (outcome: RoundOutcome | 'gone') => void;
  owner: string;
  server: string;
}

/** The forwarding of rounds between processes; see the file header. */
export class RemoteRounds implements RemoteRoundResumer {
  readonly #cluster: GatewayCluster;
  readonly #relay: InputRelay;
  /** Rounds this process forwarded, waiting for their outcome, by correlation id. */
  readonly #waiting = new Map<string, Waiting>();
  /** Rounds resumed here for another process, by correlation id. */
  readonly #running = new Map<string, AbortController>();
  #liveness: NodeJS.Timeout | undefined;

  constructor(cluster: GatewayCluster, relay: InputRelay) {
    this.#cluster = cluster;
    this.#relay = relay;
    relay.setRemote(this);
  }

  get processId(): string {
    return this.#cluster.id;
  }

  async resume(
    owner: string,
    server: string,
    requestState: string,
    inputResponses: Record<string, unknown> | undefined,
    signal: AbortSignal,
  ): Promise<RoundOutcome | 'gone'> {
    if (signal.aborted) return { ok: false, error: signal.reason };
    const corr = randomUUID();
    const outcome = new Promise<RoundOutcome | 'gone'>((resolve) => {
      this.#waiting.set(corr, { resolve, owner, server });
    });
    const sent = await this.#cluster.send(owner, {
      type: 'round',
      corr,
      replyTo: this.#cluster.id,
      server,
      requestState,
      ...(inputResponses !== undefined && { inputResponses }),
    });
    if (!sent) {
      this.#settle(corr, 'gone');
      return outcome;
    }
    this.#watch();
    const onAbort = () => {
      void this.#cluster.send(owner, { type: 'round-cancel', corr });
      this.#settle(corr, { ok: false, error: signal.reason });
    };
    signal.addEventListener('abort', onAbort, { once: true });
    return outcome.finally(() => signal.removeEventListener('abort', onAbort));
  }

  /** Takes a cluster message of this module's; false when it is another's. */
  receive(message: ClusterMessage): boolean {
    switch (message.type) {
      case 'round':
        this.#serve(message);
        return true;
      case 'round-outcome': {
        const { corr } = message;
        if (typeof corr !== 'string') return true;
        const waiting = this.#waiting.get(corr);
        if (!waiting) return true;
        if (message.gone === true) this.#settle(corr, 'gone');
        else if (message.ok === true) this.#settle(corr, { ok: true, value: message.value });
        else this.#settle(corr, { ok: false, error: remoteError(message.error, waiting.server) });
        return true;
      }
      case 'round-cancel':
        if (typeof message.corr === 'string') this.#running.get(message.corr)?.abort();
        return true;
      default:
        return false;
    }
  }

  /** Ends the rounds forwarded from here (their callers get an error) and those resumed for others. */
  close(): void {
    clearInterval(this.#liveness);
    this.#liveness = undefined;
    for (const [corr, waiting] of this.#waiting)
      this.#settle(corr, { ok: false, error: endedError(waiting.server) });
    for (const controller of this.#running.values()) controller.abort();
    this.#running.clear();
  }

  #serve(message: ClusterMessage): void {
    const { corr, replyTo, server, requestState, inputResponses } = message;
    if (typeof corr !== 'string' || typeof replyTo !== 'string') return;
    if (typeof server !== 'string' || typeof requestState !== 'string') return;
    const controller = new AbortController();
    const responses =
      typeof inputResponses === 'object' && inputResponses !== null
        ? (inputResponses as Record<string, unknown>)
        : undefined;
    const outcome = this.#relay.resumeHere(server, requestState, responses, controller.signal);
    if (!outcome) {
      void this.#cluster.send(replyTo, { type: 'round-outcome', corr, gone: true });
      return;
    }
    this.#running.set(corr, controller);
    void outcome.then((settled) => {
      this.#running.delete(corr);
      if (controller.signal.aborted) return;
      const reply: ClusterMessage = settled.ok
        ? { type: 'round-outcome', corr, ok: true, value: settled.value }
        : { type: 'round-outcome', corr, ok: false, error: wireError(settled.error, server) };
      void this.#cluster.send(replyTo, reply);
    });
  }

  #settle(corr: string, outcome: RoundOutcome | 'gone'): void {
    const waiting = this.#waiting.get(corr);
    if (!waiting) return;
    this.#waiting.delete(corr);
    waiting.resolve(outcome);
    if (this.#waiting.size === 0) {
      clearInterval(this.#liveness);
      this.#liveness = undefined;
    }
  }

  /** While rounds wait on other processes, checks that those still run. */
  #watch(): void {
    if (this.#liveness) return;
    this.#liveness = setInterval(() => {
      const owners = new Set([...this.#waiting.values()].map((one) => one.owner));
      for (const owner of owners) {
        void this.#cluster.alive(owner).then((alive) => {
          if (alive) return;
          for (const [corr, waiting] of this.#waiting)
            if (waiting.owner === owner) this.#settle(corr, { ok: false, error: endedError(waiting.server) });
        });
      }
    }, LIVENESS_MS);
    this.#liveness.unref();
  }
}

/**
 * An error as it crosses to another process: the JSON-RPC error the client would get; `refusal` marks the
 * gateway's own (a `ProtocolError`: its upstream is down, upstream-call.ts), which stays one over there.
 */
function wireError(
  error: unknown,
  server: string,
): { code: number; message: string; data?: unknown; refusal?: true } {
  const protocol = error instanceof ProtocolError ? error : upstreamError(error, server);
  return {
    code: protocol.code,
    message: protocol.message,
    ...(protocol.data !== undefined && { data: protocol.data }),
    ...(error instanceof ProtocolError && { refusal: true as const }),
  };
}

/**
 * The error of another process as this one throws it: the gateway's own refusal as the `ProtocolError` it
 * was there (routing.ts and the gate see it as on the process that made it: `unavailable` stays
 * `unavailable`), an upstream JSON-RPC error as one, which routing.ts passes to the client as it is (code,
 * message, data).
 */
function remoteError(error: unknown, server: string): MCPCallError | ProtocolError {
  const { code, message, data, refusal } = (error ?? {}) as {
    code?: unknown;
    message?: unknown;
    data?: unknown;
    refusal?: unknown;
  };
  if (refusal === true && typeof code === 'number' && typeof message === 'string')
    return new ProtocolError(code, message, data);
  return new MCPCallError('jsonrpc', typeof message === 'string' ? message : 'failed', {
    server,
    code: typeof code === 'number' ? code : -32603,
    data,
  });
}

/** The error of a forwarded round whose process ended while it ran. */
function endedError(server: string): MCPCallError {
  return new MCPCallError(
    'jsonrpc',
    `the gateway process holding this request's call to MCP server "${server}" has ended; send the request again`,
    { server, code: -32603, data: { server, kind: 'process_ended' } },
  );
}
