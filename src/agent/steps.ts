/**
 * Where a run's steps happen. The loop asks for each model turn, each turn's tool calls and each tool call
 * through an {@link AgentSteps}; the default, {@link INLINE_STEPS}, does them right here. A durable runner
 * (agentwire/restate) records each in a journal instead, so that a run resumed in another process gets a
 * completed step's outcome back rather than doing it again.
 */
import type { Tool } from '../core/tool.js';
import type { ToolCallPart, ToolResult } from '../providers/model.js';
import type { AgentEvent, ToolCallInfo } from './events.js';
import type { TurnResponse } from './turn.js';

/** How a step reports events (`text_delta`, `tool_progress`). */
export type EmitEvent = (event: AgentEvent) => void;

/** One tool call about to run: its arguments checked and approved. */
export interface ToolCallStep extends ToolCallInfo {
  turn: number;
  /** Its place among the turn's calls, from 0. */
  index: number;
  tool: Tool;
  /** The arguments it runs with (the approval hook's rewrite, if any). */
  input: Record<string, unknown>;
}

/**
 * The loop's steps. Each hook gets the work as a function and returns what it returns (or the same value
 * recorded earlier); events are reported through the `emit` each hook hands on.
 */
export interface AgentSteps {
  /** One model turn: `request` streams it, reporting its `text_delta`s through the `emit` it is given. */
  modelTurn(
    turn: number,
    emit: EmitEvent,
    request: (emit: EmitEvent) => Promise<TurnResponse>,
  ): Promise<TurnResponse>;
  /**
   * A turn's tool calls: `run` does one (checks, approval, the call itself, its result fitted to the
   * budget) and rejects only when the run is aborted. Resolves with the results in the calls' order.
   */
  toolCalls(
    turn: number,
    calls: readonly ToolCallPart[],
    run: (call: ToolCallPart, index: number) => Promise<ToolResult>,
  ): Promise<ToolResult[]>;
  /**
   * One tool call: `execute` calls the tool, reporting progress through `emit` and handing it
   * `idempotencyKey` (`ToolContext.idempotencyKey`) when given. Resolves with the tool's value; rejects
   * with its failure.
   */
  toolCall(
    step: ToolCallStep,
    emit: EmitEvent,
    execute: (emit: EmitEvent, idempotencyKey?: string) => Promise<unknown>,
  ): Promise<unknown>;
}

/** Every step done at once, in this process: what `Agent` runs with. */
export const INLINE_STEPS: AgentSteps = {
  modelTurn: (_turn, emit, request) => request(emit),
  toolCalls: (_turn, calls, run) => Promise.all(calls.map(run)),
  toolCall: (_step, emit, execute) => execute(emit),
};
