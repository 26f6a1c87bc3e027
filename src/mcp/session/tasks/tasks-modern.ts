/**
 * Task-backed `tools/call` on a 2026-07-28 connection, through the tasks extension
 * `io.modelcontextprotocol/tasks` (MCP extension "Tasks"; negotiated as MCP spec 2026-07-28,
 * "Basic > Versioning" extensions say: the server lists it in its `server/discover` `capabilities.extensions`,
 * the client in each request's `io.modelcontextprotocol/clientCapabilities`).
 *
 * The server decides per call: a `tools/call` whose request declared the extension may be answered with a
 * `CreateTaskResult` (`resultType: "task"`, the task's fields beside it). The client then polls `tasks/get`,
 * whose answer carries the outcome: `result` when `completed`, the JSON-RPC `error` when `failed`, the
 * `inputRequests` when `input_required`, answered through the client's own handlers (the same ones that
 * answer multi round-trip requests: modern-calls.ts) and sent with `tasks/update` `{ taskId, inputResponses }`.
 * `tasks/cancel` cancels it. The extension is declared only to a server that advertised it, so nothing on
 * the wire changes for any other server.
 */
import {
  CLIENT_CAPABILITIES_META_KEY,
  ProtocolError,
  SdkError,
  SdkErrorCode,
} from '@modelcontextprotocol/client';
import { isRecord } from '../../../core/json.js';
import { readTask } from '../../protocol/tasks.js';
import type { CallToolResult } from '../../protocol/types.js';
import { fulfil, type InputRoundsContext } from '../engine/modern-calls.js';
import { callToolResultSchema } from '../engine/result-checks.js';
import type { RequestOptions } from '../request-options.js';
import { checkResult, type DirectRequests } from '../wire/calls.js';
import type { TaskPoll, TaskWire } from './tasks-run.js';

/** The tasks extension's identifier (MCP extension "Tasks"). */
export const TASKS_EXTENSION = 'io.modelcontextprotocol/tasks';

/** Whether the server's `server/discover` capabilities list the tasks extension. */
export function advertisesTasksExtension(capabilities: unknown): boolean {
  return (
    isRecord(capabilities) &&
    isRecord(capabilities.extensions) &&
    capabilities.extensions[TASKS_EXTENSION] !== undefined
  );
}

/**
 * The `_meta` that declares the extension on one request: the client's capabilities with it added (the
 * direct path lets a request's `_meta` keys override the envelope's: calls.ts `withEnvelope`).
 */
export function tasksMeta(capabilities: Record<string, object>): Record<string, unknown> {
  const extensions = isRecord(capabilities.extensions) ? capabilities.extensions : {};
  return {
    [CLIENT_CAPABILITIES_META_KEY]: { ...capabilities, extensions: { ...extensions, [TASKS_EXTENSION]: {} } },
  };
}

/** `params` with the extension declared in its `_meta`. */
export function withTasksDeclared(
  params: Record<string, unknown>,
  meta: Record<string, unknown>,
): Record<string, unknown> {
  const own = isRecord(params._meta) ? params._meta : {};
  return { ...params, _meta: { ...own, ...meta } };
}

/** A task read from a 2026 result (`CreateTaskResult` or `tasks/get`), or an `InvalidResult`-style error. */
function pollOf(method: string, raw: unknown): TaskPoll {
  const task = isRecord(raw) ? readTask(raw) : 'not an object';
  if (typeof task === 'string')
    throw new SdkError(SdkErrorCode.InvalidResult, `Invalid result for ${method}: ${task}`, { method });
  return { task, raw: raw as Record<string, unknown> };
}

/** The first poll of a task a `tools/call` created. */
export function createdTask(raw: Record<string, unknown>): TaskPoll {
  return pollOf('tools/call', raw);
}

/** Drives one task of the extension. */
export class ModernTaskWire implements TaskWire {
  readonly #direct: DirectRequests;
  readonly #meta: Record<string, unknown>;
  readonly #inputs: InputRoundsContext;
  /** The `inputRequests` keys already answered: a poll before the server moved on asks them again. */
  readonly #answered = new Set<string>();

  constructor(direct: DirectRequests, meta: Record<string, unknown>, inputs: InputRoundsContext) {
    this.#direct = direct;
    this.#meta = meta;
    this.#inputs = inputs;
  }

  get(taskId: string, options: RequestOptions): Promise<TaskPoll> {
    return this.#send('tasks/get', { taskId }, options, (raw) => pollOf('tasks/get', raw));
  }

  async inputRequired(poll: TaskPoll, options: RequestOptions): Promise<void> {
    const requests = isRecord(poll.raw.inputRequests) ? poll.raw.inputRequests : {};
    const open = Object.entries(requests).filter(([key]) => !this.#answered.has(key));
    if (open.length === 0) return;
    const inputResponses = await fulfil(open, this.#inputs, options.signal);
    const taskId = poll.task.taskId;
    await this.#send('tasks/update', { taskId, inputResponses }, options, () => undefined);
    for (const [key] of open) this.#answered.add(key);
  }

  async finish(poll: TaskPoll): Promise<CallToolResult> {
    if (poll.task.status === 'failed') {
      const error = isRecord(poll.raw.error) ? poll.raw.error : {};
      const code = typeof error.code === 'number' ? error.code : -32603;
      throw ProtocolError.fromError(code, String(error.message ?? 'task failed'), error.data);
    }
    return checkResult('tools/call', callToolResultSchema, poll.raw.result);
  }

  cancel: TaskWire['cancel'] = async (taskId, options) => {
    await this.#send('tasks/cancel', { taskId }, options, () => undefined);
  };

  #send<R>(
    method: string,
    params: Record<string, unknown>,
    options: RequestOptions,
    decode: (raw: unknown) => R,
  ): Promise<R> {
    return this.#direct.send(method, withTasksDeclared(params, this.#meta), options, decode);
  }
}
