/**
 * The gateway's task methods on one SDK server instance (tasks.ts does the work): for a 2025-11-25
 * connection `tasks/get`, `tasks/result`, `tasks/cancel` and (when declared) `tasks/list`, spec methods of
 * that revision (registered with their parameter schemas, as the SDK types only its own methods); for a 2026-07-28 instance the tasks extension's `tasks/get`, `tasks/update`,
 * `tasks/cancel`, methods the SDK serves only with their own parameter schemas (MCP extension "Tasks").
 */
import {
  fromJsonSchema,
  type JSONRPCRequest,
  type Result,
  Server,
  type ServerContext,
} from '@modelcontextprotocol/server';
import { isRecord } from '../core/json.js';
import type { GatewayTasks } from './tasks.js';

type Era = 'modern' | 'legacy';

/**
 * The SDK's server, whose 2025-era `tools/call` may answer a `CreateTaskResult` (MCP spec 2025-11-25,
 * "Tasks > Creating Tasks"). The SDK checks every `tools/call` result as a `CallToolResult` and refuses a
 * body with `task` and no `content`; the gateway's task answer carries an empty `content` through that
 * check (tasks.ts), and it is taken off here, so the client gets the `CreateTaskResult` as the spec has it.
 */
export class GatewayServer extends Server {
  protected override _wrapHandler(
    method: string,
    handler: (request: JSONRPCRequest, ctx: ServerContext) => Promise<Result>,
  ): (request: JSONRPCRequest, ctx: ServerContext) => Promise<Result> {
    const wrapped = super._wrapHandler(method, handler);
    if (method !== 'tools/call') return wrapped;
    return async (request, ctx) => {
      const result = await wrapped(request, ctx);
      if (!isRecord(request.params?.task) || !isRecord(result.task)) return result;
      const { content, ...created } = result;
      return Array.isArray(content) && content.length === 0 ? created : result;
    };
  }
}

const taskIdParams = fromJsonSchema<{ taskId: string; inputResponses?: unknown }>({
  type: 'object',
  properties: { taskId: { type: 'string' } },
  required: ['taskId'],
});

const listParams = fromJsonSchema<{ cursor?: string }>({ type: 'object' });

/**
 * Registers the task methods the instance's `capabilities` declare (`tasks` for a 2025 connection, the
 * extension for a 2026 one); none when they declare no tasks.
 * @param canAsk - whether the client can be asked for a task's input (a lasting 2025 connection).
 */
export function registerTaskHandlers(
  server: Server,
  tasks: GatewayTasks,
  era: Era,
  capabilities: Record<string, unknown>,
  canAsk: boolean,
): void {
  const declared = capabilities.tasks as { list?: object } | undefined;
  const schemas = { params: taskIdParams };
  if (era === 'legacy') {
    if (!declared) return;
    server.setRequestHandler('tasks/get', schemas, (params, ctx) => tasks.get(era, params.taskId, ctx));
    server.setRequestHandler('tasks/result', schemas, (params, ctx) =>
      tasks.result(params.taskId, ctx, canAsk),
    );
    server.setRequestHandler('tasks/cancel', schemas, (params, ctx) => tasks.cancel(era, params.taskId, ctx));
    if (declared.list)
      server.setRequestHandler('tasks/list', { params: listParams }, (_params, ctx) => tasks.list(ctx));
    return;
  }
  if (capabilities.extensions === undefined) return;
  server.setRequestHandler('tasks/get', schemas, (params, ctx) => tasks.get(era, params.taskId, ctx));
  server.setRequestHandler('tasks/cancel', schemas, (params, ctx) => tasks.cancel(era, params.taskId, ctx));
  // The SDK takes `inputResponses` off the params (the multi round-trip field of that name) onto the context.
  server.setRequestHandler('tasks/update', schemas, (params, ctx: ServerContext) =>
    tasks.update(params.taskId, ctx.mcpReq.inputResponses ?? params.inputResponses, ctx),
  );
}
