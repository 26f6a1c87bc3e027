/**
 * The client's side of task-backed tool calls (MCP spec 2025-11-25, "Basic > Utilities > Tasks"; the
 * 2026-07-28 tasks extension): the `taskStatus` event, resuming a task after a reconnect, and the handle
 * `MCPClient.callToolAsTask` returns. The protocol work is the session's (session/tasks-*.ts).
 */
import { MCPCallError } from '../protocol/errors.js';
import type { MCPTask } from '../protocol/tasks.js';
import type { CallToolResult, Progress } from '../protocol/types.js';
import type { MCPToolCallOptions, ResolvedCallOptions } from '../session/call-options.js';
import type { MCPClientEvents, TypedEmitter } from './events.js';

export type { MCPTask } from '../protocol/tasks.js';

/** A task-backed call in flight; see {@link MCPClient.callToolAsTask}. */
export interface MCPTaskCall {
  /** The tool's final result (as `callTool` resolves); rejects as `callTool` rejects. */
  readonly result: Promise<CallToolResult>;
  /** The task as the server last reported it; undefined until the server created one (or if it did not). */
  readonly task: MCPTask | undefined;
  /** The last progress the call reported (task statuses included, see `onprogress`). */
  readonly progress: Progress | undefined;
  /**
   * Cancels the call: the task is cancelled on the server (`tasks/cancel`, where the server supports it)
   * and `result` rejects with `MCPCallError` kind `aborted` (`reason` on `cause`). No-op once settled.
   */
  cancel(reason?: unknown): void;
}

/**
 * Starts `call` with options that track the task and can cancel it.
 * @param call - `MCPClient.callTool` bound to the tool and its input.
 */
export function startTaskCall(
  call: (options: MCPToolCallOptions) => Promise<CallToolResult>,
  options: MCPToolCallOptions = {},
): MCPTaskCall {
  const cancel = new AbortController();
  const signal = options.signal ? AbortSignal.any([options.signal, cancel.signal]) : cancel.signal;
  let task: MCPTask | undefined;
  let progress: Progress | undefined;
  const result = call({
    ...options,
    task: options.task ?? true,
    signal,
    onTaskStatus: (next) => {
      task = next;
      options.onTaskStatus?.(next);
    },
    onprogress: (next) => {
      progress = next;
      options.onprogress?.(next);
    },
  });
  // The caller may never read `result`; its rejection is theirs to see, not an unhandled one.
  result.catch(() => {});
  return {
    result,
    get task() {
      return task;
    },
    get progress() {
      return progress;
    },
    cancel: (reason?: unknown) => cancel.abort(reason ?? new Error('task call cancelled')),
  };
}

/** `options` whose `onTaskStatus` also emits `events`' `taskStatus` event for `toolName`. */
export function withTaskEvents(
  options: ResolvedCallOptions,
  events: Pick<TypedEmitter<MCPClientEvents>, 'emit'>,
  toolName: string,
): ResolvedCallOptions {
  const own = options.onTaskStatus;
  return {
    ...options,
    onTaskStatus: (task) => {
      own?.(task);
      events.emit('taskStatus', { toolName, task });
    },
  };
}

/** The task a failed call leaves on the server to resume, when the failure was the connection's. */
export function resumableTask(error: unknown): string | undefined {
  return error instanceof MCPCallError ? error.taskId : undefined;
}
