/**
 * A client's request hooks as it runs them (hook-types.ts has their public shapes): the `hooks` option with
 * its shorthands folded in (`onWireMessage` first among `onWire`, a call's `onTaskCreated` first among
 * `taskCreated`), and the steps that run each list in order.
 * A client with no hook has none of this: {@link resolveHooks} answers `undefined` and the call path is the
 * plain one.
 */
import type { RunContext } from '../../../core/tool.js';
import type { MCPRequestContext } from '../../config/request-context.js';
import type { CallToolResult } from '../../protocol/types.js';
import type {
  MCPAfterResultHook,
  MCPBeforeRequestHook,
  MCPBeforeRetryHook,
  MCPOutgoingRequest,
  MCPRetry,
  MCPTaskCreatedHook,
  MCPWireHook,
  RequestHookLists,
} from './hook-types.js';
import type { RequestScope } from './request-scope.js';
import type { MCPWireMessage } from './wire-message.js';

/** The client's hooks, each list with its shorthand first. */
export interface ResolvedHooks {
  readonly beforeRequest: readonly MCPBeforeRequestHook[];
  readonly afterResult: readonly MCPAfterResultHook[];
  readonly beforeRetry: readonly MCPBeforeRetryHook[];
  readonly onWire: readonly MCPWireHook[];
  readonly taskCreated: readonly MCPTaskCreatedHook[];
}

/** The `hooks` option and its shorthands; `undefined` when no list has a hook. */
export function resolveHooks(options: {
  hooks?: RequestHookLists | undefined;
  onWireMessage?: ((message: MCPWireMessage) => void) | undefined;
}): ResolvedHooks | undefined {
  const given = options.hooks ?? {};
  const shorthand = options.onWireMessage;
  const resolved: ResolvedHooks = {
    beforeRequest: given.beforeRequest ?? [],
    afterResult: given.afterResult ?? [],
    beforeRetry: given.beforeRetry ?? [],
    onWire: shorthand === undefined ? (given.onWire ?? []) : [shorthand, ...(given.onWire ?? [])],
    taskCreated: given.taskCreated ?? [],
  };
  const any = Object.values(resolved).some((list: readonly unknown[]) => list.length > 0);
  return any ? resolved : undefined;
}

/**
 * The `onWire` hooks as one listener, `undefined` without any. A hook that throws is ignored, as the wire
 * ignores a throwing listener (wire.ts), and the hooks after it still run; so is the rejection of a hook
 * that returns a promise (an `async` function type-checks as a `void` hook), which would otherwise be an
 * unhandled rejection and end the host process.
 */
export function wireListener(hooks: ResolvedHooks | undefined): MCPWireHook | undefined {
  const list = hooks?.onWire ?? [];
  if (list.length === 0) return undefined;
  return (message) => {
    for (const hook of list) {
      try {
        const returned: unknown = hook(message);
        if (returned instanceof Promise) returned.catch(ignoreFailure);
      } catch {
        // A tracing hook cannot fail the connection, nor keep the next hook from seeing the message.
      }
    }
  };
}

/** A tracing hook's failure: ignored (see {@link wireListener}). */
function ignoreFailure(): void {}

/** What a request carries into its hooks: whom it is for, and what the caller gave. */
export interface RequestStart {
  transport: 'http' | 'stdio';
  context: MCPRequestContext;
  arguments?: Record<string, unknown> | undefined;
  _meta?: Readonly<Record<string, unknown>> | undefined;
  headers?: Readonly<Record<string, string>> | undefined;
}

/**
 * Runs the `beforeRequest` hooks over the request `start` describes.
 * @returns the request as the hooks left it, and the scope to send it in (request-scope.ts).
 * @throws what a hook throws.
 */
export async function beforeRequest(
  hooks: ResolvedHooks | undefined,
  start: RequestStart,
): Promise<{ request: MCPOutgoingRequest; scope: RequestScope }> {
  const toolCall = start.context.method === 'tools/call';
  const base = {
    context: start.context,
    arguments: toolCall ? { ...start.arguments } : undefined,
    _meta: toolCall ? { ...start._meta } : undefined,
  };
  const request: MCPOutgoingRequest =
    start.transport === 'http'
      ? { ...base, transport: 'http', headers: { ...start.headers } }
      : { ...base, transport: 'stdio' };
  for (const hook of hooks?.beforeRequest ?? []) await hook(request);
  const headers = request.transport === 'http' ? request.headers : undefined;
  const scope: RequestScope = {
    run: start.context.run,
    toolName: start.context.toolName,
    ...(headers !== undefined && Object.keys(headers).length > 0 && { headers }),
  };
  return { request, scope };
}

/** Runs the `afterResult` hooks in order, each given what the one before returned. */
export async function afterResult(
  hooks: ResolvedHooks | undefined,
  result: CallToolResult,
  context: MCPRequestContext,
): Promise<CallToolResult> {
  let current = result;
  for (const hook of hooks?.afterResult ?? []) current = (await hook(current, context)) ?? current;
  return current;
}

/** A call's own `onTaskCreated` option: the shorthand for its first `taskCreated` hook. */
export type TaskCreatedOption = (
  created: Record<string, unknown>,
) => CallToolResult | undefined | Promise<CallToolResult | undefined>;

/**
 * What a `tools/call` made in `context` is told of a task the server created: the call's own
 * `onTaskCreated` (`option`), then the `taskCreated` hooks, in order until one returns a result; `option`
 * itself without hooks.
 */
export function taskCreated(
  hooks: ResolvedHooks | undefined,
  option: TaskCreatedOption | undefined,
  context: MCPRequestContext,
): TaskCreatedOption | undefined {
  const list = hooks?.taskCreated ?? [];
  if (list.length === 0) return option;
  return async (created) => {
    const own = await option?.(created);
    if (own !== undefined) return own;
    for (const hook of list) {
      const result = await hook(created, context);
      if (result !== undefined) return result;
    }
    return undefined;
  };
}

/**
 * Asks the `beforeRetry` hooks: false when one resolves to `false` or throws (a hook that fails cannot
 * allow), else true (also without hooks).
 */
export async function allowRetry(hooks: ResolvedHooks | undefined, retry: MCPRetry): Promise<boolean> {
  for (const hook of hooks?.beforeRetry ?? []) {
    try {
      if ((await hook(retry)) === false) return false;
    } catch {
      return false;
    }
  }
  return true;
}

/** What the session tells its gate of a request it would send again (its `ResendInfo`, as far as read here). */
type ResendGate = (info: Pick<MCPRetry, 'method' | 'toolName' | 'attempt' | 'error'>) => Promise<boolean>;

/**
 * The session's gate before it sends a lost request again (session/engine/replay.ts): the same
 * `beforeRetry` hooks as a reconnect, told `reason: 'resend'`; `undefined` without any, so nothing is asked.
 */
export function resendGate(hooks: ResolvedHooks | undefined, server: string): ResendGate | undefined {
  if (!hooks?.beforeRetry.length) return undefined;
  return (info) =>
    allowRetry(hooks, {
      reason: 'resend',
      server,
      method: info.method,
      toolName: info.toolName,
      attempt: info.attempt,
      error: info.error,
    });
}

/** The context of a request the client's method `method` makes for `run`. */
export function requestContext(
  server: string,
  method: string,
  run: RunContext | undefined,
  toolName?: string,
): MCPRequestContext {
  return { server, run, method, ...(toolName !== undefined && { toolName }), attempt: 1 };
}
