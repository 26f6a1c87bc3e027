/**
 * A host's side of a durable agent, through Restate's ingress (HTTP, from any process): start a run, wait
 * for its result, read its events and history, answer its approvals. Only `fetch`; no Restate SDK needed.
 */
import type { ApprovalDecision } from '../agent/approval.js';
import type { Message } from '../providers/model.js';
import type { DurableRunResult } from './durable-agent.js';
import type { EventPage, PendingApproval, SequencedEvent } from './events.js';

/** Options of a {@link DurableAgentClient}. */
export interface DurableAgentClientOptions {
  /** Restate's ingress, e.g. `http://localhost:8080`. */
  ingressUrl: string | URL;
  /** The object's name (`durableAgent({ name })`). Default `agent`. */
  name?: string;
  /** Headers sent with every request (the ingress's own authentication, if any). */
  headers?: Record<string, string>;
}

/** A run started: Restate's id for it. */
export interface StartedRun {
  invocationId: string;
}

/** A request to the ingress answered with an error status. */
export class DurableAgentRequestError extends Error {
  override name = 'DurableAgentRequestError';
  constructor(
    message: string,
    readonly status: number,
  ) {
    super(message);
  }
}

/** Talks to a durable agent through Restate's ingress. */
export class DurableAgentClient {
  readonly #base: string;
  readonly #name: string;
  readonly #headers: Record<string, string>;

  constructor(options: DurableAgentClientOptions) {
    this.#base = String(options.ingressUrl).replace(/\/+$/, '');
    this.#name = options.name ?? 'agent';
    this.#headers = options.headers ?? {};
  }

  /**
   * Starts a run of `prompt` on conversation `key` and returns at once. With `idempotencyKey`, sending the
   * same request again (a retry after a lost answer) starts nothing new: it names the same run.
   */
  async start(key: string, prompt: string, options: { idempotencyKey?: string } = {}): Promise<StartedRun> {
    const headers = options.idempotencyKey === undefined ? {} : { 'idempotency-key': options.idempotencyKey };
    return (await this.#post(`${this.#object(key)}/run/send`, { prompt }, headers)) as StartedRun;
  }

  /** Waits for run `invocationId` to end; resolves with its result, rejects with its failure. */
  async result(invocationId: string, signal?: AbortSignal): Promise<DurableRunResult> {
    const path = `/restate/invocation/${encodeURIComponent(invocationId)}/attach`;
    return (await this.#request('GET', path, undefined, {}, signal)) as DurableRunResult;
  }

  /** Runs `prompt` on conversation `key` to its end. */
  async run(
    key: string,
    prompt: string,
    options: { idempotencyKey?: string } = {},
  ): Promise<DurableRunResult> {
    return this.result((await this.start(key, prompt, options)).invocationId);
  }

  /** The logged events of conversation `key` from `from` on. */
  async events(key: string, from = 0, limit?: number): Promise<EventPage> {
    return (await this.#post(
      `${this.#object(key)}/events`,
      limit === undefined ? { from } : { from, limit },
    )) as EventPage;
  }

  /**
   * The events of conversation `key` from `from` on as they are logged, each once, until `signal` fires or
   * `until` returns true for one (e.g. the run's `agent_end`). Polls every `intervalMs` (default 200).
   */
  async *follow(
    key: string,
    options: {
      from?: number;
      intervalMs?: number;
      signal?: AbortSignal;
      until?: (event: SequencedEvent) => boolean;
    } = {},
  ): AsyncIterableIterator<SequencedEvent> {
    let from = options.from ?? 0;
    while (options.signal?.aborted !== true) {
      const page = await this.events(key, from);
      for (const event of page.events) {
        yield event;
        if (options.until?.(event) === true) return;
      }
      from = page.next;
      if (page.events.length === 0) await sleep(options.intervalMs ?? 200, options.signal);
    }
  }

  /** The messages of conversation `key`. */
  async history(key: string): Promise<Message[]> {
    return (await this.#post(`${this.#object(key)}/history`, null)) as Message[];
  }

  /** The tool calls of conversation `key` waiting for a person. */
  async approvals(key: string): Promise<PendingApproval[]> {
    return (await this.#post(`${this.#object(key)}/approvals`, null)) as PendingApproval[];
  }

  /** Answers an approval (`PendingApproval.awakeableId`): allow, deny with a reason, or rewrite. */
  async decide(awakeableId: string, decision: ApprovalDecision): Promise<void> {
    await this.#post(`/restate/awakeables/${encodeURIComponent(awakeableId)}/resolve`, decision);
  }

  /** Forgets conversation `key` (waits for a run under way to end first). */
  async reset(key: string): Promise<void> {
    await this.#post(`${this.#object(key)}/reset`, null);
  }

  #object(key: string): string {
    return `/${encodeURIComponent(this.#name)}/${encodeURIComponent(key)}`;
  }

  #post(path: string, body: unknown, headers: Record<string, string> = {}): Promise<unknown> {
    return this.#request('POST', path, body, headers);
  }

  async #request(
    method: string,
    path: string,
    body: unknown,
    headers: Record<string, string>,
    signal?: AbortSignal,
  ): Promise<unknown> {
    const response = await fetch(`${this.#base}${path}`, {
      method,
      headers: {
        ...this.#headers,
        ...headers,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      ...(signal === undefined ? {} : { signal }),
    });
    const text = await response.text();
    if (!response.ok) {
      throw new DurableAgentRequestError(
        `${method} ${path}: HTTP ${response.status}: ${text.slice(0, 500)}`,
        response.status,
      );
    }
    return text === '' ? undefined : (JSON.parse(text) as unknown);
  }
}

function sleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(done, ms);
    signal?.addEventListener('abort', done, { once: true });
    function done() {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    }
  });
}
