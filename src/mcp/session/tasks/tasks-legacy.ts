/**
 * Task-backed `tools/call` on a 2025-11-25 connection (MCP spec 2025-11-25, "Basic > Utilities > Tasks"):
 * the call carries `task: {}` ("Creating Tasks") and is answered with a `CreateTaskResult`; the client polls
 * `tasks/get` ("Getting Tasks") and fetches the outcome with `tasks/result` ("Retrieving Task Results"),
 * which returns exactly what the call would have: a `CallToolResult` or the JSON-RPC error.
 *
 * Input: a task in `input_required` delivers its requests (elicitation, sampling) as ordinary server-to-client
 * requests, tagged `io.modelcontextprotocol/related-task`, on the stream of a pending `tasks/result`; the
 * requestor SHOULD call `tasks/result` then ("Behavior Requirements > Input Required Status"). The client's
 * existing handlers answer them; `tasks/get` polling goes on beside it ("Retrieving Task Results": polling
 * may continue while `tasks/result` is pending), and the pending `tasks/result` ends the call.
 *
 * Only what the server declared is sent: `task` only when its capabilities include
 * `tasks.requests.tools.call` ("Tool-Level Negotiation" 1), `tasks/cancel` only with `tasks.cancel`
 * ("Capabilities > Server Capabilities").
 */
import { isRecord } from '../../../core/json.js';
import { readTask } from '../../protocol/tasks.js';
import type { CallToolResult } from '../../protocol/types.js';
import { anyObjectSchema, callToolResultSchema, structuralSchema } from '../engine/result-checks.js';
import type { RequestOptions } from '../request-options.js';
import type { DirectRequests } from '../wire/calls.js';
import type { TaskPoll, TaskWire } from './tasks-run.js';

/** What the server's `tasks` capability allows (MCP spec 2025-11-25, "Tasks > Capabilities"). */
export interface LegacyTaskCapabilities {
  /** `tasks.requests.tools.call`: task-augmented `tools/call`. */
  toolsCall: boolean;
  /** `tasks.cancel`: `tasks/cancel`. */
  cancel: boolean;
  /** `tasks.list`: `tasks/list`. */
  list: boolean;
  /** Any `tasks` capability: the server keeps tasks, so `tasks/get` of a known id may be sent. */
  declared: boolean;
}

/** The server's `tasks` capability, read from its `initialize` capabilities. */
export function legacyTaskCapabilities(capabilities: unknown): LegacyTaskCapabilities {
  const declared = isRecord(capabilities) && isRecord(capabilities.tasks);
  const tasks = declared ? (capabilities.tasks as Record<string, unknown>) : {};
  const requests = isRecord(tasks.requests) ? tasks.requests : {};
  const tools = isRecord(requests.tools) ? requests.tools : {};
  const list = isRecord(tasks.list);
  return { toolsCall: isRecord(tools.call), cancel: isRecord(tasks.cancel), list, declared };
}

/** A `Task` (`tasks/get`) or a `CreateTaskResult` (its `task`), checked as a task. */
const taskSchema = (nested: boolean) =>
  structuralSchema<TaskPoll>((value) => {
    if (!isRecord(value)) return 'result is not an object';
    const body = nested ? value.task : value;
    if (!isRecord(body)) return 'result has no object "task"';
    const task = readTask(body);
    return typeof task === 'string' ? task : undefined;
  });
const createTaskResultSchema = taskSchema(true);
const getTaskResultSchema = taskSchema(false);

function toPoll(value: TaskPoll, nested: boolean): TaskPoll {
  const raw = value as unknown as Record<string, unknown>;
  const body = (nested ? raw.task : raw) as Record<string, unknown>;
  return { task: readTask(body) as TaskPoll['task'], raw: body };
}

/**
 * Sends the task-augmented `tools/call` and returns the created task with the wire that drives it.
 * @throws what {@link DirectRequests.request} throws.
 */
export async function createLegacyTask(
  direct: DirectRequests,
  params: Record<string, unknown>,
  capabilities: LegacyTaskCapabilities,
  options: RequestOptions,
): Promise<{ first: TaskPoll; wire: TaskWire }> {
  const created = await direct.request(
    'tools/call',
    { ...params, task: {} },
    createTaskResultSchema,
    options,
  );
  return { first: toPoll(created, true), wire: new LegacyTaskWire(direct, capabilities) };
}

/** Drives one 2025-era task. */
export class LegacyTaskWire implements TaskWire {
  readonly #direct: DirectRequests;
  readonly #capabilities: LegacyTaskCapabilities;
  /** The pending `tasks/result`, started when the task asked for input. */
  #result: Promise<CallToolResult | undefined> | undefined;

  constructor(direct: DirectRequests, capabilities: LegacyTaskCapabilities) {
    this.#direct = direct;
    this.#capabilities = capabilities;
  }

  async get(taskId: string, options: RequestOptions): Promise<TaskPoll> {
    const polled = await this.#direct.request('tasks/get', { taskId }, getTaskResultSchema, options);
    return toPoll(polled, false);
  }

  async inputRequired(poll: TaskPoll, options: RequestOptions): Promise<void> {
    if (this.#result !== undefined) return;
    // It blocks until the task ends: bounded by the call's signal (the task's whole bound), not one poll's.
    const pending = this.#fetchResult(poll.task.taskId, { signal: options.signal, timeoutMs: 2 ** 31 - 1 });
    this.#result = pending.then(
      (result) => result,
      () => {
        this.#result = undefined;
        return undefined;
      },
    );
  }

  early(): Promise<CallToolResult | undefined> | undefined {
    return this.#result;
  }

  async finish(poll: TaskPoll, options: RequestOptions): Promise<CallToolResult> {
    const pending = await this.#result;
    return pending ?? this.#fetchResult(poll.task.taskId, options);
  }

  get cancel(): TaskWire['cancel'] {
    if (!this.#capabilities.cancel) return undefined;
    return async (taskId, options) => {
      await this.#direct.request('tasks/cancel', { taskId }, anyObjectSchema, options);
    };
  }

  #fetchResult(taskId: string, options: RequestOptions): Promise<CallToolResult> {
    return this.#direct.request('tasks/result', { taskId }, callToolResultSchema, options);
  }
}
