/**
 * The approval hook: the place for a human in the loop. It sees every tool call before it runs.
 */
import type { Tool } from '../core/tool.js';

/** A tool call awaiting approval. */
export interface ToolCallRequest {
  toolCallId: string;
  /** The tool's own name (an MCP tool's name on its server). */
  name: string;
  /** The name the model used. */
  modelName: string;
  /** An MCP server's name, `builtin`, or `local`. */
  source: string;
  /** The arguments, parsed and checked. */
  input: Record<string, unknown>;
  tool: Tool;
  /** The run's signal: a hook waiting for a human should give up when it fires. */
  signal: AbortSignal;
}

/**
 * What the hook decides: `true` / `{ action: 'allow' }` runs the call; `false` / `{ action: 'deny', reason }`
 * does not, and the model gets an error result with the reason; `{ action: 'rewrite', input }` runs the call
 * with other arguments.
 */
export type ApprovalDecision =
  | boolean
  | { action: 'allow' }
  | { action: 'deny'; reason?: string }
  | { action: 'rewrite'; input: Record<string, unknown> };

/**
 * Called once per tool call, concurrently for the calls of one turn. A hook that throws denies the call
 * (fail closed) with the error's message as the reason.
 */
export type ApproveHook = (request: ToolCallRequest) => ApprovalDecision | Promise<ApprovalDecision>;

/** The decision in one shape: the input to run with, or the reason for refusing. */
export type Verdict = { allowed: true; input: Record<string, unknown> } | { allowed: false; reason: string };

/** Asks `hook` (when there is one) about `request`. */
export async function askApproval(hook: ApproveHook | undefined, request: ToolCallRequest): Promise<Verdict> {
  if (hook === undefined) return { allowed: true, input: request.input };
  let decision: ApprovalDecision;
  try {
    decision = await hook(request);
  } catch (error) {
    const why = error instanceof Error ? error.message : String(error);
    return { allowed: false, reason: `the approval hook failed: ${why}` };
  }
  if (decision === true) return { allowed: true, input: request.input };
  if (decision === false) return { allowed: false, reason: 'denied by the user' };
  if (decision.action === 'allow') return { allowed: true, input: request.input };
  if (decision.action === 'rewrite') return { allowed: true, input: decision.input };
  return { allowed: false, reason: decision.reason ?? 'denied by the user' };
}
