/**
 * What one session knows about tasks: which protocol the server speaks (2025-11-25 tasks capability, or the
 * 2026-07-28 tasks extension), each listed tool's `execution.taskSupport`, and so whether and how a
 * `tools/call` runs as a task. The drivers are tasks-legacy.ts, tasks-modern.ts and tasks-run.ts.
 */
import type { Client } from '@modelcontextprotocol/client';
import { isRecord } from '../../../core/json.js';
import { MCPCallError } from '../../protocol/errors.js';
import { type MCPTask, type MCPTaskSupport, readTask } from '../../protocol/tasks.js';
import type { CallToolResult, MCPToolDefinition } from '../../protocol/types.js';
import type { InputRoundsContext } from '../engine/modern-calls.js';
import { anyObjectSchema } from '../engine/result-checks.js';
import type { RequestOptions } from '../request-options.js';
import type { DirectRequests } from '../wire/calls.js';
import {
  createLegacyTask,
  type LegacyTaskCapabilities,
  LegacyTaskWire,
  legacyTaskCapabilities,
} from './tasks-legacy.js';
import { advertisesTasksExtension, createdTask, ModernTaskWire, tasksMeta } from './tasks-modern.js';
import { type MCPTaskPassThrough, taskPassThrough } from './tasks-passthrough.js';
import { cancelTask, getTask, listTasks, type TaskRequestsSetup } from './tasks-requests.js';
import { runTask, TaskRequestError, type TaskRunContext, type TaskRunOptions } from './tasks-run.js';

/** A task-backed call's options: a request's, and the task's (call-options.ts). */
export type TaskCallOptions = TaskRunOptions & { task?: boolean | undefined };

/** A tool's `execution.taskSupport`; absent means `forbidden` (MCP spec 2025-11-25, "Tools > Tool"). */
function taskSupportOf(tool: MCPToolDefinition): MCPTaskSupport {
  const execution = (tool as { execution?: unknown }).execution;
  const support = isRecord(execution) ? execution.taskSupport : undefined;
  return support === 'optional' || support === 'required' ? support : 'forbidden';
}

/** What a session's tasks run on. */
export interface SessionTasksSetup {
  era: 'modern' | 'legacy' | undefined;
  /** The server's capabilities (`initialize` or `server/discover`). */
  serverCapabilities: unknown;
  /** What the client declared, for the extension's per-request declaration. */
  clientCapabilities: Record<string, object>;
  /** The direct request path (calls.ts); without it, no call runs as a task. */
  direct: DirectRequests | undefined;
  /** The handlers that answer a 2026 task's input requests, and the server's name. */
  inputs: InputRoundsContext;
  /** Failures that belong to no call (a cancellation that could not be sent). */
  onError(error: Error): void;
  /** Maps a failure of `method` for `toolName` as the session maps its requests' (error-mapping.ts). */
  fail(error: unknown, method: string, toolName?: string): Error;
}

/** What a 2026-era `tools/call` adds to take part in the extension. */
export interface ModernTaskHooks {
  /** The request's `_meta` declaring the extension. */
  meta: Record<string, unknown>;
  /** Runs a created task to its final result. */
  onTask(created: Record<string, unknown>, signal: AbortSignal | undefined): Promise<CallToolResult>;
}

/** One session's task support; see the file header. */
export class SessionTasks {
  readonly #support = new Map<string, MCPTaskSupport>();
  readonly #legacy: LegacyTaskCapabilities | undefined;
  /** The `_meta` that declares the extension, when the 2026 server advertised it. */
  readonly #modernMeta: Record<string, unknown> | undefined;
  readonly #setup: SessionTasksSetup | undefined;
  /** The calls polling each task, for pushed statuses. */
  readonly #listeners = new Map<string, Set<(task: MCPTask) => void>>();

  /** The task support of the connection `sdk` holds, once it is up. */
  static of(
    sdk: Client,
    clientCapabilities: Record<string, object>,
    direct: DirectRequests | undefined,
    inputs: InputRoundsContext,
    fail: SessionTasksSetup['fail'],
  ): SessionTasks {
    const onError = (error: Error) => sdk.onerror?.(error);
    const era = sdk.getProtocolEra();
    const tasks = new SessionTasks({
      era,
      serverCapabilities: sdk.getServerCapabilities(),
      ...{ clientCapabilities, direct, inputs, onError, fail },
    });
    // MCP spec 2025-11-25, "Tasks > Task Status Notification": the full task, pushed when it changes.
    if (era !== 'modern')
      sdk.setNotificationHandler('notifications/tasks/status', { params: anyObjectSchema }, (params) =>
        tasks.#pushed(params),
      );
    return tasks;
  }

  /** Hands a pushed task to the calls polling it; a malformed one is left to the polls. */
  #pushed(params: unknown): void {
    const task = isRecord(params) ? readTask(params) : undefined;
    if (task === undefined || typeof task === 'string') return;
    for (const listener of this.#listeners.get(task.taskId) ?? []) listener(task);
  }

