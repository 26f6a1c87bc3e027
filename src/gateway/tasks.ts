/**
 * Tasks passed through the gateway: a task-augmented `tools/call` of the gateway's client starts the task
 * on the tool's upstream and answers with a task under the gateway's id (task-ids.ts: the id names the
 * upstream and its task, so any gateway process routes what follows). Both revisions on both sides:
 *
 * - to a 2025-11-25 client (MCP spec 2025-11-25, "Basic > Utilities > Tasks"): `tasks.requests.tools.call`
 *   when some listed tool can run as a task, `tasks.list` when some upstream lists its tasks, `tasks.cancel`
 *   when some upstream cancels; `tasks/get`, `tasks/result`, `tasks/list`, `tasks/cancel`; on a lasting
 *   connection (stdio) `notifications/tasks/status` on each change the gateway sees, polling the upstream
 *   at the interval it suggests;
 * - to a 2026-07-28 client, the tasks extension `io.modelcontextprotocol/tasks` in `server/discover` when
 *   some upstream can run a task; `tasks/get` (with the task's `result`, `error` or `inputRequests`),
 *   `tasks/update`, `tasks/cancel`.
 *
 * Input a task asks for: a 2026 upstream's `inputRequests` pass to a 2026 client and its `tasks/update`
 * back as they are; to a 2025 client on a lasting connection they are asked as `elicitation/create` /
 * `sampling/createMessage` during its `tasks/result` (tagged with the task), and a 2025 upstream's
 * questions during `tasks/result` go through the relay (relay.ts). Not passed: a 2025 upstream's questions
 * to a 2026 client (the upstream sends them only on a pending `tasks/result`; its task stays
 * `input_required` without `inputRequests`), and any question on the stateless 2025 HTTP leg (declined).
 * The tasks of `tasks/list` are those of the gateway's upstream sessions, which every gateway client shares.
 *
 * Libraries: the SDK's server package serves no tasks of either kind, and `@modelcontextprotocol/ext-tasks`
 * (0.2.2) has the requester's side and a 2025 receiver of task-backed sampling / elicitation, not a
 * server's tool tasks; the upstream side is agentwire's client (`onTaskCreated`, `taskPassThrough`).
 */
import { ProtocolError, ProtocolErrorCode, type ServerContext } from '@modelcontextprotocol/server';
import { isRecord } from '../core/json.js';
import { sleep } from '../core/sleep.js';
import {
  isTerminalStatus,
  type MCPClient,
  type MCPServers,
  type MCPTask,
  type MCPTaskPassThrough,
  type MCPToolCallOptions,
  readTask,
} from '../mcp/for-gateway.js';
import { type AccessPolicy, forbidden } from './access-policy.js';
import { callerOf } from './caller.js';
import type { MCPGatewayTarget } from './catalog.js';
import type { InputRelay } from './relay.js';
import { callerDigest } from './session-seal.js';
import {
  boundByGateway,
  gatewayTaskId,
  legacyTaskShape,
  modernTaskShape,
  upstreamTaskOf,
} from './task-ids.js';
import {
  askClient,
  outcomeFields,
  pollTask,
  RELATED_TASK,
  relayedResult,
  UNBOUNDED_MS,
} from './task-results.js';
import type { UpstreamTool } from './tool-list.js';

/** The tasks extension's identifier (MCP extension "Tasks"). */
export const TASKS_EXTENSION = 'io.modelcontextprotocol/tasks';
const CLIENT_CAPABILITIES = 'io.modelcontextprotocol/clientCapabilities';

/** Bounds on the status watch's pause between polls, in ms (used when the upstream suggests none). */
const MIN_WATCH_INTERVAL_MS = 10;
const DEFAULT_WATCH_INTERVAL_MS = 1_000;

type Result = Record<string, unknown>;
type Era = 'modern' | 'legacy';

