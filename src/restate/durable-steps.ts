/**
 * The loop's steps (agent/steps.ts) as Restate journal entries: each model turn one `ctx.run`, each tool
 * call one `ctx.run` (and, for a tool that may not be called twice, a "started" mark before it), each
 * approval a durable promise. A run resumed on any worker gets every completed step's outcome from the
 * journal: no completed model turn is asked again, no completed tool call made again.
 *
 * A tool call whose outcome is not in the journal when its worker stopped is made again only if the tool
 * says that is harmless (`readOnlyHint` or `idempotentHint`) or the host does (`retryInterrupted`);
 * otherwise the model gets an error result saying the call was interrupted and may or may not have taken
 * effect, with the tool's name and arguments. Each call gets an idempotency key derived from the run and
 * the step (`ToolContext.idempotencyKey`), the same on every worker.
 */
import { type ObjectContext, RestatePromise, type RunOptions, TerminalError } from '@restatedev/restate-sdk';
import type { ApproveHook, ToolCallRequest } from '../agent/approval.js';
import type { AgentEvent } from '../agent/events.js';
import type { AgentSteps, EmitEvent, ToolCallStep } from '../agent/steps.js';
import { describeFailure, renderValue } from '../agent/tool-execution.js';
import type { TurnResponse } from '../agent/turn.js';
import { isToolOutput, type ToolOutput } from '../core/tool-output.js';
import { ModelError } from '../providers/errors.js';
import type { ToolCallPart, ToolResult } from '../providers/model.js';
import { approvalSerde, decisionOf } from './approval-answer.js';
import type { EventLog, PendingApproval } from './events.js';
import { TurnCalls } from './turn-calls.js';

/** State key of the approvals waiting for a person. */
export const APPROVALS_KEY = 'approvals';

/** What a durable run's steps need. */
export interface DurableStepsOptions {
  ctx: ObjectContext;
  /** The run's id (its invocation id): the root of each call's idempotency key. */
  runId: string;
  /** This attempt's own random id: a "started" mark written by another attempt means an interrupted call. */
  attempt: string;
  /** Aborted when this attempt ends: nothing it does after that reaches the journal. */
  signal: AbortSignal;
  log: EventLog;
  /** Whether a person decides on this call (a durable promise), or it runs without asking. */
  requireApproval: ((request: ToolCallRequest) => boolean) | undefined;
  /** Whether this call may be made again after an interruption (besides tools annotated so). */
  retryInterrupted: (step: ToolCallStep) => boolean;
  /** Retries of a failed model request. */
  modelRetry: ModelRetry;
}

/** How a failed model request is tried again within the run (Restate's `ctx.run` retry options). */
export type ModelRetry = Pick<
  RunOptions<unknown>,
  | 'maxRetryAttempts'
  | 'maxRetryDuration'
  | 'initialRetryInterval'
  | 'maxRetryInterval'
  | 'retryIntervalFactor'
>;

/** A model turn as journaled: the response and the events it streamed. */
interface TurnRecord {
  response: TurnResponse;
  events: AgentEvent[];
}

/** A tool call as journaled. */
type CallRecord =
  | { value: string | ToolOutput; events: AgentEvent[] }
  | { error: string; events: AgentEvent[] }
  | { interrupted: true };

/** A call ready to run, as phase 3 needs it. */
interface ReadyCall {
  step: ToolCallStep;
  emit: EmitEvent;
  execute: (emit: EmitEvent, idempotencyKey?: string) => Promise<unknown>;
}

/** The steps of one attempt of a durable run. */
export class DurableSteps implements AgentSteps {
  readonly #options: DurableStepsOptions;
  #turn: TurnCalls<ToolCallRequest, ReadyCall> | undefined;
  /** Turns whose approvals are listed in state, until their calls run. */
  readonly #approvalsListed = new Set<number>();

  constructor(options: DurableStepsOptions) {
    this.#options = options;
  }

