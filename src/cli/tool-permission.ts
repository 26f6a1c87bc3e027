/**
 * Permission before a tool that writes or executes, in `agentwire run`: the built-in `bash`, `write_file`
 * and `edit_file`, and every MCP tool not annotated read-only (MCP spec 2025-11-25, "Tools > Tool
 * Annotations": `readOnlyHint` defaults to false and `destructiveHint` to true, so a tool without
 * annotations may write). Annotations are hints from the server; they decide only whether to ask.
 *
 * `--yes` allows every call; `--allow-tool <pattern>` (repeatable; `*` any run of characters, `?` one)
 * allows the calls of tools whose model-visible name matches. Any other such call is asked about on the
 * terminal, one question at a time: `y` allows it once, `a` allows that tool for the rest of the run, and
 * anything else (or the end of stdin) denies it. Without a terminal the call is denied: the model is told
 * why, and stderr gets one line naming the flags that would allow it. The run goes on either way, since the
 * model may well finish with the read-only tools.
 */
import type { ApprovalDecision, ApproveHook, ToolCallRequest } from '../agent/index.js';
import type { Tool } from '../core/tool.js';
import { toolFilter } from '../mcp/index.js';
import type { HeldOutput } from './held-output.js';
import type { CliIo } from './io.js';

/** The built-in tools that change the workspace or run commands. */
const WRITING_BUILTINS: ReadonlySet<string> = new Set(['bash', 'write_file', 'edit_file']);

/** Longest stretch of a call's arguments shown in the question, in characters. */
const MAX_SHOWN_ARGUMENTS_CHARS = 200;

/** The `run` flags that grant permission without asking. */
export interface ToolPermissionFlags {
  /** `--yes`: every tool call runs without asking. */
  yes?: boolean;
  /** `--allow-tool`: patterns of model-visible tool names that run without asking. */
  allowTool?: readonly string[];
}

type Annotated = { definition?: { annotations?: { readOnlyHint?: unknown; destructiveHint?: unknown } } };

/**
 * Whether a call of `tool` needs the user's permission: a writing built-in, or an MCP tool (an `MCPTool`,
 * or an `MCPPrefixedTool` around one) whose annotations do not say read-only, or say destructive. Other
 * tools (the agent's own tool search, say) never need it.
 */
export function needsPermission(tool: Tool): boolean {
  if (tool.source === 'builtin') return WRITING_BUILTINS.has(tool.name);
  const definition = (tool as Annotated).definition ?? (tool as { tool?: Annotated }).tool?.definition;
  if (definition === undefined) return false;
  const annotations = definition.annotations ?? {};
  return annotations.readOnlyHint !== true || annotations.destructiveHint === true;
}

/** The question asked for `request` on the terminal, ending in the answer prompt. */
export function permissionQuestion(request: ToolCallRequest): string {
  let shown = JSON.stringify(request.input);
  if (shown.length > MAX_SHOWN_ARGUMENTS_CHARS) shown = `${shown.slice(0, MAX_SHOWN_ARGUMENTS_CHARS)}…`;
  return (
    `allow ${request.modelName} [${request.source}] ${shown}?\n` +
    '  y = yes, once; a = always, for the rest of this run; n = no [y/a/N] '
  );
}

/** Why a call is refused without a terminal: what the model is told, and stderr shows. */
export function noTerminalReason(modelName: string): string {
  return (
    `"${modelName}" may write or execute, and there is no terminal to ask for permission: ` +
    `run again with --yes or --allow-tool ${modelName}`
  );
}

/**
 * The approval hook of a run with `flags`, asking on `io.ask` when there is one; `undefined` (no hook: every
 * call runs) for `--yes`. `output`, the run's printer output, is held while a question is open.
 */
export function permissionHook(
  io: CliIo,
  flags: ToolPermissionFlags,
  output?: HeldOutput,
): ApproveHook | undefined {
  if (flags.yes) return undefined;
  const preallowed = toolFilter({ allowTools: flags.allowTool ?? [] });
  const always = new Set<string>();
  // Calls of one turn are approved concurrently; questions on one terminal must come one at a time.
  let queue: Promise<unknown> = Promise.resolve();
  const allowedWithoutAsking = (request: ToolCallRequest) =>
    !needsPermission(request.tool) || preallowed(request.modelName) || always.has(request.modelName);

  return (request) => {
    if (allowedWithoutAsking(request)) return true;
    const { ask } = io;
    if (!ask) {
      const reason = noTerminalReason(request.modelName);
      io.stderr(`refused: ${reason}\n`);
      return { action: 'deny', reason };
    }
    const decided = queue.then(async (): Promise<ApprovalDecision> => {
      // An earlier answer may have been "always" for this very tool.
      if (allowedWithoutAsking(request)) return true;
      // One turn of the event loop first, so the run's `▸` line for this call is printed before the question.
      await new Promise((resolve) => setImmediate(resolve));
      const question = permissionQuestion(request);
      const asked = () => ask(question, request.signal);
      const answer = (await (output ? output.hold(asked) : asked())).trim().toLowerCase();
      if (answer === 'a' || answer === 'always') {
        always.add(request.modelName);
        return true;
      }
      if (answer === 'y' || answer === 'yes') return true;
      return { action: 'deny', reason: 'the user did not allow it' };
    });
    queue = decided.catch(() => undefined);
    return decided;
  };
}
