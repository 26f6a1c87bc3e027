/**
 * Relay of an upstream's questions (elicitation, sampling) to the gateway's client, in the one shape the
 * MCP SDK's server serves to both eras: an `input_required` result (MCP spec 2026-07-28, "Basic > Patterns
 * > Multi Round-Trip Requests"). A 2026-07-28 client answers it by retrying the request with its
 * `inputResponses` and the `requestState`; on a 2025-era connection the SDK's server turns the same result
 * into `elicitation/create` / `sampling/createMessage` requests to the client and retries the handler itself.
 *
 * The upstream call runs on across rounds: the first round starts it and keeps it in memory under a fresh
 * `requestState`; each retry hands the answer to the waiting upstream question and waits for the next
 * question or the result. A question is tied to the call that caused it through the call's async context
 * (2026-07-28 upstreams ask within the call), else to the latest call in flight to that upstream (2025-era
 * upstreams send their requests on their own). The exchange lives in this process only: behind several
 * gateway processes, a retry must reach the process that answered the first round.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { randomUUID } from 'node:crypto';
import type {
  CreateMessageParams,
  CreateMessageResult,
  ElicitParams,
  ElicitResult,
} from '../mcp/protocol/types.js';
import type { MCPServerRequestHandlers } from '../mcp/session/engine/server-requests.js';

/** An input request of an `input_required` result (MCP `InputRequest`). */
export interface GatewayInputRequest {
  method: 'elicitation/create' | 'sampling/createMessage';
  params: Record<string, unknown>;
}

/** An `input_required` result: what the handler returns while the upstream waits for an answer. */
export interface GatewayInputRequired {
  resultType: 'input_required';
  inputRequests: Record<string, GatewayInputRequest>;
  requestState: string;
}

/** What a round of a relayed request sees of the gateway client's request. */
export interface RelayRound {
  /** The request's `requestState`, when it is a retry. */
  requestState: string | undefined;
  /** The request's `inputResponses`, when it is a retry. */
  inputResponses: Record<string, unknown> | undefined;
  /** Aborts when the gateway client cancels this round. */
  signal: AbortSignal;
  /** Whether the client can be asked at all; when not, questions are declined at once. */
  canAsk: boolean;
}

interface Ask {
  request: GatewayInputRequest;
  answer: (response: unknown) => void;
}

interface Exchange {
  server: string;
  canAsk: boolean;
  controller: AbortController;
  settled: Promise<{ ok: true; value: unknown } | { ok: false; error: unknown }>;
  asks: Ask[];
  wake: (() => void) | undefined;
  current: Ask | undefined;
  key: string;
  rounds: number;
  timer: NodeJS.Timeout | undefined;
}

const CANCELLED: ElicitResult = { action: 'cancel' };

/** Relays upstream questions of calls in flight to the gateway client; see the file header. */
export class InputRelay {
  readonly #waitMs: number;
  readonly #pending = new Map<string, Exchange>();
  // Calls in flight per upstream, oldest first: a Set, so that each call's end costs O(1) under load.
  readonly #active = new Map<string, Set<Exchange>>();
  readonly #context = new AsyncLocalStorage<Exchange>();

  /** @param waitMs how long a question waits for the client's retry, in ms; then it is cancelled. */
  constructor(waitMs: number) {
    this.#waitMs = waitMs;
  }

  /** The upstream clients' handlers: each question goes to the call that caused it. */
  handlers(): Pick<MCPServerRequestHandlers, 'onElicitation' | 'onSampling'> {
    return {
      onElicitation: (params: ElicitParams, context) =>
        this.#ask<ElicitResult>(context.server, context.signal, 'elicitation/create', params, CANCELLED),
      onSampling: (params: CreateMessageParams, context) =>
        this.#ask<CreateMessageResult>(context.server, context.signal, 'sampling/createMessage', params),
    };
  }

