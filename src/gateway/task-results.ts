/**
 * The outcome of an upstream task, for the gateway's clients (tasks.ts): a 2025-11-25 upstream's
 * `tasks/result` as a 2026-07-28 `result` / `error`; a 2026-07-28 upstream's task polled to its end for a
 * 2025-11-25 `tasks/result`, its `inputRequests` asked of the client and answered with `tasks/update`; a
 * 2025-11-25 upstream's `tasks/result` through the relay, its questions asked of the client.
 */
import { ProtocolError, ProtocolErrorCode, type ServerContext } from '@modelcontextprotocol/server';
import { isRecord } from '../core/json.js';
import { sleep } from '../core/sleep.js';
import { MCPCallError } from '../mcp/protocol/errors.js';
import { isTerminalStatus, readTask } from '../mcp/protocol/tasks.js';
import type { RequestOptions } from '../mcp/session/request-options.js';
import type { MCPTaskPassThrough } from '../mcp/session/tasks/tasks-passthrough.js';
import type { InputRelay } from './relay.js';

type Result = Record<string, unknown>;

/** The metadata key that ties a message to its task (MCP spec 2025-11-25, "Tasks > Related Task Metadata"). */
export const RELATED_TASK = 'io.modelcontextprotocol/related-task';
/** The shortest pause between polls of an upstream task, in ms, whatever it suggests. */
const MIN_POLL_INTERVAL_MS = 10;
/** The pause when the upstream suggests none, in ms. */
const DEFAULT_POLL_INTERVAL_MS = 1_000;
/** Bound on a request that waits for a task's end (`tasks/result`): the client's cancellation ends it. */
export const UNBOUNDED_MS = 2 ** 31 - 1;

/** An input request of a task (an `InputRequest`). */
interface InputRequest {
  method: string;
  params?: Record<string, unknown>;
}

/** `result` without the upstream's own task tag (it names the upstream's task id). */
export function untagged(result: Result): Result {
  if (!isRecord(result._meta) || !(RELATED_TASK in result._meta)) return result;
  const { [RELATED_TASK]: _, ...meta } = result._meta;
  const { _meta: __, ...rest } = result;
  return Object.keys(meta).length > 0 ? { ...rest, _meta: meta } : rest;
}

/**
 * A terminal 2025-11-25 task's outcome as 2026-07-28 task fields: `{ result }` or `{ error }` (its
 * `tasks/result`, a `CallToolResult` or the JSON-RPC error).
 * @throws MCPCallError when `tasks/result` fails otherwise.
 */
export async function outcomeFields(
  offer: MCPTaskPassThrough,
  taskId: string,
  options: RequestOptions,
): Promise<Result> {
  try {
    return { result: untagged(await offer.request('tasks/result', { taskId }, options)) };
  } catch (error) {
    if (!(error instanceof MCPCallError) || error.kind !== 'jsonrpc' || error.code === undefined) throw error;
    return {
      error: {
        code: error.code,
        message: error.reason,
        ...(error.data !== undefined && { data: error.data }),
      },
    };
  }
}

/**
 * Asks the gateway's 2025-era client an input request of a task, tagged with the gateway's task
 * (`related`); where the client cannot be asked, an elicitation is declined (`cancel`).
 * @throws ProtocolError when a sampling request cannot be asked; the client's error.
 */
export async function askClient(
  request: unknown,
  ctx: ServerContext,
  related: Result,
  canAsk: boolean,
): Promise<unknown> {
  const { method, params = {} } = (isRecord(request) ? request : {}) as Partial<InputRequest>;
  if (!canAsk) {
    if (method === 'elicitation/create') return { action: 'cancel' };
    throw new ProtocolError(
      ProtocolErrorCode.InternalError,
      `the gateway cannot ask its client ${String(method)}`,
    );
  }
  const meta = isRecord(params._meta) ? params._meta : {};
  const sent = { method, params: { ...params, _meta: { ...meta, ...related } } };
  return ctx.mcpReq.send(sent as never, { signal: ctx.mcpReq.signal, timeout: UNBOUNDED_MS });
}

/**
 * A 2026-07-28 upstream task polled to its end: its `result` (completed); the task's JSON-RPC error
 * (failed) or a cancellation error thrown as `ProtocolError`. Input it asks for goes to `ask`, the answers
 * back with `tasks/update`.
 * @throws ProtocolError; MCPCallError from the upstream requests.
 */
export async function pollTask(
  offer: MCPTaskPassThrough,
  taskId: string,
  ctx: ServerContext,
  ask: (request: unknown) => Promise<unknown>,
): Promise<Result> {
  const signal = ctx.mcpReq.signal;
  const answered = new Set<string>();
  for (;;) {
    const raw = await offer.request('tasks/get', { taskId }, { signal });
    const task = readTask(raw);
    if (typeof task === 'string')
      throw new ProtocolError(ProtocolErrorCode.InternalError, `bad task: ${task}`);
    if (task.status === 'completed') return isRecord(raw.result) ? raw.result : { content: [] };
    if (task.status === 'failed') {
      const error = isRecord(raw.error) ? raw.error : {};
      const code = typeof error.code === 'number' ? error.code : ProtocolErrorCode.InternalError;
      throw new ProtocolError(code, String(error.message ?? 'task failed'), error.data);
    }
    if (isTerminalStatus(task.status))
      throw new ProtocolError(ProtocolErrorCode.InternalError, `task ${taskId} was cancelled`, {
        kind: 'task',
      });
    const requests = task.status === 'input_required' && isRecord(raw.inputRequests) ? raw.inputRequests : {};
    const open = Object.entries(requests).filter(([key]) => !answered.has(key));
    if (open.length > 0) {
      const inputResponses: Result = {};
      for (const [key, request] of open) inputResponses[key] = await ask(request);
      await offer.request('tasks/update', { taskId, inputResponses }, { signal });
      for (const [key] of open) answered.add(key);
    }
    const interval = Math.max(MIN_POLL_INTERVAL_MS, task.pollIntervalMs ?? DEFAULT_POLL_INTERVAL_MS);
    if (!(await sleep(interval, signal)))
      throw new ProtocolError(ProtocolErrorCode.InternalError, 'cancelled');
  }
}

/**
 * A 2025-11-25 upstream's `tasks/result` through the relay: each question the upstream asks meanwhile is
 * asked of the gateway's client (`ask`), its answer handed back, until the result comes.
 * @throws what the upstream request throws.
 */
export async function relayedResult(
  relay: InputRelay,
  server: string,
  ctx: ServerContext,
  canAsk: boolean,
  start: (signal: AbortSignal) => Promise<Result>,
  ask: (request: unknown) => Promise<unknown>,
): Promise<Result> {
  let round = {
    requestState: undefined as string | undefined,
    inputResponses: undefined as Result | undefined,
  };
  for (;;) {
    const out = (await relay.round(server, { ...round, signal: ctx.mcpReq.signal, canAsk }, start)) as Result;
    if (out.resultType !== 'input_required') return out;
    const inputResponses: Result = {};
    for (const [key, request] of Object.entries(isRecord(out.inputRequests) ? out.inputRequests : {}))
      inputResponses[key] = await ask(request);
    round = { requestState: String(out.requestState), inputResponses };
  }
}
