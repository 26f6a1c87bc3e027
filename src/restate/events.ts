/**
 * The run's event log, kept in the virtual object's state: every event once, numbered from 0 (`seq`) across
 * the conversation's runs, readable while a run goes on (the `events` handler) and after a resume.
 *
 * The log grows at fixed points of the run (after each model turn, before waiting for approvals, after each
 * turn's tool calls, at the end): the events since the last point are first journaled as one step, then
 * written to state. A resumed run goes through the same points; where a point's step is in the journal
 * already, its recorded events stand and those the resumed run gathered for that stretch are dropped, so no
 * event is logged twice and none is lost. Events a step produces while it runs (`text_delta`,
 * `tool_progress`) are kept with its outcome and told again when the step is replayed.
 */
import type { ObjectContext, ObjectSharedContext } from '@restatedev/restate-sdk';
import type { AgentEvent, AgentResult } from '../agent/events.js';

/** A tool call waiting for a person's decision (durable approval, see `requireApproval`). */
export interface PendingApproval {
  /** The run (its Restate invocation id). */
  runId: string;
  turn: number;
  toolCallId: string;
  /** The tool's own name. */
  name: string;
  /** The name the model used. */
  modelName: string;
  source: string;
  /** The arguments, as the model gave them (checked). */
  input: Record<string, unknown>;
  /**
   * Resolve it through Restate's ingress with the decision as JSON (`true`, `false`, `{ "action": "deny",
   * "reason": … }`, `{ "action": "rewrite", "input": … }`): `POST /restate/awakeables/<id>/resolve`.
   */
  awakeableId: string;
}

/** A durable run's own event: a tool call now waits for a person. */
export interface ApprovalRequestedEvent extends PendingApproval {
  type: 'approval_requested';
}

/**
 * An event as the log keeps it: an {@link AgentEvent} made plain JSON (an `error` event's error as its name
 * and message; `agent_end`'s result without `messages`, which the `history` handler gives), or an
 * {@link ApprovalRequestedEvent}.
 */
export type LoggedEvent =
  | Exclude<AgentEvent, { type: 'error' } | { type: 'agent_end' }>
  | { type: 'error'; error: { name: string; message: string } }
  | { type: 'agent_end'; result: Omit<AgentResult, 'messages'> }
  | ApprovalRequestedEvent;

/** A logged event with its number in the conversation's log. */
export type SequencedEvent = LoggedEvent & { seq: number };

/** A page of the log: the events from the asked-for `seq` on, and the `seq` to ask for next. */
export interface EventPage {
  events: SequencedEvent[];
  next: number;
}

const COUNT_KEY = 'events';
const CHUNK_PREFIX = 'events/';
const chunkKey = (start: number) => `${CHUNK_PREFIX}${String(start).padStart(12, '0')}`;

/** `event` as the log keeps it. */
export function toLogged(event: AgentEvent): LoggedEvent {
  if (event.type === 'error')
    return { type: 'error', error: { name: event.error.name, message: event.error.message } };
  if (event.type === 'agent_end') {
    const { messages: _messages, ...result } = event.result;
    return { type: 'agent_end', result };
  }
  return event;
}

/** The log as one run attempt writes it. */
export class EventLog {
  readonly #ctx: ObjectContext;
  readonly #onEvent: ((event: SequencedEvent) => void) | undefined;
  /** Events in state. */
  #count = 0;
  /** Events since the last point, with whether `onEvent` has had each. */
  #pending: { event: LoggedEvent; told: boolean }[] = [];

  private constructor(ctx: ObjectContext, onEvent: ((event: SequencedEvent) => void) | undefined) {
    this.#ctx = ctx;
    this.#onEvent = onEvent;
  }

  /** The log of `ctx`'s object, continuing after what its state holds. */
  static async open(ctx: ObjectContext, onEvent?: (event: SequencedEvent) => void): Promise<EventLog> {
    const log = new EventLog(ctx, onEvent);
    log.#count = (await ctx.get<number>(COUNT_KEY)) ?? 0;
    return log;
  }

  /** The number of events in state: the `seq` of the next event once everything pending is written. */
  get count(): number {
    return this.#count;
  }

  /** Adds `event` (an {@link AgentEvent} as the run emits it, or a log event of its own). */
  add(event: AgentEvent | ApprovalRequestedEvent): void {
    const logged = event.type === 'approval_requested' ? event : toLogged(event);
    this.#pending.push({ event: logged, told: false });
  }

  /** Tells `onEvent` at once of the event just added (one a step produced while it ran). */
  tellLatest(): void {
    const index = this.#pending.length - 1;
    const last = this.#pending[index];
    if (last === undefined || last.told) return;
    last.told = true;
    this.#tell(last.event, this.#count + index);
  }

  /**
   * Writes the pending events: journaled as one step, then to state. Resolves once they are in the journal.
   * Does nothing when none are pending (a replay has the same stretches, so the same empty ones).
   */
  async flush(): Promise<void> {
    if (this.#pending.length === 0) return;
    const pending = this.#pending;
    this.#pending = [];
    let ran = false;
    const chunk = await this.#ctx.run('events', () => {
      ran = true;
      return pending.map(({ event }) => event);
    });
    const start = this.#count;
    if (ran) {
      for (const [index, { event, told }] of pending.entries()) if (!told) this.#tell(event, start + index);
    }
    this.#ctx.set(chunkKey(start), chunk);
    this.#count = start + chunk.length;
    this.#ctx.set(COUNT_KEY, this.#count);
  }

  #tell(event: LoggedEvent, seq: number): void {
    try {
      this.#onEvent?.({ ...event, seq });
    } catch {
      // The host's listener failing is not the run's failure.
    }
  }
}

/** The logged events from `from` on (at most `limit`), read from the object's state. */
export async function readEvents(
  ctx: ObjectSharedContext,
  from = 0,
  limit = Number.POSITIVE_INFINITY,
): Promise<EventPage> {
  const count = (await ctx.get<number>(COUNT_KEY)) ?? 0;
  if (from >= count || limit <= 0) return { events: [], next: Math.max(from, 0) };
  const starts = (await ctx.stateKeys())
    .filter((key) => key.startsWith(CHUNK_PREFIX))
    .map((key) => Number(key.slice(CHUNK_PREFIX.length)))
    .sort((a, b) => a - b);
  const first = Math.max(
    0,
    starts.findLastIndex((start) => start <= from),
  );
  const events: SequencedEvent[] = [];
  for (const start of starts.slice(first)) {
    const chunk = (await ctx.get<LoggedEvent[]>(chunkKey(start))) ?? [];
    for (const [index, event] of chunk.entries()) {
      const seq = start + index;
      if (seq >= from && seq < count && events.length < limit) events.push({ ...event, seq });
    }
    if (events.length >= limit) break;
  }
  const last = events.at(-1);
  return { events, next: last === undefined ? from : last.seq + 1 };
}