  #subscribe(taskId: string, listener: (task: MCPTask) => void): () => void {
    const listeners = this.#listeners.get(taskId) ?? new Set();
    this.#listeners.set(taskId, listeners.add(listener));
    return () => {
      listeners.delete(listener);
      if (listeners.size === 0) this.#listeners.delete(taskId);
    };
  }

  /** Without `setup` (before a connection is up): no task support. */
  constructor(setup?: SessionTasksSetup) {
    this.#setup = setup;
    if (setup?.direct === undefined) return;
    if (setup.era === 'modern') {
      this.#modernMeta = advertisesTasksExtension(setup.serverCapabilities)
        ? tasksMeta(setup.clientCapabilities)
        : undefined;
    } else {
      this.#legacy = legacyTaskCapabilities(setup.serverCapabilities);
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
  async callLegacy(params: Record<string, unknown>, options: TaskCallOptions): Promise<CallToolResult> {
    const leg = { signal: options.signal, timeoutMs: options.timeoutMs };
    const direct = this.#setup?.direct as DirectRequests;
    const legacy = this.#legacy as LegacyTaskCapabilities;
    const { first, wire } = await createLegacyTask(direct, params, legacy, leg);
    return (
      (await options.onTaskCreated?.(first.raw)) ??
      runTask(first, wire, options, this.#context(String(params.name)))
    );
  }

  /** The 2026-era hooks (tasks-modern.ts); undefined when the server did not advertise the extension. */
  modern(toolName: string, options: TaskCallOptions): ModernTaskHooks | undefined {
    const meta = this.#modernMeta;
    const setup = this.#setup;
    if (meta === undefined || setup?.direct === undefined) return undefined;
    const wire = new ModernTaskWire(setup.direct, meta, setup.inputs);
    const onTask = async (created: Record<string, unknown>, signal: AbortSignal | undefined) =>
      (await options.onTaskCreated?.(created)) ??
      runTask(createdTask(created), wire, { ...options, signal }, this.#context(toolName));
    return { meta, onTask };
  }

  /**
   * Polls a task created on an earlier connection to its end, on this one: a reconnect does not end a task
   * the server keeps (MCP spec 2025-11-25, "Tasks > TTL and Resource Management"; the extension's task id
   * is a durable handle).
   * @throws MCPCallError kind `protocol` when this connection runs no tasks; what tasks-run.ts and the
   *   requests throw (a task the server no longer knows: kind `jsonrpc`).
   */
  async resume(taskId: string, toolName: string, options: TaskCallOptions): Promise<CallToolResult> {
    const setup = this.#setup;
    const direct = setup?.direct;
    let wire: ModernTaskWire | LegacyTaskWire | undefined;
    if (direct !== undefined && this.#modernMeta !== undefined)
      wire = new ModernTaskWire(direct, this.#modernMeta, (setup as SessionTasksSetup).inputs);
    else if (direct !== undefined && this.#legacy?.toolsCall === true)
      wire = new LegacyTaskWire(direct, this.#legacy);
    const where = { server: setup?.inputs.server, method: 'tasks/get', toolName, taskId };
    if (wire === undefined)
      throw new MCPCallError(
        'protocol',
        'the server no longer declares tasks, so the task cannot be resumed',
        where,
      );
    const leg = { signal: options.signal, timeoutMs: options.timeoutMs };
    try {
      return await runTask(await wire.get(taskId, leg), wire, options, this.#context(toolName));
    } catch (error) {
      throw (setup as SessionTasksSetup).fail(new TaskRequestError(taskId, error), 'tools/call', toolName);
    }
  }

  /** `tasks/list`, every page: see tasks-requests.ts. @throws MCPCallError */
  list(options: RequestOptions): Promise<MCPTask[]> {
    return listTasks(this.#requests(), options);
  }

  /** `tasks/get` of any task id: see tasks-requests.ts. @throws MCPCallError */
  get(taskId: string, options: RequestOptions): Promise<MCPTask> {
    return getTask(this.#requests(), taskId, options);
  }

  /** `tasks/cancel` of any task id: see tasks-requests.ts. @throws MCPCallError */
  cancel(taskId: string, options: RequestOptions): Promise<MCPTask | undefined> {
    return cancelTask(this.#requests(), taskId, options);
  }

  /** The server's tasks for an intermediary to pass on (tasks-passthrough.ts). */
  passThrough(): MCPTaskPassThrough {
    return taskPassThrough(this.#requests());
  }

  #requests(): TaskRequestsSetup {
    const setup = this.#setup;
    return {
      server: setup?.inputs.server ?? '',
      direct: setup?.direct,
      legacy: this.#legacy,
      modernMeta: this.#modernMeta,
      fail: (error, method) => (setup as SessionTasksSetup).fail(error, method),
    };
  }

  #context(toolName: string): TaskRunContext {
    const setup = this.#setup as SessionTasksSetup;
    const subscribe = (taskId: string, listener: (task: MCPTask) => void) =>
      this.#subscribe(taskId, listener);
    return { server: setup.inputs.server, toolName, onError: (error) => setup.onError(error), subscribe };
  }
}
