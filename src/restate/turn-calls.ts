/**
 * A turn's tool calls in a durable run. Restate replays a handler by matching each journal operation, in
 * order, with what the handler does; the calls of a turn run at once, and the order in which their
 * approvals come back or their tools finish differs from one attempt to the next. So the operations of a
 * turn are started in phases, each in the calls' order, whatever the timing:
 * 1. once every call has reached its approval (or needs none, or has finished: unknown tool, bad
 *    arguments), the approvals that need a person, each a durable promise (awakeable);
 * 2. once every call is either ready to run or finished (denied), the "started" mark of each call that
 *    may not be made twice;
 * 3. once the marks are journaled, the calls themselves.
 * Between phases, the calls only compute; what they emit is ordered by the event log (events.ts).
 */
import type { ToolCallPart } from '../providers/model.js';

/** How far a call has come. */
type Stage = 'checking' | 'approval' | 'ready' | 'done';

/** What the phases do: given the calls that reached them, in the calls' order. */
export interface TurnPhases<A, R> {
  /** Phase 1: resolves once the approvals are asked for (each `resolve` answers its call later). */
  approvals(
    waiting: readonly { index: number; request: A; resolve: (answer: unknown) => void }[],
  ): Promise<void>;
  /** Phases 2 and 3: each `settle` gets its call's outcome. */
  run(
    ready: readonly { index: number; work: R; settle: (outcome: Promise<unknown>) => void }[],
  ): Promise<void>;
}

interface Waiting<T> {
  index: number;
  value: T;
  resolve: (answer: unknown) => void;
}

/** The calls of one turn, kept in step (see the file's comment). */
export class TurnCalls<A, R> {
  readonly #stages: Stage[];
  readonly #ids: string[];
  readonly #claimed: boolean[];
  readonly #phases: TurnPhases<A, R>;
  readonly #approvals: Waiting<A>[] = [];
  readonly #ready: Waiting<R>[] = [];
  #approvalsStarted = false;
  #runStarted = false;
  #failure: unknown;

  constructor(calls: readonly ToolCallPart[], phases: TurnPhases<A, R>) {
    this.#stages = calls.map(() => 'checking');
    this.#ids = calls.map((call) => call.id);
    this.#claimed = calls.map(() => false);
    this.#phases = phases;
  }

  /**
   * The index of the call with `toolCallId` not yet claimed (models give each call of a turn its own id;
   * with repeated ids, the calls' own order).
   */
  claim(toolCallId: string): number {
    const index = this.#ids.findIndex((id, i) => id === toolCallId && !this.#claimed[i]);
    if (index < 0) throw new Error(`no tool call ${toolCallId} in this turn`);
    this.#claimed[index] = true;
    return index;
  }

  /** Call `index` waits for its approval; resolves with the answer phase 1 gives it. */
  approval(index: number, request: A): Promise<unknown> {
    return this.#wait(this.#approvals, 'approval', index, request);
  }

  /** Call `index` is ready to run; resolves with the outcome phase 3 gives it. */
  ready(index: number, work: R): Promise<unknown> {
    return this.#wait(this.#ready, 'ready', index, work);
  }

  /** Call `index` has its result. */
  done(index: number): void {
    this.#stages[index] = 'done';
    this.#advance();
  }

  #wait<T>(list: Waiting<T>[], stage: Stage, index: number, value: T): Promise<unknown> {
    if (this.#failure !== undefined) return Promise.reject(this.#failure);
    return new Promise((resolve, reject) => {
      list.push({
        index,
        value,
        resolve: (answer) => (answer instanceof Failed ? reject(answer.error) : resolve(answer)),
      });
      this.#stages[index] = stage;
      this.#advance();
    });
  }

  #advance(): void {
    if (!this.#approvalsStarted && this.#stages.every((stage) => stage !== 'checking')) {
      this.#approvalsStarted = true;
      const waiting = this.#sorted(this.#approvals).map(({ index, value, resolve }) => ({
        index,
        request: value,
        resolve,
      }));
      this.#phases.approvals(waiting).catch((error: unknown) => this.#fail(error));
    }
    if (
      this.#approvalsStarted &&
      !this.#runStarted &&
      this.#stages.every((s) => s === 'ready' || s === 'done')
    ) {
      this.#runStarted = true;
      const ready = this.#sorted(this.#ready).map(({ index, value, resolve }) => ({
        index,
        work: value,
        settle: (outcome: Promise<unknown>) =>
          outcome.then(resolve, (error: unknown) => resolve(new Failed(error))),
      }));
      this.#phases.run(ready).catch((error: unknown) => this.#fail(error));
    }
  }

  #sorted<T>(list: Waiting<T>[]): Waiting<T>[] {
    return [...list].sort((a, b) => a.index - b.index);
  }

  /** A phase failed (the attempt ended, a journal mismatch): every call still waiting fails with it. */
  #fail(error: unknown): void {
    this.#failure = error;
    for (const waiting of [...this.#approvals, ...this.#ready]) waiting.resolve(new Failed(error));
  }
}

/** An outcome that is a failure. */
class Failed {
  constructor(readonly error: unknown) {}
}
