/**
 * The approval hook: the place for a human in the loop. It sees every tool call before it runs.
 */
import { isRecord } from '../core/json.js';
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
 * Called once per tool call, concurrently for the calls of one turn. A hook that throws, or returns
 * something that is not an {@link ApprovalDecision} (a rewrite whose `input` is not an object, an unknown
 * `action`, `undefined` from a JavaScript caller), denies the call (fail closed) with a reason saying so.
 * A rewrite's `input` is then checked against the tool's schema like the model's arguments.
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
  return verdictOf(decision as unknown, request.input);
}

/** Reads a decision without trusting its type: hooks may be plain JavaScript. */
function verdictOf(decision: unknown, input: Record<string, unknown>): Verdict {
  if (decision === true) return { allowed: true, input };
  if (decision === false) return { allowed: false, reason: 'denied by the user' };
  if (!isRecord(decision)) return notADecision(describeValue(decision));
  const { action, reason, input: rewritten } = decision;
  if (action === 'allow') return { allowed: true, input };
  if (action === 'deny') {
    return { allowed: false, reason: typeof reason === 'string' ? reason : 'denied by the user' };
  }
  if (action !== 'rewrite') {
    const named = typeof action === 'string' ? JSON.stringify(action.slice(0, 40)) : describeValue(action);
    return notADecision(`an object with action ${named}`);
  }
  if (isRecord(rewritten)) return { allowed: true, input: rewritten };
  return {
    allowed: false,
    reason: `the approval hook's rewrite has no arguments object (input is ${describeValue(rewritten)})`,
  };
}

function notADecision(what: string): Verdict {
  return {
    allowed: false,
    reason: `the approval hook returned ${what}, not true, false or an action "allow", "deny" or "rewrite"`,
  };
}

/** A value's JSON kind, never its content (a rewrite may hold secrets). */
function describeValue(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (isRecord(value)) return 'an object';
  return typeof value === 'undefined' ? 'undefined' : `a ${typeof value}`;
}
