/**
 * Tasks a requestor manages by id, whoever created them (another process, an earlier connection):
 * `tasks/list`, `tasks/get`, `tasks/cancel` outside any call.
 *
 * 2025-11-25 (MCP spec 2025-11-25, "Basic > Utilities > Tasks"): `tasks/list` ("Listing Tasks", paginated)
 * only when the server declares `tasks.list`, `tasks/cancel` only with `tasks.cancel` ("Capabilities >
 * Server Capabilities"), `tasks/get` of a known id whenever the server declares `tasks` at all.
 * 2026-07-28 tasks extension: `tasks/get` and `tasks/cancel` of a task id (a durable handle), and no
 * `tasks/list` (the extension removed it: a server cannot scope a list to one caller). What the server did
 * not declare is refused here, before anything is sent.
 */
import { SdkError, SdkErrorCode } from '@modelcontextprotocol/client';
import { isRecord } from '../../../core/json.js';
import { MCPCallError } from '../../protocol/errors.js';
import { type MCPTask, readTask } from '../../protocol/tasks.js';
import { anyObjectSchema, listPageSchema } from '../engine/result-checks.js';
import { walkPages } from '../pagination.js';
import type { RequestOptions } from '../request-options.js';
import type { DirectRequests } from '../wire/calls.js';
import type { LegacyTaskCapabilities } from './tasks-legacy.js';
import { TASKS_EXTENSION, withTasksDeclared } from './tasks-modern.js';

/** What the requests run on: the session's task support (tasks-session.ts). */
export interface TaskRequestsSetup {
  server: string;
  direct: DirectRequests | undefined;
  /** The 2025-era `tasks` capability; undefined on a 2026 connection. */
  legacy: LegacyTaskCapabilities | undefined;
  /** The `_meta` that declares the extension, when the 2026 server advertised it. */
  modernMeta: Record<string, unknown> | undefined;
  /** Maps a request's failure as the session maps its requests' (error-mapping.ts). */
  fail(error: unknown, method: string): Error;
}

/**
 * Every task the server lists for this requestor (`tasks/list`, every page), in the server's order.
 * @throws MCPCallError kind `protocol` (method `tasks/list`) when the server does not declare `tasks.list`
 *   (or speaks the 2026 extension, which has no list), nothing sent; what the requests throw, mapped.
 */
export async function listTasks(setup: TaskRequestsSetup, options: RequestOptions): Promise<MCPTask[]> {
  const method = 'tasks/list';
  if (setup.modernMeta !== undefined)
    refuse(setup, method, `the tasks extension (${TASKS_EXTENSION}) has no tasks/list`);
  if (setup.direct === undefined || setup.legacy?.list !== true)
    refuse(setup, method, 'the server does not declare tasks/list (capabilities.tasks.list)');
  const direct = setup.direct as DirectRequests;
  const schema = listPageSchema<Record<string, unknown>>('tasks');
  try {
    const page = (cursor: string | undefined) =>
      direct.request(method, cursor === undefined ? {} : { cursor }, schema, options);
    const raw = await walkPages(page, 'tasks', false);
    return raw.map((item) => taskOf(method, item));
  } catch (error) {
    throw setup.fail(error, method);
  }
}

/**
 * The task `taskId` as the server reports it now (`tasks/get`).
 * @throws MCPCallError kind `protocol` when the server declares no tasks, nothing sent; kind `jsonrpc`
 *   when the server does not know the task (2025: `-32602`).
 */
export async function getTask(
  setup: TaskRequestsSetup,
  taskId: string,
  options: RequestOptions,
): Promise<MCPTask> {
  const raw = await send(setup, 'tasks/get', taskId, options, (legacy) => legacy.declared);
  try {
    return taskOf('tasks/get', raw);
  } catch (error) {
    throw setup.fail(error, 'tasks/get');
  }
}

/**
 * Cancels the task `taskId` (`tasks/cancel`) and returns it as the server reports it, when its answer
 * carries it (2025: the cancelled `Task`; the 2026 extension answers `{}`).
 * @throws MCPCallError kind `protocol` when the server does not declare `tasks.cancel` (2025) or the
 *   extension (2026), nothing sent; kind `jsonrpc` when it refuses (a task already terminal: `-32602`).
 */
export async function cancelTask(
  setup: TaskRequestsSetup,
  taskId: string,
  options: RequestOptions,
): Promise<MCPTask | undefined> {
  const raw = await send(setup, 'tasks/cancel', taskId, options, (legacy) => legacy.cancel);
  const task = readTask(raw);
  return typeof task === 'string' ? undefined : task;
}

async function send(
  setup: TaskRequestsSetup,
  method: string,
  taskId: string,
  options: RequestOptions,
  allowed: (legacy: LegacyTaskCapabilities) => boolean,
): Promise<Record<string, unknown>> {
  const direct = setup.direct;
  const modern = setup.modernMeta;
  if (direct === undefined || (modern === undefined && !(setup.legacy && allowed(setup.legacy)))) {
    const what = method === 'tasks/cancel' ? 'tasks/cancel (capabilities.tasks.cancel)' : 'tasks';
    refuse(setup, method, `the server does not declare ${what}`, taskId);
  }
  const params = modern === undefined ? { taskId } : withTasksDeclared({ taskId }, modern);
  try {
    return await (direct as DirectRequests).request(method, params, anyObjectSchema, options);
  } catch (error) {
    throw setup.fail(error, method);
  }
}

function refuse(setup: TaskRequestsSetup, method: string, reason: string, taskId?: string): never {
  throw new MCPCallError('protocol', reason, { server: setup.server, method, taskId });
}

/** A task of a result, or the SDK's invalid-result error (mapped as any other request's). */
function taskOf(method: string, value: unknown): MCPTask {
  const task = isRecord(value) ? readTask(value) : 'task is not an object';
  if (typeof task === 'string')
    throw new SdkError(SdkErrorCode.InvalidResult, `Invalid result for ${method}: ${task}`, { method });
  return task;
}
