/**
 * Running one turn's tool calls: concurrently, each through argument checks and the approval hook, every
 * failure turned into an error result the model can read and react to, so it can correct itself and try
 * another way (MCP spec 2025-11-25, "Tools > Error Handling"). Only an abort of the run
 * stops the turn.
 */
import { withSpan } from '../core/telemetry.js';
import type { RunContext, ToolProgress } from '../core/tool.js';
import { isToolOutput, type ToolOutputPart } from '../core/tool-output.js';
import { parseToolArguments } from '../providers/json-args.js';
import type { ToolCallPart, ToolResult } from '../providers/model.js';
import { type ApproveHook, askApproval } from './approval.js';
import { checkToolArguments, checkToolInput } from './arguments.js';
import { errorDataSuffix } from './error-data.js';
import type { AgentEvent, ToolCallInfo } from './events.js';
import { withLinkedSignal } from './linked-signal.js';
import { budgetOf, fitParts, fitResult, type ResultBudget } from './result-budget.js';
import { type AgentSteps, type EmitEvent, INLINE_STEPS, type ToolCallStep } from './steps.js';
import { type AgentTelemetryOptions, toolSpan } from './telemetry.js';
import type { ToolTable } from './tool-registry.js';

export type { ResultBudget } from './result-budget.js';

/** What executing a turn's calls needs from the run. */
export interface ToolExecutionContext {
  table: ToolTable;
  turn: number;
  /** The run's signal. Each call (approval hook and tool) gets a signal linked to it, unlinked when done. */
  signal: AbortSignal;
  approve: ApproveHook | undefined;
  emit: (event: AgentEvent) => void;
  /** Bytes (UTF-8) each result may take: the agent's budget, and budgets by tool name. */
  resultBudget: ResultBudget;
  /** The agent's spans: each call runs in an `execute_tool` span (telemetry.ts). */
  telemetry?: AgentTelemetryOptions | undefined;
  /** Where the calls happen (steps.ts). Default: here, {@link INLINE_STEPS}. */
  steps?: AgentSteps | undefined;
  /** The run's context (`RunOptions.context`), handed to each tool as `ToolContext.runContext`. */
  runContext?: RunContext | undefined;
}

/** Runs every call of a turn at once; resolves with one result per call, in the calls' order. */
export function executeToolCalls(
  calls: readonly ToolCallPart[],
  context: ToolExecutionContext,
): Promise<ToolResult[]> {
  const steps = context.steps ?? INLINE_STEPS;
  return steps.toolCalls(context.turn, calls, (call, index) => executeTraced(call, index, context));
}

/** One call inside its `execute_tool` span; an error result is `error.type` `tool_error`. */
function executeTraced(
  call: ToolCallPart,
  index: number,
  context: ToolExecutionContext,
): Promise<ToolResult> {
  const name = context.table.byModelName.get(call.name)?.tool.name ?? call.name;
  return withSpan(toolSpan(name, call.id, context.telemetry), async (span) => {
    const result = await executeOne(call, index, context);
    if (result.isError) span.fail('tool_error');
    return result;
  });
}

