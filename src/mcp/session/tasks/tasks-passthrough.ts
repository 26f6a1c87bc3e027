/**
 * Task requests sent as they are, for an intermediary that passes a server's tasks on to its own clients
 * (the gateway): which task protocol the server speaks, and `tasks/*` requests with their raw results
 * (a 2026-07-28 `tasks/get` carries the task's `result`, `error` or `inputRequests`; a 2025-11-25
 * `tasks/result` is the tool's result). Callers that run tasks themselves use tasks-session.ts instead.
 *
 * 2025-11-25 (MCP spec 2025-11-25, "Basic > Utilities > Tasks"): `tasks/get`, `tasks/result`, `tasks/list`,
 * `tasks/cancel`; 2026-07-28 tasks extension (`io.modelcontextprotocol/tasks`): `tasks/get`, `tasks/update`,
 * `tasks/cancel`, each with the extension declared in its `_meta`.
 */
import { MCPCallError } from '../../protocol/errors.js';
import type { RequestOptions } from '../request-options.js';
import type { DirectRequests } from '../wire/calls.js';
import type { LegacyTaskCapabilities } from './tasks-legacy.js';
import { withTasksDeclared } from './tasks-modern.js';

/** The task methods of each protocol. */
const METHODS = {
  legacy: new Set(['tasks/get', 'tasks/result', 'tasks/list', 'tasks/cancel']),
  modern: new Set(['tasks/get', 'tasks/update', 'tasks/cancel']),
};

/** What a server offers of tasks, and its task requests, raw. */
export interface MCPTaskPassThrough {
  /**
   * The server's task protocol: `legacy` (2025-11-25 `tasks` capability), `modern` (2026-07-28 tasks
   * extension), or undefined (no tasks).
   */
  readonly protocol: 'legacy' | 'modern' | undefined;
  /** The 2025-11-25 `tasks` capability, on a `legacy` server. */
  readonly legacy: LegacyTaskCapabilities | undefined;
  /**
   * Sends the task request `method` with `params` and resolves with its result as the server gave it.
   * @throws MCPCallError kind `protocol` when the server's protocol has no such method or declares no tasks
   *   (nothing sent); the request's failure as every request's (kind `jsonrpc` for the server's error).
   */
  request(
    method: string,
    params: Record<string, unknown>,
    options: RequestOptions,
  ): Promise<Record<string, unknown>>;
}

/** What the pass-through runs on (tasks-session.ts). */
export interface TaskPassThroughSetup {
  server: string;
  direct: DirectRequests | undefined;
  legacy: LegacyTaskCapabilities | undefined;
  modernMeta: Record<string, unknown> | undefined;
  fail(error: unknown, method: string): Error;
}

/** The pass-through of one session. */
export function taskPassThrough(setup: TaskPassThroughSetup): MCPTaskPassThrough {
  const { direct, legacy, modernMeta } = setup;
  const protocol =
    direct === undefined
      ? undefined
      : modernMeta !== undefined
        ? 'modern'
        : legacy?.declared
          ? 'legacy'
          : undefined;
  return {
    protocol,
    legacy: protocol === 'legacy' ? legacy : undefined,
    async request(method, params, options) {
      if (protocol === undefined || !METHODS[protocol].has(method))
        throw new MCPCallError(
          'protocol',
          protocol === undefined
            ? 'the server declares no tasks'
            : `the server's task protocol has no ${method}`,
          { server: setup.server, method },
        );
      const sent = modernMeta === undefined ? params : withTasksDeclared(params, modernMeta);
      try {
        return await (direct as DirectRequests).send(method, sent, options, (raw) =>
          raw !== null && typeof raw === 'object' ? (raw as Record<string, unknown>) : {},
        );
      } catch (error) {
        throw setup.fail(error, method);
      }
    },
  };
}