  /**
   * One round of a relayed request to upstream `server`: the first starts `start(signal)` (the upstream
   * request, aborted when the client cancels it or stops answering), a retry resumes it. Resolves with the
   * upstream's result or the next question as an `input_required` result; rejects with the upstream's error.
   */
  async round<T>(
    server: string,
    round: RelayRound,
    start: (signal: AbortSignal) => Promise<T>,
  ): Promise<T | GatewayInputRequired> {
    const resumed = round.requestState === undefined ? undefined : this.#pending.get(round.requestState);
    let exchange: Exchange;
    if (resumed && resumed.server === server) {
      exchange = resumed;
      this.#pending.delete(round.requestState as string);
      clearTimeout(exchange.timer);
      const ask = exchange.current;
      exchange.current = undefined;
      ask?.answer(round.inputResponses?.[exchange.key]);
    } else {
      exchange = this.#start(server, round.canAsk, start);
    }
    const onAbort = () => exchange.controller.abort(round.signal.reason);
    round.signal.addEventListener('abort', onAbort, { once: true });
    try {
      return (await this.#next(exchange)) as T | GatewayInputRequired;
    } finally {
      round.signal.removeEventListener('abort', onAbort);
    }
  }

  /** Cancels every question waiting for a retry and aborts their upstream calls. */
  close(): void {
    for (const exchange of this.#pending.values()) {
      clearTimeout(exchange.timer);
      exchange.current?.answer(undefined);
      exchange.controller.abort();
    }
    this.#pending.clear();
  }

  #start(server: string, canAsk: boolean, start: (signal: AbortSignal) => Promise<unknown>): Exchange {
    const exchange: Exchange = {
      server,
      canAsk,
      controller: new AbortController(),
      settled: Promise.resolve({ ok: true, value: undefined }),
      asks: [],
      wake: undefined,
      current: undefined,
      key: '',
      rounds: 0,
      timer: undefined,
    };
    const active = this.#active.get(server) ?? new Set<Exchange>();
    this.#active.set(server, active);
    active.add(exchange);
    exchange.settled = this.#context
      .run(exchange, () => start(exchange.controller.signal))
      .then(
        (value) => ({ ok: true as const, value }),
        (error: unknown) => ({ ok: false as const, error }),
      )
      .finally(() => {
        active.delete(exchange);
        if (active.size === 0 && this.#active.get(server) === active) this.#active.delete(server);
        exchange.wake?.();
      });
    return exchange;
  }

  async #next(exchange: Exchange): Promise<unknown> {
    const asked = new Promise<void>((resolve) => {
      exchange.wake = resolve;
      if (exchange.asks.length > 0) resolve();
    });
    const raced = await Promise.race([exchange.settled, asked.then(() => undefined)]);
    exchange.wake = undefined;
    // Woken without a question: the call has ended (its end wakes the waiter too).
    const outcome = raced ?? (exchange.asks.length === 0 ? await exchange.settled : undefined);
    if (outcome) {
      if (outcome.ok) return outcome.value;
      throw outcome.error;
    }
    const ask = exchange.asks.shift() as Ask;
    exchange.rounds += 1;
    exchange.key = `input-${exchange.rounds}`;
    exchange.current = ask;
    const requestState = randomUUID();
    this.#pending.set(requestState, exchange);
    // A client that never retries: its question is cancelled, which lets the upstream call end.
    exchange.timer = setTimeout(() => {
      if (this.#pending.get(requestState) !== exchange) return;
      this.#pending.delete(requestState);
      exchange.current = undefined;
      ask.answer(undefined);
    }, this.#waitMs);
    exchange.timer.unref();
    return {
      resultType: 'input_required',
      inputRequests: { [exchange.key]: ask.request },
      requestState,
    } satisfies GatewayInputRequired;
  }

  #ask<R>(
    server: string,
    signal: AbortSignal,
    method: GatewayInputRequest['method'],
    params: object,
    unanswered?: R,
  ): Promise<R> {
    const own = this.#context.getStore();
    const exchange = own?.server === server ? own : latest(this.#active.get(server));
    const refuse = () =>
      unanswered === undefined
        ? Promise.reject(new Error(`no client of the gateway can answer ${method} for ${server}`))
        : Promise.resolve(unanswered);
    if (!exchange?.canAsk) return refuse();
    return new Promise<R>((resolve, reject) => {
      const answer = (response: unknown) => {
        signal.removeEventListener('abort', onAbort);
        if (response !== undefined) resolve(response as R);
        else if (unanswered !== undefined) resolve(unanswered);
        else reject(new Error(`the gateway's client did not answer ${method} for ${server}`));
      };
      const ask: Ask = { request: { method, params: { ...params } }, answer };
      const onAbort = () => {
        exchange.asks = exchange.asks.filter((one) => one !== ask);
        answer(undefined);
      };
      signal.addEventListener('abort', onAbort, { once: true });
      exchange.asks.push(ask);
      exchange.wake?.();
    });
  }
}

/** The call started last of `active` (a Set iterates in insertion order). */
function latest(active: Set<Exchange> | undefined): Exchange | undefined {
  let last: Exchange | undefined;
  for (const one of active ?? []) last = one;
  return last;
}
