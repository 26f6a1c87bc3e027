/**
 * The gateway's task ids and task shapes. A task the gateway passes on lives on its upstream; the
 * gateway's id for it names the upstream and the upstream's own id, encoded in the id itself
 * (base64url of `[server, taskId]`), not kept in a map. Any gateway process can then route a later
 * `tasks/get`, `tasks/result`, `tasks/update`, `tasks/cancel` to the right upstream: in 2026-07-28 mode
 * the gateway is stateless per request and several processes serve the same clients, and a map held by
 * the process that created the task would be missing from the others (and lost with a restart). A load
 * balancer may still route by it (the tasks extension mirrors `taskId` in `Mcp-Name`). The upstream's
 * id is the secret part of it, as it is without the gateway: the encoding adds nothing to guess.
 *
 * Shapes: a 2025-11-25 `Task` (MCP spec 2025-11-25, "Basic > Utilities > Tasks > Data Types": `ttl`,
 * `pollInterval`, both timestamps required) and a 2026-07-28 extension `Task` (`ttlMs`, `pollIntervalMs`).
 */
import type { MCPTask } from '../mcp/for-gateway.js';

/** Where a gateway task id leads. */
export interface UpstreamTaskRef {
  server: string;
  taskId: string;
}

/** The gateway's id for task `taskId` of upstream `server`. */
export function gatewayTaskId(server: string, taskId: string): string {
  return Buffer.from(JSON.stringify([server, taskId]), 'utf8').toString('base64url');
}

/** The upstream task a gateway id names, or undefined when `id` is not one the gateway made. */
export function upstreamTaskOf(id: unknown): UpstreamTaskRef | undefined {
  if (typeof id !== 'string' || !/^[A-Za-z0-9_-]+$/.test(id)) return undefined;
  try {
    const decoded: unknown = JSON.parse(Buffer.from(id, 'base64url').toString('utf8'));
    if (!Array.isArray(decoded) || decoded.length !== 2) return undefined;
    const [server, taskId] = decoded;
    return typeof server === 'string' && typeof taskId === 'string' ? { server, taskId } : undefined;
  } catch {
    // Not JSON: not an id of the gateway's.
    return undefined;
  }
}

/** `task` under the gateway id `id`, as a 2025-11-25 `Task` (MCP spec 2025-11-25, "Tasks": `ttl`, `pollInterval`). */
export function legacyTaskShape(task: MCPTask, id: string): Record<string, unknown> {
  return taskShape(task, id, 'ttl', 'pollInterval');
}

/** `task` under the gateway id `id`, as a 2026-07-28 tasks extension `Task` (`ttlMs`, `pollIntervalMs`). */
export function modernTaskShape(task: MCPTask, id: string): Record<string, unknown> {
  return taskShape(task, id, 'ttlMs', 'pollIntervalMs');
}

/** The one `Task` layout of both revisions, which differ only in the names of two fields. */
function taskShape(task: MCPTask, id: string, ttl: string, pollInterval: string): Record<string, unknown> {
  const createdAt = task.createdAt ?? new Date().toISOString();
  return {
    taskId: id,
    status: task.status,
    ...(task.statusMessage !== undefined && { statusMessage: task.statusMessage }),
    createdAt,
    lastUpdatedAt: task.lastUpdatedAt ?? createdAt,
    [ttl]: task.ttlMs ?? null,
    ...(task.pollIntervalMs !== undefined && { [pollInterval]: task.pollIntervalMs }),
  };
}