async function executeOne(
  call: ToolCallPart,
  index: number,
  context: ToolExecutionContext,
): Promise<ToolResult> {
  const entry = context.table.byModelName.get(call.name);
  const info: ToolCallInfo = {
    toolCallId: call.id,
    name: entry?.tool.name ?? call.name,
    modelName: call.name,
    source: entry?.source ?? 'unknown',
  };
  const finish = async (
    raw: string,
    isError: boolean,
    durationMs = 0,
    parts?: readonly ToolOutputPart[],
  ): Promise<ToolResult> => {
    // Every result is held to the budget, errors too: a failing tool may quote its whole output.
    const maxBytes = budgetOf(context.resultBudget, call.name, entry);
    const content = await fitResult(raw, {
      modelName: call.name,
      toolCallId: call.id,
      schema: entry?.tool.inputSchema ?? { type: 'object' },
      maxBytes,
      spillDir: context.resultBudget.spillDir,
    });
    context.emit({ type: 'tool_end', turn: context.turn, ...info, result: content, isError, durationMs });
    const result: ToolResult = { toolCallId: call.id, name: call.name, content, isError };
    if (parts !== undefined) result.parts = fitParts(parts, content, maxBytes);
    return result;
  };
  const parsed = parseToolArguments(call.arguments);
  context.emit({
    type: 'tool_start',
    turn: context.turn,
    ...info,
    input: parsed ?? {},
    ...(parsed === undefined && { rawArguments: call.arguments }),
  });
  if (entry === undefined) {
    const known = [...context.table.byModelName.keys()].join(', ') || '(none)';
    return finish(`Unknown tool "${call.name}". Available tools: ${known}`, true);
  }
  const checked = checkToolArguments(call.arguments, entry.tool.inputSchema, parsed);
  if (!checked.ok) return finish(`Invalid arguments for tool "${call.name}": ${checked.problem}`, true);
  // Its own signal per call: MCP requests and tools add abort listeners to it that may outlive the call.
  return withLinkedSignal(context.signal, async (signal) => {
    const verdict = await askApproval(context.approve, {
      ...info,
      input: checked.input,
      tool: entry.tool,
      signal,
    });
    if (!verdict.allowed) return finish(`Tool call "${call.name}" was denied: ${verdict.reason}`, true);
    if (verdict.input !== checked.input) {
      // A rewrite gets the same first check as the model's arguments: the hook is code and can be wrong too.
      const rechecked = checkToolInput(verdict.input, entry.tool.inputSchema);
      if (!rechecked.ok) {
        return finish(
          `Invalid arguments for tool "${call.name}" after the approval hook's rewrite: ${rechecked.problem}`,
          true,
        );
      }
    }
    const started = performance.now();
    try {
      const step = { ...info, turn: context.turn, index, tool: entry.tool, input: verdict.input };
      const value = await runTool(step, { ...context, signal });
      const durationMs = Math.round(performance.now() - started);
      if (isToolOutput(value)) return finish(value.text, false, durationMs, value.parts);
      return finish(renderValue(value), false, durationMs);
    } catch (error) {
      return finish(describeFailure(error), true, Math.round(performance.now() - started));
    }
  });
}

/** Calls the tool of `step` through the run's steps (steps.ts). */
function runTool(step: ToolCallStep, context: ToolExecutionContext): Promise<unknown> {
  const { tool, input, turn, toolCallId, name, modelName, source } = step;
  const execute = (emit: EmitEvent, idempotencyKey?: string) => {
    const onProgress = (progress: ToolProgress) =>
      emit({ type: 'tool_progress', turn, toolCallId, name, modelName, source, progress });
    // Media are always asked for: the model's adapter decides what it can send (see `ToolResult.parts`).
    return tool.execute(input, {
      signal: context.signal,
      toolCallId,
      onProgress,
      acceptsMedia: true,
      ...(idempotencyKey === undefined ? {} : { idempotencyKey }),
      ...(context.runContext === undefined ? {} : { runContext: context.runContext }),
    });
  };
  return (context.steps ?? INLINE_STEPS).toolCall(step, context.emit, execute);
}

/** What the model reads for a successful result: strings as they are, anything else as JSON. */
export function renderValue(value: unknown): string {
  if (typeof value === 'string') return value;
  if (value === undefined || value === null) return '';
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
}

/**
 * What the model reads for a failure: the error's class and message (never its stack), and a JSON-RPC
 * error's `data` (compact JSON, bounded), which often says how to fix the call.
 */
export function describeFailure(error: unknown): string {
  if (!(error instanceof Error)) return `Tool failed: ${String(error)}`;
  const text = error.name && error.name !== 'Error' ? `${error.name}: ${error.message}` : error.message;
  return `${text}${errorDataSuffix(error)}`;
}
