/**
 * Tasks as callers see them, in either protocol: the 2025-11-25 experimental tasks (MCP spec 2025-11-25,
 * "Basic > Utilities > Tasks") and the 2026-07-28 tasks extension `io.modelcontextprotocol/tasks` (MCP
 * extension "Tasks", negotiated in `capabilities.extensions`). Both have the same five statuses; the fields
 * here are the ones they share, in agentwire's `…Ms` names.
 */

/**
 * A task's status (MCP spec 2025-11-25, "Tasks > Task Status"; the extension's `TaskStatus`):
 * `completed`, `failed` and `cancelled` are terminal.
 */
export type MCPTaskStatus = 'working' | 'input_required' | 'completed' | 'failed' | 'cancelled';

/** A task as the server last reported it. */
export interface MCPTask {
  /** The server's id for the task. */
  taskId: string;
  status: MCPTaskStatus;
  /** The server's human-readable account of where the task is, when it gave one. */
  statusMessage?: string;
  /** How long the server keeps the task from its creation, in ms; `null`: unlimited; absent: not said. */
  ttlMs?: number | null;
  /** How often the server suggests polling, in ms (2025: `pollInterval`; 2026: `pollIntervalMs`). */
  pollIntervalMs?: number;
  /** ISO 8601 timestamps, as the server sent them. */
  createdAt?: string;
  lastUpdatedAt?: string;
}

/** Whether the tool is called as a task (MCP spec 2025-11-25, "Tasks > Tool-Level Negotiation"). */
export type MCPTaskSupport = 'forbidden' | 'optional' | 'required';

/** Whether `status` is terminal: the task's state no longer changes. */
export function isTerminalStatus(status: MCPTaskStatus): boolean {
  return status === 'completed' || status === 'failed' || status === 'cancelled';
}

const STATUSES: ReadonlySet<string> = new Set([
  'working',
  'input_required',
  'completed',
  'failed',
  'cancelled',
]);

/**
 * The task fields of `value` (a 2025 `Task` or a 2026 `DetailedTask`), or a problem when `taskId` or
 * `status` is missing or wrong. Unknown fields are left out; mistyped optional ones too.
 */
export function readTask(value: Record<string, unknown>): MCPTask | string {
  const { taskId, status } = value;
  if (typeof taskId !== 'string') return 'task has no string "taskId"';
  if (typeof status !== 'string' || !STATUSES.has(status)) return `task "${taskId}" has no known "status"`;
  const task: MCPTask = { taskId, status: status as MCPTaskStatus };
  if (typeof value.statusMessage === 'string') task.statusMessage = value.statusMessage;
  const ttl = value.ttlMs ?? value.ttl;
  if (typeof ttl === 'number' || ttl === null) task.ttlMs = ttl;
  const poll = value.pollIntervalMs ?? value.pollInterval;
  if (typeof poll === 'number' && Number.isFinite(poll) && poll >= 0) task.pollIntervalMs = poll;
  if (typeof value.createdAt === 'string') task.createdAt = value.createdAt;
  if (typeof value.lastUpdatedAt === 'string') task.lastUpdatedAt = value.lastUpdatedAt;
  return task;
}