  /** The approval hook of the run: a durable promise per call that needs a person, else allowed. */
  get approve(): ApproveHook | undefined {
    if (this.#options.requireApproval === undefined) return undefined;
    return (request) => {
      const turn = this.#currentTurn();
      return turn.approval(turn.claim(request.toolCallId), request).then(decisionOf);
    };
  }

  async modelTurn(
    turn: number,
    emit: EmitEvent,
    request: (emit: EmitEvent) => Promise<TurnResponse>,
  ): Promise<TurnResponse> {
    const { ctx, log, signal } = this.#options;
    let ran = false;
    const record = await ctx.run<TurnRecord>(
      `model turn ${turn}`,
      async () => {
        ran = true;
        const events: AgentEvent[] = [];
        try {
          const response = await request(recording(events, emit, log));
          return { response, events };
        } catch (error) {
          throw signal.aborted ? error : modelFailure(error);
        }
      },
      this.#options.modelRetry,
    );
    if (!ran) for (const event of record.events) emit(event);
    await log.flush();
    return record.response;
  }

  async toolCalls(
    turn: number,
    calls: readonly ToolCallPart[],
    run: (call: ToolCallPart, index: number) => Promise<ToolResult>,
  ): Promise<ToolResult[]> {
    const tools = new TurnCalls<ToolCallRequest, ReadyCall>(calls, {
      approvals: (waiting) => this.#askApprovals(turn, waiting),
      run: (ready) => this.#runCalls(turn, ready),
    });
    this.#turn = tools;
    try {
      const results = await Promise.all(
        calls.map(async (call, index) => {
          try {
            return await run(call, index);
          } finally {
            tools.done(index);
          }
        }),
      );
      await this.#options.log.flush();
      return results;
    } finally {
      this.#turn = undefined;
    }
  }

  toolCall(
    step: ToolCallStep,
    emit: EmitEvent,
    execute: (emit: EmitEvent, idempotencyKey?: string) => Promise<unknown>,
  ): Promise<unknown> {
    return this.#currentTurn().ready(step.index, { step, emit, execute });
  }

  #currentTurn(): TurnCalls<ToolCallRequest, ReadyCall> {
    if (this.#turn === undefined) throw new Error('a tool call outside of its turn');
    return this.#turn;
  }

  /** Phase 1: a durable promise for each call a person decides, listed in state and in the log. */
  async #askApprovals(
    turn: number,
    waiting: readonly { index: number; request: ToolCallRequest; resolve: (answer: unknown) => void }[],
  ): Promise<void> {
    const { ctx, log, runId, requireApproval } = this.#options;
    const asked: { resolve: (answer: unknown) => void; answer: RestatePromise<unknown> }[] = [];
    const pending: PendingApproval[] = [];
    for (const { request, resolve } of waiting) {
      if (requireApproval?.(request) !== true) {
        resolve(true);
        continue;
      }
      const { id, promise } = ctx.awakeable(approvalSerde);
      const { toolCallId, name, modelName, source, input } = request;
      const approval = { runId, turn, toolCallId, name, modelName, source, input, awakeableId: id };
      pending.push(approval);
      log.add({ type: 'approval_requested', ...approval });
      asked.push({ resolve, answer: promise });
    }
    if (asked.length === 0) return;
    ctx.set(APPROVALS_KEY, pending);
    this.#approvalsListed.add(turn);
    await log.flush();
    await settleEach(
      asked.map(({ answer }) => answer),
      (index, outcome) => {
        const { resolve } = asked[index]!;
        if (outcome.status === 'fulfilled') resolve(outcome.value);
        else resolve({ action: 'deny', reason: rejectionReason(outcome.reason) });
      },
    );
  }

