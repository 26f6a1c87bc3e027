/**
 * What one session knows about tasks: which protocol the server speaks (2025-11-25 tasks capability, or the
 * 2026-07-28 tasks extension), each listed tool's `execution.taskSupport`, and so whether and how a
 * `tools/call` runs as a task. The drivers are tasks-legacy.ts, tasks-modern.ts and tasks-run.ts.
 */
import { isRecord } from '../../core/json.js';
import type { MCPTaskSupport } from '../protocol/tasks.js';
import type { CallToolResult, MCPToolDefinition } from '../protocol/types.js';
import type { DirectRequests } from './calls.js';
import type { InputRoundsContext } from './modern-calls.js';
import { createLegacyTask, type LegacyTaskCapabilities, legacyTaskCapabilities } from './tasks-legacy.js';
import { advertisesTasksExtension, createdTask, ModernTaskWire, tasksMeta } from './tasks-modern.js';
import { runTask, type TaskRunContext, type TaskRunOptions } from './tasks-run.js';

/** A task-backed call's options: a request's, and the task's (call-options.ts). */
export type TaskCallOptions = TaskRunOptions & { task?: boolean | undefined };

/** A tool's `execution.taskSupport`; absent means `forbidden` (MCP spec 2025-11-25, "Tools > Tool"). */
function taskSupportOf(tool: MCPToolDefinition): MCPTaskSupport {
  const execution = (tool as { execution?: unknown }).execution;
  const support = isRecord(execution) ? execution.taskSupport : undefined;
  return support === 'optional' || support === 'required' ? support : 'forbidden';
}

/** One session's task support; see the file header. */
export class SessionTasks {
  readonly #support = new Map<string, MCPTaskSupport>();
  readonly #legacy: LegacyTaskCapabilities | undefined;
  /** The `_meta` that declares the extension, when the 2026 server advertised it. */
  readonly #modernMeta: Record<string, unknown> | undefined;

  /**
   * @param era - the connection's era.
   * @param serverCapabilities - the server's capabilities (`initialize` or `server/discover`).
   * @param clientCapabilities - what the client declared, for the extension's per-request declaration.
   */
  constructor(
    era: 'modern' | 'legacy' | undefined,
    serverCapabilities: unknown,
    clientCapabilities: Record<string, object>,
  ) {
    if (era === 'modern') {
      this.#modernMeta = advertisesTasksExtension(serverCapabilities)
        ? tasksMeta(clientCapabilities)
        : undefined;
    } else {
      this.#legacy = legacyTaskCapabilities(serverCapabilities);
    }
  }

  /** Remembers each tool's `execution.taskSupport` from a `tools/list`. */
  learn(tools: readonly MCPToolDefinition[]): void {
    this.#support.clear();
    for (const tool of tools) this.#support.set(tool.name, taskSupportOf(tool));
  }

  /**
   * Why `toolName` cannot be called, if it cannot: it must run as a task and the server did not declare
   * task-augmented `tools/call` (MCP spec 2025-11-25, "Tasks > Tool-Level Negotiation" 1: the client MUST
   * NOT augment then; 2 "required": it MUST).
   */
  refusal(toolName: string): string | undefined {
    if (this.#support.get(toolName) !== 'required') return undefined;
    if (this.#legacy?.toolsCall === true || this.#modernMeta !== undefined) return undefined;
    return 'it must be called as a task (execution.taskSupport "required"), and the server does not declare task-augmented tools/call (capabilities.tasks.requests.tools.call)';
  }

  /** Whether this 2025-era call is sent as a task: a `required` tool, or an `optional` one with `task: true`. */
  legacyTask(toolName: string, options: TaskCallOptions): boolean {
    if (this.#legacy?.toolsCall !== true) return false;
    const support = this.#support.get(toolName);
    return support === 'required' || (support === 'optional' && options.task === true);
  }

  /**
   * The 2025-era task-backed call: create, poll, result (tasks-legacy.ts).
   * @throws what tasks-run.ts and the requests throw.
   */
  async callLegacy(
    direct: DirectRequests,
    params: Record<string, unknown>,
    options: TaskCallOptions,
    context: TaskRunContext,
  ): Promise<CallToolResult> {
    const leg = { signal: options.signal, timeoutMs: options.timeoutMs };
    const { first, wire } = await createLegacyTask(
      direct,
      params,
      this.#legacy as LegacyTaskCapabilities,
      leg,
    );
    return runTask(first, wire, options, context);
  }

  /**
   * What a 2026-era `tools/call` adds to take part in the extension: its `_meta` declaration and the hook
   * that runs a created task; nothing when the server did not advertise the extension.
   */
  modern(
    direct: DirectRequests,
    inputs: InputRoundsContext,
    options: TaskCallOptions,
    context: TaskRunContext,
  ):
    | {
        meta: Record<string, unknown>;
        onTask: (
          created: Record<string, unknown>,
          signal: AbortSignal | undefined,
        ) => Promise<CallToolResult>;
      }
    | undefined {
    const meta = this.#modernMeta;
    if (meta === undefined) return undefined;
    const onTask = (created: Record<string, unknown>, signal: AbortSignal | undefined) =>
      runTask(
        createdTask(created),
        new ModernTaskWire(direct, meta, inputs),
        { ...options, signal },
        context,
      );
    return { meta, onTask };
  }
}
