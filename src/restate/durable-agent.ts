/**
 * `durableAgent()`: an agent whose runs survive the process that runs them, as a Restate virtual object
 * keyed by conversation id. A virtual object rather than a workflow: a conversation is a series of runs on
 * one history, which the object keeps in its state across runs, and Restate runs one exclusive handler per
 * key at a time, which is the agent's own rule (one run at a time per conversation); later runs queue. Its
 * shared handlers read the event log, the history and the approvals waiting for a person while a run goes
 * on. A workflow runs its `run` handler once per id: a conversation would need a workflow per prompt and
 * a store of its own for the history.
 *
 * The handlers (ingress path `/<name>/<conversation id>/<handler>`):
 * - `run` `{ prompt }`: runs the agent's loop on the conversation with each model turn and each tool call
 *   a journaled step (durable-steps.ts); resolves with the run's text, turns, stop reason and usage;
 * - `events` `{ from?, limit? }`: the event log from `from` on (events.ts);
 * - `history`: the conversation's messages;
 * - `approvals`: the tool calls waiting for a person;
 * - `reset`: forgets the conversation (history and log).
 *
 * What a worker keeps to itself: the model and its API key, the MCP servers and their connections (stdio
 * processes, HTTP sessions, headers, environments, OAuth tokens), made by the host's `agent` factory on the
 * worker that runs (or resumes) the run, never journaled.
 */
import './polyfill.js';
import { randomUUID } from 'node:crypto';
import * as restate from '@restatedev/restate-sdk';
import { type Agent, promptWithOverrides } from '../agent/agent.js';
import type { ToolCallRequest } from '../agent/approval.js';
import { AgentAbortError } from '../agent/errors.js';
import type { AgentResult } from '../agent/events.js';
import type { ToolCallStep } from '../agent/steps.js';
import type { Message } from '../providers/model.js';
import { APPROVALS_KEY, DurableSteps, type ModelRetry } from './durable-steps.js';
import { EventLog, type EventPage, type PendingApproval, readEvents, type SequencedEvent } from './events.js';

/** Options of {@link durableAgent}. */
export interface DurableAgentOptions {
  /** The virtual object's name: the first part of its ingress paths. Default `agent`. */
  name?: string;
  /**
   * Makes the agent for one attempt of a run, on the worker making it (a resumed run calls it again on the
   * worker that resumes it). Return a new `Agent` each time (one runs at a time); the MCP clients attached
   * to it may be shared by every run of the worker: a client connects when first attached (stdio servers
   * spawned, HTTP sessions negotiated, OAuth tokens read from the host's store), so only on workers that
   * run something. The agent's own `approve` hook is not used: approvals are {@link requireApproval}'s.
   */
  agent: (conversation: { key: string }) => Agent | Promise<Agent>;
  /**
   * The tool calls a person decides on: a durable promise each, listed by the `approvals` handler and the
   * `approval_requested` event, resolved through Restate's ingress from any process
   * (`POST /restate/awakeables/<awakeableId>/resolve` with an `ApprovalDecision` as JSON; `…/reject` denies).
   * The run waits without holding a process: Restate suspends it. `true`: every call; a list: these tools
   * (own or model-facing names); a function: those it returns true for (it must decide from the request
   * alone, the same way on every worker). Default: none.
   */
  requireApproval?: boolean | readonly string[] | ((request: ToolCallRequest) => boolean);
  /**
   * Tools whose interrupted calls are made again, besides those annotated `readOnlyHint` or
   * `idempotentHint`: a list of names (own or model-facing), or a function of the call. Default: none.
   */
  retryInterrupted?: readonly string[] | ((step: ToolCallStep) => boolean);
  /**
   * How a model request that failed is tried again within the run (a refused one, a 4xx other than 408, 409
   * and 429, fails the run at once). Default: 3 attempts, 1 s apart at first.
   */
  modelRetry?: ModelRetry;
  /**
   * Told of each event on the worker, as soon as it happens (a model turn's `text_delta`s as they stream)
   * or, for the others, once journaled, with its `seq` in the log. After a resume an event may be told again
   * with the same `seq` (and a turn asked again may stream other text): the `events` handler is the record.
   */
  onEvent?: (event: SequencedEvent, conversation: string) => void;
  /** Restate's options of the object (retry policy, timeouts, retention…). */
  options?: restate.ObjectOptions;
}

/** What the `run` handler takes. */
export interface DurableRunRequest {
  prompt: string;
}

