/**
 * The loop, provider-neutral: ask the model, run the tools it calls, hand back the results, until it stops
 * calling tools or `maxTurns` is reached.
 */
import { withSpan } from '../core/telemetry.js';
import type { RunContext as HostRunContext } from '../core/tool.js';
import type { Message, Model, ToolCallPart, ToolResultsMessage, Usage } from '../providers/model.js';
import type { ApproveHook } from './approval.js';
import { AgentAbortError, AgentError } from './errors.js';
import type { AgentEvent, AgentResult } from './events.js';
import { withLinkedSignal } from './linked-signal.js';
import { type AgentSteps, INLINE_STEPS } from './steps.js';
import { systemPrompt } from './system-prompt.js';
import { type AgentTelemetryOptions, agentSpan, describeAgentFailure } from './telemetry.js';
import { executeToolCalls, type ResultBudget } from './tool-execution.js';
import type { ToolRegistry, ToolWarning } from './tool-registry.js';
import { offerTools, type ToolOfferSettings, type ToolSearchState } from './tool-search.js';
import { streamTurn } from './turn.js';

/** What one run needs. `history` is the agent's conversation; the run appends to it. */
export interface RunContext {
  model: Model;
  system: string | undefined;
  maxTurns: number;
  maxTokens: number | undefined;
  /** Bounds of each model request (see `ModelRequest`); omitted ones are the adapter's defaults. */
  modelTimeouts: { idleTimeoutMs?: number; requestTimeoutMs?: number };
  resultBudget: ResultBudget;
  /** Longest `instructions` text taken from one server, in bytes. */
  maxServerInstructionsBytes: number;
  registry: ToolRegistry;
  /** Every tool, or a search above a threshold; the provider's tool count held in both. */
  toolOffer: ToolOfferSettings;
  /** The tools the model loaded with the search tool (kept by the agent across runs). */
  toolSearch: ToolSearchState;
  approve: ApproveHook | undefined;
  history: Message[];
  signal: AbortSignal;
  emit: (event: AgentEvent) => void;
  /** Called with each turn's tool warnings; the agent reports each distinct one once. */
  warn: (warnings: ToolWarning[]) => void;
  /** The agent's spans (telemetry.ts); default on. */
  telemetry?: AgentTelemetryOptions | undefined;
  /** Where model turns and tool calls happen (steps.ts). Default: here, {@link INLINE_STEPS}. */
  steps?: AgentSteps | undefined;
  /** The run's context (`RunOptions.context`), handed to each tool call. */
  runContext?: HostRunContext | undefined;
}

/**
 * Runs `prompt` to the end. What the run leaves in `history`: everything, when it completes, hits
 * `max_turns` (a valid conversation the next run can continue), or is aborted (tool calls left without a
 * result answered as cancelled; a prompt the model never answered taken back); after any other failure (a
 * model request that failed or timed out), `history` is as it was before the run, so the next run does not
 * start with two user messages in a row.
 * @throws {AgentAbortError} when `signal` fires (promptly, even if a tool ignores its signal).
 * @throws {AgentError} kind `max_turns` when the model still calls tools after `maxTurns` turns.
 * @throws the model's `ModelError` when a request fails.
 */
export function runAgent(prompt: string, context: RunContext): Promise<AgentResult> {
  const spec = agentSpan(context.model, context.telemetry);
  return withSpan(
    spec,
    async (span) => {
      const result = await runRestoring(prompt, context);
      span.set('gen_ai.usage.input_tokens', result.usage?.inputTokens);
      span.set('gen_ai.usage.output_tokens', result.usage?.outputTokens);
      return result;
    },
    describeAgentFailure,
  );
}

async function runRestoring(prompt: string, context: RunContext): Promise<AgentResult> {
  const { history } = context;
  const before = history.length;
  try {
    return await runTurns(prompt, context);
  } catch (error) {
    if (error instanceof AgentAbortError || context.signal.aborted) {
      closeOpenToolCalls(history);
      if (history.length === before + 1) history.length = before;
    } else if (!(error instanceof AgentError && error.kind === 'max_turns')) {
      history.length = before;
    }
    throw error;
  }
}

