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
 * A task made by a caller's `tools/call` is bound to that tool and that caller: the id carries both and an
 * HMAC over them under the key the gateway's processes share (SessionSeal.tag; the session secret), so a
 * caller cannot rebind another caller's id to itself. The MCP spec asks receivers to scope tasks to the
 * authorization context that made them (2025-11-25, "Basic > Utilities > Tasks > Security Considerations").
 *
 * Shapes: a 2025-11-25 `Task` (MCP spec 2025-11-25, "Basic > Utilities > Tasks > Data Types": `ttl`,
 * `pollInterval`, both timestamps required) and a 2026-07-28 extension `Task` (`ttlMs`, `pollIntervalMs`).
 */
import { timingSafeEqual } from 'node:crypto';
import type { MCPTask } from '../mcp/for-gateway.js';

/** Where a gateway task id leads, and whom it belongs to. */
export interface UpstreamTaskRef {
  server: string;
  taskId: string;
  /**
   * The tool whose call made the task, the digest of the caller that made it (session-seal.ts
   * `callerDigest`) and the tag over both: absent in an id the gateway did not bind to a caller.
   */
  bound?: { tool: string; caller: string; tag: string };
}

/** The caller and tool a task id is bound to, and the keyed tag that makes the binding unforgeable. */
export interface TaskBinding {
  tool: string;
  caller: string;
  /** A keyed MAC of `text` (SessionSeal.tag): every process of one gateway computes the same. */
  tag: (text: string) => string;
}

/**
 * The gateway's id for task `taskId` of upstream `server`; with `binding`, bound to the tool and the caller
 * that made it (`<payload>.<tag>`), so that no other caller, and no caller the policy no longer lets call
 * the tool, reads or cancels it (tasks.ts).
 */
export function gatewayTaskId(server: string, taskId: string, binding?: TaskBinding): string {
  if (binding === undefined)
    return Buffer.from(JSON.stringify([server, taskId]), 'utf8').toString('base64url');
  const payload = Buffer.from(
    JSON.stringify([server, taskId, binding.tool, binding.caller]),
    'utf8',
  ).toString('base64url');
  return `${payload}.${binding.tag(payload)}`;
}

/** The upstream task a gateway id names (its binding not checked), or undefined when `id` is not one the gateway made. */
export function upstreamTaskOf(id: unknown): UpstreamTaskRef | undefined {
  if (typeof id !== 'string' || !/^[A-Za-z0-9_-]+(\.[A-Za-z0-9_-]+)?$/.test(id)) return undefined;
  const [payload, tag] = id.split('.') as [string, string | undefined];
  try {
    const decoded: unknown = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
    if (!Array.isArray(decoded) || decoded.length !== (tag === undefined ? 2 : 4)) return undefined;
    if (!decoded.every((field) => typeof field === 'string')) return undefined;
    const [server, taskId, tool, caller] = decoded as string[];
    const ref: UpstreamTaskRef = { server: server as string, taskId: taskId as string };
    if (tag !== undefined) ref.bound = { tool: tool as string, caller: caller as string, tag };
    return ref;
  } catch {
    // Not JSON: not an id of the gateway's.
    return undefined;
  }
}

/** Whether `id`'s binding is the gateway's own (its tag is `tag` of its payload). */
export function boundByGateway(id: string, tag: (text: string) => string): boolean {
  const dot = id.indexOf('.');
  if (dot <= 0) return false;
  const expected = Buffer.from(tag(id.slice(0, dot)));
  const given = Buffer.from(id.slice(dot + 1));
  return expected.length === given.length && timingSafeEqual(expected, given);
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