  /** Phases 2 and 3: the "started" marks, then the calls, each in the calls' order. */
  async #runCalls(
    turn: number,
    ready: readonly { index: number; work: ReadyCall; settle: (outcome: Promise<unknown>) => void }[],
  ): Promise<void> {
    const { ctx, attempt } = this.#options;
    if (this.#approvalsListed.delete(turn)) ctx.set(APPROVALS_KEY, []);
    const marks = ready.map(({ index, work }) =>
      this.#mayRepeat(work.step) ? undefined : ctx.run(`tool ${turn}.${index} started`, () => attempt),
    );
    const started: (string | undefined)[] = [];
    for (const mark of marks) started.push(mark === undefined ? undefined : await mark);
    const runs = ready.map(({ work }, position) => this.#call(work, started[position]));
    await settleEach(
      runs.map(({ record }) => record),
      (position, outcome) => {
        const { settle } = ready[position]!;
        const { outcomeOf } = runs[position]!;
        settle(outcome.status === 'fulfilled' ? outcomeOf(outcome.value) : Promise.reject(outcome.reason));
      },
    );
  }

  /**
   * One call as a journaled step, started now: its record, and how a record becomes the call's outcome.
   * `started` is the attempt that marked the call started, when it needed a mark.
   */
  #call(
    { step, emit, execute }: ReadyCall,
    started: string | undefined,
  ): { record: RestatePromise<CallRecord>; outcomeOf: (record: CallRecord) => Promise<unknown> } {
    const { ctx, log, signal, attempt, runId } = this.#options;
    let ran = false;
    const record = ctx.run<CallRecord>(`tool ${step.turn}.${step.index} ${step.name}`, async () => {
      ran = true;
      if (started !== undefined && started !== attempt) return { interrupted: true };
      const events: AgentEvent[] = [];
      try {
        const value = await execute(recording(events, emit, log), idempotencyKey(runId, step));
        return { value: isToolOutput(value) ? value : renderValue(value), events };
      } catch (error) {
        if (signal.aborted) throw error;
        return { error: describeFailure(error), events };
      }
    });
    const outcomeOf = async (done: CallRecord): Promise<unknown> => {
      if ('interrupted' in done) throw new Error(interruptedText(step));
      if (!ran) for (const event of done.events) emit(event);
      if ('error' in done) throw new Error(done.error);
      return done.value;
    };
    return { record, outcomeOf };
  }

  /** Whether `step` may be made again after an interruption. */
  #mayRepeat(step: ToolCallStep): boolean {
    const annotations = (step.tool as Annotated).definition?.annotations;
    if (annotations?.readOnlyHint === true || annotations?.idempotentHint === true) return true;
    return this.#options.retryInterrupted(step);
  }
}

/** An MCP tool's annotations, read without depending on its class (MCP spec 2025-11-25, "Tools"). */
type Annotated = { definition?: { annotations?: { readOnlyHint?: unknown; idempotentHint?: unknown } } };

/**
 * The idempotency key of a call (`ToolContext.idempotencyKey`): the run, the turn and the call's place in
 * it, the same on every attempt and every worker.
 */
export function idempotencyKey(runId: string, step: Pick<ToolCallStep, 'turn' | 'index'>): string {
  return `${runId}/turn-${step.turn}/call-${step.index}`;
}

/** What the model is told of a call interrupted before its outcome was journaled. */
export function interruptedText(step: Pick<ToolCallStep, 'modelName' | 'input'>): string {
  return (
    `Tool call "${step.modelName}" was interrupted: the process making it stopped before its outcome was ` +
    `recorded, so it may or may not have taken effect. It was called with ${JSON.stringify(step.input)}. ` +
    'Check whether it took effect before calling it again.'
  );
}

/**
 * Awaits `promises`, handing each outcome to `settle` as it comes. One combinator at a time: Restate's SDK
 * drives a single awaited promise at a time (two awaited at once fail the attempt), so concurrent steps are
 * awaited together, never each on its own.
 */
async function settleEach<T>(
  promises: readonly RestatePromise<T>[],
  settle: (index: number, outcome: PromiseSettledResult<T>) => void,
): Promise<void> {
  const remaining = new Map(promises.map((promise, index) => [index, promise]));
  while (remaining.size > 0) {
    const tagged = [...remaining].map(([index, promise]) =>
      promise.map((value, failure) => ({ index, value, failure })),
    );
    const first = await RestatePromise.race(tagged);
    remaining.delete(first.index);
    settle(
      first.index,
      first.failure === undefined
        ? { status: 'fulfilled', value: first.value as T }
        : { status: 'rejected', reason: first.failure },
    );
  }
}

/** An emit that also keeps each event with the step's outcome and tells the host's listener at once. */
function recording(events: AgentEvent[], emit: EmitEvent, log: EventLog): EmitEvent {
  return (event) => {
    events.push(event);
    emit(event);
    log.tellLatest();
  };
}

/**
 * A failed model request as the journal should see it: a request the vendor refused for what it is (a 4xx
 * other than 408, 409 and 429, no provider configured) fails the run at once (`TerminalError`); anything
 * else is tried again within the run's `modelRetry`.
 */
function modelFailure(error: unknown): Error {
  if (error instanceof ModelError) {
    const { kind, status } = error;
    const refused =
      kind === 'not_configured' ||
      (kind === 'request_failed' &&
        status !== undefined &&
        status < 500 &&
        ![408, 409, 429].includes(status));
    if (refused) return new TerminalError(`${error.name}: ${error.message}`);
  }
  return error instanceof Error ? error : new Error(String(error));
}

/** The reason of a rejected approval promise (`POST /restate/awakeables/<id>/reject`). */
function rejectionReason(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return message === '' ? 'rejected' : message;
}