async function runTurns(prompt: string, context: RunContext): Promise<AgentResult> {
  const { history, signal, emit } = context;
  emit({ type: 'agent_start', prompt });
  history.push({ role: 'user', content: prompt });
  let usage: Usage | undefined;
  for (let turn = 1; turn <= context.maxTurns; turn += 1) {
    throwIfAborted(signal);
    // A server that announced new tools (`tools/list_changed`) before answering a call is listed again
    // before the model is asked, so the model sees the tools the server has now.
    await raceAbort(context.registry.settled(), signal);
    const built = context.registry.build(context.model);
    const { table, warnings } = offerTools(built, context.model, context.toolOffer, context.toolSearch);
    context.warn([...built.warnings, ...warnings]);
    emit({ type: 'turn_start', turn });
    const system = systemPrompt(
      context.system,
      context.registry.instructions(),
      context.maxServerInstructionsBytes,
    );
    const request = {
      messages: history,
      tools: table.specs,
      ...(system ? { system } : {}),
      ...(context.maxTokens === undefined ? {} : { maxTokens: context.maxTokens }),
      ...context.modelTimeouts,
    };
    // Its own signal per request: the vendor SDKs never remove the abort listener they add to it.
    const steps = context.steps ?? INLINE_STEPS;
    const response = await withLinkedSignal(signal, (requestSignal) =>
      steps.modelTurn(turn, emit, (stepEmit) =>
        streamTurn(context.model, { ...request, signal: requestSignal }, turn, stepEmit, context.telemetry),
      ),
    ).catch((error: unknown) => {
      throw signal.aborted ? new AgentAbortError(signal.reason) : error;
    });
    history.push(response.message);
    usage = addUsage(usage, response.usage);
    const calls = response.message.content.filter((p): p is ToolCallPart => p.type === 'tool_call');
    if (calls.length > 0) {
      const results = await raceAbort(executeToolCalls(calls, { ...context, table, turn }), signal);
      history.push({ role: 'tool', results });
    }
    const { message, stopReason } = response;
    emit({
      type: 'turn_end',
      turn,
      message,
      stopReason,
      ...(response.usage ? { usage: response.usage } : {}),
    });
    if (calls.length === 0) {
      const text = message.content.flatMap((p) => (p.type === 'text' ? [p.text] : [])).join('');
      const result: AgentResult = { text, messages: [...history], turns: turn, stopReason };
      if (usage) result.usage = usage;
      emit({ type: 'agent_end', result });
      return result;
    }
  }
  throw new AgentError(
    'max_turns',
    `the model was still calling tools after ${context.maxTurns} turns (maxTurns)`,
  );
}

function throwIfAborted(signal: AbortSignal): void {
  if (signal.aborted) throw new AgentAbortError(signal.reason);
}

/**
 * Settles with `promise`, or rejects with an abort error as soon as `signal` fires. Its one listener is
 * removed when either happens, so turns do not accumulate listeners on the run's signal.
 */
function raceAbort<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(new AgentAbortError(signal.reason));
    if (signal.aborted) return onAbort();
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}

function addUsage(total: Usage | undefined, more: Usage | undefined): Usage | undefined {
  if (more === undefined) return total;
  if (total === undefined) return { ...more };
  return {
    inputTokens: total.inputTokens + more.inputTokens,
    outputTokens: total.outputTokens + more.outputTokens,
  };
}

/**
 * Both vendors refuse a conversation in which a tool call has no result. When a run stops between the
 * model's tool calls and their results (abort, failure), the calls are answered as cancelled so that the
 * history stays usable for the next run.
 */
function closeOpenToolCalls(history: Message[]): void {
  const last = history.at(-1);
  if (last?.role !== 'assistant') return;
  const calls = last.content.filter((p): p is ToolCallPart => p.type === 'tool_call');
  if (calls.length === 0) return;
  const results: ToolResultsMessage = {
    role: 'tool',
    results: calls.map((c) => ({
      toolCallId: c.id,
      name: c.name,
      content: 'Tool call cancelled: the run was stopped before it finished.',
      isError: true,
    })),
  };
  history.push(results);
}
