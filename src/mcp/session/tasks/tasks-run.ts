/**
 * Drives a task to its end, in either protocol (tasks-legacy.ts: MCP spec 2025-11-25, "Basic > Utilities >
 * Tasks"; tasks-modern.ts: the 2026-07-28 tasks extension): poll `tasks/get` at the server's suggested
 * interval, hand `input_required` to the protocol's input path, fetch the final result once the task is
 * terminal.
 *
 * Bounds: `timeoutMs` bounds each request (each poll), `taskTimeoutMs` the task as a whole. When the whole
 * bound passes or the caller's signal fires, the task is cancelled on the server (`tasks/cancel`, when the
 * server supports it; not awaited, a failure goes to `onError`), and the call rejects.
 *
 * Each status the server reports reaches `onTaskStatus`, and `onprogress` as `{ progress: n, message }`
 * (n counting the reports from 1; message `task <status>[: <statusMessage>]`), so that callers that show
 * progress show a task's too.
 */
import { SdkError, SdkErrorCode } from '@modelcontextprotocol/client';
import { MCPCallError } from '../../protocol/errors.js';
import { isTerminalStatus, type MCPTask } from '../../protocol/tasks.js';
import type { CallToolResult } from '../../protocol/types.js';
import { DEFAULT_TASK_TIMEOUT_MS, type MCPToolCallOptions } from '../call-options.js';
import { lostInFlight } from '../engine/replay.js';
import type { RequestOptions } from '../request-options.js';
import { abortError } from '../wire/calls.js';

/** The poll interval when the server suggests none, in ms. */
export const DEFAULT_POLL_INTERVAL_MS = 1_000;
/** The shortest pause between polls, in ms, whatever the server suggests (0 would spin). */
const MIN_POLL_INTERVAL_MS = 10;
/** How many polls in a row may be lost in flight before the call fails. */
const MAX_LOST_POLLS = 3;
/** Bound on the `tasks/cancel` sent for an aborted or timed-out task, in ms. */
const CANCEL_TIMEOUT_MS = 5_000;

/** One `tasks/get` answer: the task, and the whole result it came in (2026 results carry the outcome). */
export interface TaskPoll {
  task: MCPTask;
  raw: Record<string, unknown>;
}

/** How one protocol gets, feeds, ends and cancels a task. */
export interface TaskWire {
  get(taskId: string, options: RequestOptions): Promise<TaskPoll>;
  /** The task asks for input: answer it (2026: `tasks/update`) or start what delivers it (2025: `tasks/result`). */
  inputRequired(poll: TaskPoll, options: RequestOptions): Promise<void>;
  /** The final `CallToolResult` of a `completed` or `failed` task; rejects with the task's error. */
  finish(poll: TaskPoll, options: RequestOptions): Promise<CallToolResult>;
  /**
   * The result, should it arrive before the task is seen terminal (2025: a pending `tasks/result`); resolves
   * `undefined` when that request failed (polling goes on), never rejects.
   */
  early?(): Promise<CallToolResult | undefined> | undefined;
  /** `tasks/cancel`; undefined when the server does not support it. */
  readonly cancel: ((taskId: string, options: RequestOptions) => Promise<void>) | undefined;
}

/** Who the task belongs to, for errors. */
export interface TaskRunContext {
  server: string;
  toolName: string;
  /** Failures that belong to no call (a cancellation that could not be sent). */
  onError(error: Error): void;
  /**
   * Listens for the task's statuses the server pushes (2025: `notifications/tasks/status`); returns the
   * unsubscribe. Undefined where the protocol pushes none.
   */
  subscribe?: ((taskId: string, listener: (task: MCPTask) => void) => () => void) | undefined;
}

/**
 * A request of a task failed (a poll, `tasks/result`, …): the failure, and the task it belongs to, so that
 * the error the caller gets names the task (error-mapping.ts unwraps it) and a reconnect can resume it.
 */
export class TaskRequestError extends Error {
  override name = 'TaskRequestError';
  readonly taskId: string;

  constructor(taskId: string, cause: unknown) {
    super(`a request of task "${taskId}" failed`, { cause });
    this.taskId = taskId;
  }
}

/** The options a task-backed call takes. */
export type TaskRunOptions = RequestOptions &
  Pick<MCPToolCallOptions, 'taskTimeoutMs' | 'onTaskStatus' | 'onTaskCreated'>;

/**
 * Polls `first`'s task until it ends and returns its final result.
 * @throws MCPCallError kind `timeout` (`taskTimeoutMs` passed), `task` (the server cancelled it), each with
 *   `taskId`; and what the wire's requests reject with (the caller maps those).
 */