/** What the `run` handler resolves with: the run's result without the messages (see `history`). */
export interface DurableRunResult extends Omit<AgentResult, 'messages'> {
  /** The run's id (its Restate invocation id): the root of its tool calls' idempotency keys. */
  runId: string;
  /** The run's events in the log: `from` ≤ seq < `next`. */
  events: { from: number; next: number };
}

const HISTORY_KEY = 'history';
const DEFAULT_MODEL_RETRY: ModelRetry = { maxRetryAttempts: 3, initialRetryInterval: 1_000 };

/** The agent as a Restate virtual object: bind it to an endpoint (`restate.serve({ services: [it] })`). */
export function durableAgent(options: DurableAgentOptions) {
  const requireApproval = approvalRule(options.requireApproval);
  const retryInterrupted = retryRule(options.retryInterrupted);
  return restate.object({
    name: options.name ?? 'agent',
    handlers: {
      run: async (ctx: restate.ObjectContext, request: DurableRunRequest): Promise<DurableRunResult> => {
        if (typeof request?.prompt !== 'string')
          throw new restate.TerminalError('run takes { "prompt": string }');
        const signal = ctx.request().attemptCompletedSignal;
        const runId = ctx.request().id;
        const onEvent = options.onEvent;
        const log = await EventLog.open(ctx, onEvent && ((event) => onEvent(event, ctx.key)));
        const from = log.count;
        const history = (await ctx.get<Message[]>(HISTORY_KEY)) ?? [];
        const steps = new DurableSteps({
          ctx,
          runId,
          attempt: randomUUID(),
          signal,
          log,
          requireApproval,
          retryInterrupted,
          modelRetry: options.modelRetry ?? DEFAULT_MODEL_RETRY,
        });
        const agent = await options.agent({ key: ctx.key });
        let result: AgentResult | undefined;
        try {
          const overrides = { history, steps, approve: steps.approve, observe: log.add.bind(log) };
          for await (const event of promptWithOverrides(agent, request.prompt, { signal }, overrides)) {
            if (event.type === 'agent_end') result = event.result;
          }
        } catch (error) {
          // An attempt that ended (the worker stopping, Restate suspending the run) records nothing more.
          if (signal.aborted || error instanceof AgentAbortError) throw error;
          ctx.set(HISTORY_KEY, history);
          await log.flush();
          throw error instanceof restate.TerminalError ? error : new restate.TerminalError(describe(error));
        } finally {
          await agent.close().catch(() => {});
        }
        if (result === undefined) throw new restate.TerminalError('the run ended without a result');
        ctx.set(HISTORY_KEY, history);
        await log.flush();
        const { messages: _messages, ...rest } = result;
        return { ...rest, runId, events: { from, next: log.count } };
      },
      events: restate.handlers.object.shared(
        async (
          ctx: restate.ObjectSharedContext,
          page?: { from?: number; limit?: number },
        ): Promise<EventPage> => readEvents(ctx, page?.from ?? 0, page?.limit),
      ),
      history: restate.handlers.object.shared(
        async (ctx: restate.ObjectSharedContext): Promise<Message[]> =>
          (await ctx.get<Message[]>(HISTORY_KEY)) ?? [],
      ),
      approvals: restate.handlers.object.shared(
        async (ctx: restate.ObjectSharedContext): Promise<PendingApproval[]> =>
          (await ctx.get<PendingApproval[]>(APPROVALS_KEY)) ?? [],
      ),
      reset: async (ctx: restate.ObjectContext): Promise<void> => {
        ctx.clearAll();
      },
    },
    ...(options.options === undefined ? {} : { options: options.options }),
  });
}

/** The `requireApproval` option as a predicate; undefined when no call needs a person. */
function approvalRule(
  rule: DurableAgentOptions['requireApproval'],
): ((request: ToolCallRequest) => boolean) | undefined {
  if (rule === undefined || rule === false) return undefined;
  if (rule === true) return () => true;
  if (typeof rule === 'function') return rule;
  const names = new Set(rule);
  return (request) => names.has(request.name) || names.has(request.modelName);
}

function retryRule(rule: DurableAgentOptions['retryInterrupted']): (step: ToolCallStep) => boolean {
  if (rule === undefined) return () => false;
  if (typeof rule === 'function') return rule;
  const names = new Set(rule);
  return (step) => names.has(step.name) || names.has(step.modelName);
}

function describe(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  return error.name && error.name !== 'Error' ? `${error.name}: ${error.message}` : error.message;
}