/** What a task-augmented `tools/call` adds to the upstream call, and how its answer is made. */
export interface GatewayTaskCall {
  options: MCPToolCallOptions;
  answer(result: object, passThrough: (result: object) => Result): Result;
}

/** Who may use a task: the access policy, and the keyed tag that binds a task id to its caller (task-ids.ts). */
export interface GatewayTaskAccess {
  policy: AccessPolicy;
  tag: (text: string) => string;
}

/** The gateway's tasks; see the file header. */
export class GatewayTasks {
  readonly #servers: MCPServers;
  readonly #access: GatewayTaskAccess;
  readonly #relay: InputRelay;
  readonly #fail: (error: unknown, server: string) => ProtocolError;
  readonly #watchers = new Set<AbortController>();

  /**
   * @param relay - the relay a 2025-11-25 upstream's questions during `tasks/result` go through.
   * @param fail - the client's error for an upstream failure (routing.ts `upstreamError`).
   * @param access - the policy each task request is checked against, and the tag binding ids to callers.
   */
  constructor(
    servers: MCPServers,
    relay: InputRelay,
    fail: (error: unknown, server: string) => ProtocolError,
    access: GatewayTaskAccess,
  ) {
    this.#servers = servers;
    this.#access = access;
    this.#relay = relay;
    this.#fail = fail;
  }