export async function runTask(
  first: TaskPoll,
  wire: TaskWire,
  options: TaskRunOptions,
  context: TaskRunContext,
): Promise<CallToolResult> {
  const taskId = first.task.taskId;
  const total = options.taskTimeoutMs ?? DEFAULT_TASK_TIMEOUT_MS;
  const whole = new AbortController();
  const where = { server: context.server, method: 'tools/call', toolName: context.toolName, taskId };
  const timer = setTimeout(
    () =>
      whole.abort(
        new MCPCallError('timeout', `task "${taskId}" did not end within ${total} ms (taskTimeoutMs)`, {
          ...where,
          timeoutMs: total,
        }),
      ),
    total,
  );
  // `ended` stops what the wire left pending (2025: a `tasks/result`) once the call is over, however it ended.
  const ended = new AbortController();
  const stops = [whole.signal, ended.signal];
  const signal = AbortSignal.any(options.signal ? [options.signal, ...stops] : stops);
  const leg: RequestOptions = { signal, timeoutMs: options.timeoutMs };
  let reports = 0;
  let last = '';
  let latest = '';
  const report = (task: MCPTask) => {
    const key = `${task.status}\u0000${task.statusMessage ?? ''}`;
    // A poll answered before a pushed status is older than it (ISO 8601 timestamps order as strings).
    if (key === last || (task.lastUpdatedAt ?? latest) < latest) return;
    last = key;
    latest = task.lastUpdatedAt ?? latest;
    options.onTaskStatus?.({ ...task });
    const message = `task ${task.status}${task.statusMessage ? `: ${task.statusMessage}` : ''}`;
    options.onprogress?.({ progress: ++reports, message });
  };
  // A pushed status is reported at once; a terminal one ends the pause, and the result is fetched for it
  // (MCP spec 2025-11-25, "Tasks > Task Status Notification": optional, so polling goes on regardless).
  let pushed: MCPTask | undefined;
  let wake: (() => void) | undefined;
  const unsubscribe = context.subscribe?.(taskId, (task) => {
    report(task);
    if (!isTerminalStatus(task.status)) return;
    pushed = task;
    wake?.();
  });
  try {
    let poll = first;
    for (;;) {
      report(poll.task);
      const status = poll.task.status;
      if (status === 'cancelled') {
        throw new MCPCallError('task', `the server cancelled task "${taskId}"`, where);
      }
      if (isTerminalStatus(status)) return await wire.finish(poll, leg);
      if (status === 'input_required') await wire.inputRequired(poll, leg);
      const woken = new Promise<void>((resolve) => {
        wake = resolve;
        if (pushed) resolve();
      });
      const early = await pauseOrResult(intervalOf(poll.task), signal, wire.early?.(), woken);
      if (early !== undefined) return early;
      const terminal = pushed as MCPTask | undefined;
      poll = terminal ? { task: terminal, raw: { ...terminal } } : await pollAgain(wire, taskId, leg);
    }
  } catch (error) {
    if (signal.aborted) {
      cancelOnServer(wire, taskId, context);
      if (whole.signal.aborted) throw whole.signal.reason;
      const reason = options.signal?.reason;
      const text = reason instanceof Error ? reason.message : String(reason ?? 'aborted');
      throw new MCPCallError('aborted', `aborted (${text})`, { ...where, cause: reason });
    }
    // The task exists (it has an id), so the call was not lost in flight whatever a poll was (replay.ts).
    if (error instanceof MCPCallError) throw error.with({ taskId, reissue: undefined });
    // A poll sent after the connection closed (between two polls) failed for the same reason as a pending one.
    const closed = error instanceof SdkError && error.code === SdkErrorCode.NotConnected;
    throw new TaskRequestError(
      taskId,
      closed ? new SdkError(SdkErrorCode.ConnectionClosed, 'Connection closed') : error,
    );
  } finally {
    unsubscribe?.();
    clearTimeout(timer);
    ended.abort(new Error('the task-backed call ended'));
  }
}

/**
 * `tasks/get`, sent again when its response was lost in flight (MCP spec 2026-07-28, "Transports >
 * Streamable HTTP": the client re-issues a request whose stream broke; a poll reads and changes nothing),
 * up to {@link MAX_LOST_POLLS} times in a row.
 */
async function pollAgain(wire: TaskWire, taskId: string, leg: RequestOptions): Promise<TaskPoll> {
  for (let lost = 0; ; lost++) {
    try {
      return await wire.get(taskId, leg);
    } catch (error) {
      if (!lostInFlight(error) || lost + 1 >= MAX_LOST_POLLS || leg.signal?.aborted) throw error;
    }
  }
}

function intervalOf(task: MCPTask): number {
  return Math.max(MIN_POLL_INTERVAL_MS, task.pollIntervalMs ?? DEFAULT_POLL_INTERVAL_MS);
}

/** Sends `tasks/cancel` for an abandoned task, if the server supports it; never throws. */
function cancelOnServer(wire: TaskWire, taskId: string, context: TaskRunContext): void {
  if (!wire.cancel) return;
  wire.cancel(taskId, { timeoutMs: CANCEL_TIMEOUT_MS }).catch((error: unknown) => {
    const reason = error instanceof Error ? error.message : String(error);
    context.onError(
      new MCPCallError('transport', `could not cancel task "${taskId}": ${reason}`, {
        server: context.server,
        method: 'tasks/cancel',
        toolName: context.toolName,
        taskId,
        cause: error,
      }),
    );
  });
}

/**
 * Waits `ms`; resolves early with `result`'s value when it settles first, or `undefined` on `wake`; rejects
 * when `signal` fires.
 */
function pauseOrResult(
  ms: number,
  signal: AbortSignal,
  result: Promise<CallToolResult | undefined> | undefined,
  wake: Promise<void>,
): Promise<CallToolResult | undefined> {
  return new Promise((resolve, reject) => {
    const done = () => {
      clearTimeout(timer);
      signal.removeEventListener('abort', onAbort);
    };
    const onAbort = () => {
      done();
      reject(abortError(signal.reason));
    };
    if (signal.aborted) return onAbort();
    const timer = setTimeout(() => {
      done();
      resolve(undefined);
    }, ms);
    signal.addEventListener('abort', onAbort, { once: true });
    wake.then(() => {
      done();
      resolve(undefined);
    });
    result?.then((value) => {
      if (value === undefined) return;
      done();
      resolve(value);
    });
  });
}