  /** The capabilities the gateway declares for `era`, from the upstreams as they are now. */
  capabilities(era: Era, tools: UpstreamTool[]): Result {
    // Served per request over HTTP: each upstream's offer is read once, not once per tool.
    const offers = new Map(this.#servers.clients().map((client) => [client, passThroughOf(client)]));
    const offerOf = (client: MCPClient) => offers.get(client);
    const all = [...offers.values()];
    if (era === 'modern') {
      const some = tools.some((tool) => canRunAsTask(offerOf(tool.client), tool.definition));
      const modern = all.some((offer) => offer?.protocol === 'modern');
      return some || modern ? { extensions: { [TASKS_EXTENSION]: {} } } : {};
    }
    const call = tools.some(
      (tool) => taskSupportOf(tool.definition) !== 'forbidden' && canRunAsTask(offerOf(tool.client)),
    );
    if (!call) return {};
    const list = all.some((offer) => offer?.legacy?.list === true);
    const cancel = all.some((offer) => offer?.protocol === 'modern' || offer?.legacy?.cancel === true);
    return {
      tasks: { requests: { tools: { call: {} } }, ...(list && { list: {} }), ...(cancel && { cancel: {} }) },
    };
  }

  /**
   * The task part of a `tools/call` of `target`, when the request asks for a task (2025: `params.task`;
   * 2026: the extension declared in the request's client capabilities) and its upstream can run one.
   * @throws ProtocolError -32601 for a 2025-style task request of a tool that cannot run as a task (MCP spec
   *   2025-11-25, "Tasks > Tool-Level Negotiation").
   */
  call(
    target: MCPGatewayTarget,
    params: Record<string, unknown>,
    ctx: ServerContext,
    canAsk: boolean,
  ): GatewayTaskCall | undefined {
    const legacyStyle = isRecord(params.task);
    if (!legacyStyle && !declaresExtension(ctx)) return undefined;
    const offer = passThroughOf(target.client);
    const definition = target.client.getTools().find((tool) => tool.name === target.name)?.definition;
    const runs = canRunAsTask(offer, legacyStyle ? undefined : definition);
    if (legacyStyle && (!runs || taskSupportOf(definition) === 'forbidden'))
      throw new ProtocolError(
        ProtocolErrorCode.MethodNotFound,
        `Tool ${String(params.name)} cannot be called as a task`,
      );
    if (!runs) return undefined;
    let created: Record<string, unknown> | undefined;
    const server = target.client.name;
    return {
      options: {
        task: true,
        onTaskCreated: (raw) => {
          created = raw;
          return { content: [] };
        },
      },
      answer: (result, passThrough) => {
        // The upstream answered inline (it chose to, or asks a question first): that answer as any call's.
        if (created === undefined) return passThrough(result);
        const task = taskOf(created, server);
        // The tool matters only to a policy; without one an id is the same as tasks/list makes it.
        const tool = this.#access.policy.active ? target.name : '';
        const caller = callerDigest(ctx.http?.authInfo);
        const id = gatewayTaskId(server, task.taskId, { tool, caller, tag: this.#access.tag });
        if (!legacyStyle) return { resultType: 'task', ...modernTaskShape(task, id) };
        if (canAsk) this.#watch(target.client, task, id, ctx);
        // The empty `content` passes the SDK's result check; GatewayServer takes it off (task-handlers.ts).
        return { task: legacyTaskShape(task, id), content: [] };
      },
    };
  }

  /** `tasks/get` for `era`. @throws ProtocolError */
  async get(era: Era, id: unknown, ctx: ServerContext): Promise<Result> {
    const { client, offer, taskId } = this.#resolve(id, 'tasks/get', ctx);
    const options = { signal: ctx.mcpReq.signal };
    const raw = await this.#upstream(client, () => offer.request('tasks/get', { taskId }, options));
    const task = taskOf(raw, client.name);
    if (era === 'legacy') return legacyTaskShape(task, id as string);
    const out = modernTaskShape(task, id as string);
    if (offer.protocol === 'modern') {
      for (const key of ['result', 'error', 'inputRequests']) if (raw[key] !== undefined) out[key] = raw[key];
    } else if (task.status === 'completed' || task.status === 'failed') {
      Object.assign(out, await this.#upstream(client, () => outcomeFields(offer, taskId, options)));
    }
    return out;
  }

  /**
   * `tasks/result` (2025-11-25 clients): the task's final result once it has one, tagged with the task.
   * Questions meanwhile are asked of the client where it can be asked (`canAsk`). @throws ProtocolError
   */
  async result(id: unknown, ctx: ServerContext, canAsk: boolean): Promise<Result> {
    const { client, offer, taskId } = this.#resolve(id, 'tasks/result', ctx);
    const related = { [RELATED_TASK]: { taskId: id } };
    const ask = (request: unknown) => askClient(request, ctx, related, canAsk);
    const result = await this.#upstream(client, () =>
      offer.protocol === 'legacy'
        ? relayedResult(
            this.#relay,
            client.name,
            ctx,
            canAsk,
            (signal) => resultOf(offer, taskId, signal),
            ask,
          )
        : pollTask(offer, taskId, ctx, ask),
    );
    const meta = isRecord(result._meta) ? result._meta : {};
    return { ...result, _meta: { ...meta, ...related } };
  }

  /** `tasks/cancel`: 2025 clients get the task, 2026 clients `{}`. @throws ProtocolError */
  async cancel(era: Era, id: unknown, ctx: ServerContext): Promise<Result> {
    const { client, offer, taskId } = this.#resolve(id, 'tasks/cancel', ctx);
    const options = { signal: ctx.mcpReq.signal };
    const raw = await this.#upstream(client, () => offer.request('tasks/cancel', { taskId }, options));
    if (era === 'modern') return {};
    // The extension answers `{}`: the task as it is now, as a 2025 answer carries it.
    const after = isRecord(raw) && typeof raw.taskId === 'string' ? raw : undefined;
    const task =
      after ?? (await this.#upstream(client, () => offer.request('tasks/get', { taskId }, options)));
    return legacyTaskShape(taskOf(task, client.name), id as string);
  }

  /** `tasks/update` (2026-07-28 clients): the input responses, to the upstream's task. @throws ProtocolError */
  async update(id: unknown, inputResponses: unknown, ctx: ServerContext): Promise<Result> {
    const { client, offer, taskId } = this.#resolve(id, 'tasks/update', ctx);
    if (offer.protocol !== 'modern')
      throw new ProtocolError(
        ProtocolErrorCode.InvalidParams,
        `Task ${String(id)} takes no tasks/update: its MCP server "${client.name}" speaks 2025-11-25 tasks`,
      );
    const params = { taskId, inputResponses: inputResponses ?? {} };
    await this.#upstream(client, () => offer.request('tasks/update', params, { signal: ctx.mcpReq.signal }));
    return {};
  }

  /**
   * `tasks/list` (2025-11-25 clients): every listing upstream's tasks, every page, in configuration order,
   * to the one caller of a gateway without an access policy whose callers are all one (the static token,
   * stdio); to anyone else none: the upstream sessions are shared and the gateway keeps no record of whose
   * each listed task is, and a caller must see only its own (MCP spec 2025-11-25, "Basic > Utilities > Tasks
   * > Security Considerations"). A caller keeps its tasks' ids from the answers that made them.
   */
  async list(ctx: ServerContext): Promise<Result> {
    const requester = callerOf(ctx.http?.authInfo);
    if (this.#access.policy.active || (requester.auth !== 'static' && requester.auth !== 'stdio'))
      return { tasks: [] };
    const binding = { tool: '', caller: callerDigest(ctx.http?.authInfo), tag: this.#access.tag };
    const lists = await Promise.all(
      this.#servers.clients().map(async (client) => {
        const offer = passThroughOf(client);
        if (offer?.legacy?.list !== true) return [];
        try {
          const tasks: Result[] = [];
          let cursor: unknown;
          do {
            const params = typeof cursor === 'string' ? { cursor } : {};
            const page = await offer.request('tasks/list', params, { signal: ctx.mcpReq.signal });
            for (const item of Array.isArray(page.tasks) ? page.tasks : []) {
              const task = isRecord(item) ? readTask(item) : 'not an object';
              if (typeof task !== 'string')
                tasks.push(legacyTaskShape(task, gatewayTaskId(client.name, task.taskId, binding)));
            }
            cursor = page.nextCursor;
          } while (typeof cursor === 'string');
          return tasks;
        } catch {
          // One upstream's failure costs only its own tasks, as in every merged list (tool-list.ts).
          return [];
        }
      }),
    );
    return { tasks: lists.flat() };
  }

  /** Stops every status watch. */
  close(): void {
    for (const watcher of this.#watchers) watcher.abort();
    this.#watchers.clear();
  }

  /** `run`'s value; an upstream failure as the client's error (a `ProtocolError` of the gateway's as it is). */
  async #upstream<T>(client: MCPClient, run: () => Promise<T>): Promise<T> {
    try {
      return await run();
    } catch (error) {
      if (error instanceof ProtocolError) throw error;
      throw this.#fail(error, client.name);
    }
  }

  /**
   * The upstream task `id` leads to, for `method` of the request `ctx`: only a task bound to the requesting
   * caller by the gateway's tag (any other is not found, so an id tells nothing of another caller's tasks),
   * of a tool the policy lets that caller call (else `forbidden`, as the call itself would be).
   */
  #resolve(id: unknown, method: string, ctx: ServerContext) {
    const ref = upstreamTaskOf(id);
    const client = ref && this.#servers.get(ref.server);
    const owned =
      ref?.bound !== undefined &&
      boundByGateway(id as string, this.#access.tag) &&
      ref.bound.caller === callerDigest(ctx.http?.authInfo);
    if (!ref?.bound || !client || !owned)
      throw new ProtocolError(ProtocolErrorCode.InvalidParams, `Task ${String(id)} not found`);
    // A listed task (tasks/list) names no tool: only a gateway without a policy lists tasks.
    const grants = this.#access.policy.grants(callerOf(ctx.http?.authInfo));
    if (this.#access.policy.active && !grants.allows('tools', ref.server, ref.bound.tool))
      throw forbidden(method, ref.server, ref.bound.tool);
    let offer: MCPTaskPassThrough;
    try {
      offer = client.taskPassThrough(method);
    } catch (error) {
      throw this.#fail(error, client.name);
    }
    return { client, offer, taskId: ref.taskId };
  }

  /**
   * Sends `notifications/tasks/status` to a lasting 2025 connection on each change of the task, polling the
   * upstream at its interval until the task ends, the upstream fails, or the client is gone.
   */
  #watch(client: MCPClient, first: MCPTask, id: string, ctx: ServerContext): void {
    const watcher = new AbortController();
    this.#watchers.add(watcher);
    let last = `${first.status}\u0000${first.statusMessage ?? ''}`;
    const onChange = (task: MCPTask) => {
      const key = `${task.status}\u0000${task.statusMessage ?? ''}`;
      if (key === last) return true;
      last = key;
      const params = legacyTaskShape(task, id);
      return ctx.mcpReq.notify({ method: 'notifications/tasks/status', params }).then(
        () => true,
        () => false,
      );
    };
    void watchTask(client, first, watcher.signal, onChange).finally(() => this.#watchers.delete(watcher));
  }
}

async function watchTask(
  client: MCPClient,
  first: MCPTask,
  signal: AbortSignal,
  onChange: (task: MCPTask) => boolean | Promise<boolean>,
): Promise<void> {
  let task = first;
  while (!isTerminalStatus(task.status)) {
    const interval = Math.max(MIN_WATCH_INTERVAL_MS, task.pollIntervalMs ?? DEFAULT_WATCH_INTERVAL_MS);
    if (!(await sleep(interval, signal))) return;
    try {
      task = await client.getTask(task.taskId, { signal });
    } catch {
      // The upstream is gone or forgot the task: nothing more to tell; the client's own polls say why.
      return;
    }
    if (!(await onChange(task))) return;
  }
}

/** The upstream's tasks, or undefined when it is not connected. */
function passThroughOf(client: MCPClient): MCPTaskPassThrough | undefined {
  if (client.getState() !== 'connected') return undefined;
  try {
    return client.taskPassThrough('tasks/get');
  } catch {
    // Gone meanwhile: no tasks.
    return undefined;
  }
}

/** Whether a call of tool `definition` (any tool, when absent) on this upstream can run as a task. */
function canRunAsTask(offer: MCPTaskPassThrough | undefined, definition?: object): boolean {
  if (offer?.protocol === 'modern') return true;
  if (offer?.legacy?.toolsCall !== true) return false;
  return definition === undefined || taskSupportOf(definition) !== 'forbidden';
}

/** A tool's `execution.taskSupport`; absent means `forbidden` (MCP spec 2025-11-25, "Tools > Tool"). */
function taskSupportOf(definition: object | undefined): 'forbidden' | 'optional' | 'required' {
  const execution = (definition as { execution?: unknown } | undefined)?.execution;
  const support = isRecord(execution) ? execution.taskSupport : undefined;
  return support === 'optional' || support === 'required' ? support : 'forbidden';
}

function declaresExtension(ctx: ServerContext): boolean {
  const capabilities = (ctx.mcpReq.envelope as Record<string, unknown> | undefined)?.[CLIENT_CAPABILITIES];
  return (
    isRecord(capabilities) && isRecord(capabilities.extensions) && TASKS_EXTENSION in capabilities.extensions
  );
}

function taskOf(raw: Record<string, unknown>, server: string): MCPTask {
  const task = readTask(raw);
  if (typeof task === 'string')
    throw new ProtocolError(
      ProtocolErrorCode.InternalError,
      `MCP server "${server}" sent a bad task: ${task}`,
      {
        server,
        kind: 'protocol',
      },
    );
  return task;
}

function resultOf(offer: MCPTaskPassThrough, taskId: string, signal: AbortSignal) {
  // tasks/result blocks until the task ends: bounded by the client's cancellation, not a request timeout.
  return offer.request('tasks/result', { taskId }, { signal, timeoutMs: UNBOUNDED_MS });
}
