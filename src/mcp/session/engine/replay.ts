/**
 * The one place a request lost before its response is sent again (or not), in both eras: a 2025-11-25
 * session the server forgot (HTTP 404, kind `session_expired`: a new session is started first, by whoever
 * owns the connection) and a 2026-07-28 response stream broken before its response (the transport marks the
 * failure `reissue: true`). {@link decideReplay} decides (replay-decision.ts); a `beforeResend` hook may then
 * still veto. Each re-send is a new request with a new id (MCP spec 2026-07-28, "Transports > Streamable
 * HTTP": "re-issue it as a new request"); a `tools/call` that is not re-sent fails with kind `may_have_run`.
 */
import { waitWithin } from '../../../core/wait-within.js';
import { MCPCallError } from '../../protocol/errors.js';
import type { MCPToolDefinition } from '../../protocol/types.js';
import { DEFAULT_REQUEST_TIMEOUT_MS, type RequestOptions } from '../request-options.js';
import { decideReplay, type ReplayDecision } from './replay-decision.js';

/** How a request was lost: its session forgotten (2025-11-25), or its response stream broken (2026-07-28). */
export type RequestLoss = 'session_expired' | 'stream_broken';

/** What a `beforeResend` hook is told: a lost request the decision says may be sent again. */
export interface ResendInfo {
  /** The JSON-RPC method (`tools/call`, `tools/list`, …). */
  method: string;
  /** The tool, for `tools/call`. */
  toolName?: string | undefined;
  loss: RequestLoss;
  /** The send that was lost, from 1. */
  attempt: number;
  /** The error the lost send met. */
  error: MCPCallError;
  /** Why the decision allows the re-send. */
  reason: Extract<ReplayDecision, { action: 'resend' }>['reason'];
}

/**
 * Consulted before each re-send {@link decideReplay} allows; `false` vetoes it (the request then fails as
 * one the decision refused: kind `may_have_run` for a `tools/call`, else its own error).
 */
export type BeforeResend = (info: ResendInfo) => boolean | Promise<boolean>;

/**
 * Starts a new session after the server forgot `on`'s (MCP spec 2025-11-25, "Session Management": the
 * client MUST), resolving with it, or `undefined` when none came; returns `undefined` at once when this
 * client does not renew sessions itself (reconnection off: the caller gets the `session_expired` error).
 */
export type RenewSession<S> = (on: S, error: MCPCallError) => Promise<S | undefined> | undefined;

/** What {@link Replays} of sessions `S` is given to renew one (`Session.open`'s options). */
export interface Renewal<S> {
  /** Absent: a request that met a forgotten session fails with its `session_expired` error. */
  renewSession?: RenewSession<S> | undefined;
}

/** How a failure was a lost request, if it was one. */
export function lossOf(error: unknown): RequestLoss | undefined {
  if (!(error instanceof MCPCallError)) return undefined;
  if (error.reissue === true) return 'stream_broken';
  return error.kind === 'session_expired' ? 'session_expired' : undefined;
}

/** Whether `error` is a request lost in flight on a broken 2026-07-28 response stream. */
export function lostInFlight(error: unknown): boolean {
  return lossOf(error) === 'stream_broken';
}

/**
 * One lost request: its method and tool, its caller's signal (an aborted caller is never re-sent) and its
 * bound: the wait for a new session and the re-send get only what is left of it.
 */
export interface LostRequest {
  method: string;
  toolName?: string | undefined;
  signal?: AbortSignal | undefined;
  /** The request's timeout in ms, for the `timeout` error. */
  timeoutMs?: number | undefined;
  /** When the request's time is up, a `performance.now()` time; absent: unbounded. */
  deadline?: number | undefined;
}

/**
 * The {@link LostRequest} of a request of `method` (of tool `toolName`) with `options`, timed from now: due
 * `timeoutMs` (default 60 000) from now, or, when progress restarts its timeout, `maxTotalTimeoutMs` from
 * now if set. (A `tools/call`'s is made when it failed: the plain call path keeps no start time.)
 */
export function lostRequest(method: string, options: RequestOptions, toolName?: string): LostRequest {
  const { signal, timeoutMs = DEFAULT_REQUEST_TIMEOUT_MS } = options;
  const bound = options.resetTimeoutOnProgress ? options.maxTotalTimeoutMs : timeoutMs;
  const deadline = bound === undefined ? undefined : performance.now() + bound;
  return { method, toolName, signal, timeoutMs: options.timeoutMs, deadline };
}

/** `options` for a re-send within `timeoutMs` (what is left of the request's time); as they are without. */
export function within<O extends RequestOptions>(options: O, timeoutMs: number | undefined): O {
  return timeoutMs === undefined ? options : { ...options, timeoutMs };
}

/** Sends a lost request again on `on`, within `timeoutMs` (what is left of its timeout; absent: its own). */
export type Resend<S, T> = (on: S, timeoutMs: number | undefined) => Promise<T>;

type Hints = NonNullable<MCPToolDefinition['annotations']>;

/** A session's re-sends (see the file header); `S` is the session sent on. */
export class Replays<S> {
  #hints = new Map<string, Hints>();
  readonly #beforeResend: BeforeResend | undefined;
  readonly #renew: RenewSession<S> | undefined;

  constructor(beforeResend?: BeforeResend, renew?: RenewSession<S>) {
    this.#beforeResend = beforeResend;
    this.#renew = renew;
  }

  /** Learns the tools' annotations from a new tool list. */
  learn(tools: readonly MCPToolDefinition[]): void {
    this.#hints = new Map(tools.flatMap((t) => (t.annotations ? [[t.name, t.annotations]] : [])));
  }

  /**
   * After `send(self)` failed with `failure`: sends again on `self` (broken stream) or on the renewed
   * session (forgotten session) while the decision allows, and resolves with the first answer. The wait for
   * the new session ends with the request's signal or deadline; the re-send gets what is left of it.
   * @throws `failure` as it is when `send` is false; the last failure when it was no lost request, or not to be sent again (see {@link decideReplay});
   *   MCPCallError kind `may_have_run` for a `tools/call` lost and not re-sent; a forgotten session that no
   *   one renews: its `session_expired` error.
   */
  async after<T>(failure: unknown, request: LostRequest, self: S, send: Resend<S, T> | false): Promise<T> {
    let error = failure;
    let on = self;
    for (let attempt = 1; ; attempt++) {
      const loss = lossOf(error);
      // `send` false: the caller replays the request whole (a listing, from its first page).
      if (loss === undefined || send === false) throw error;
      const lost = error as MCPCallError;
      // The renewal starts whatever is decided next: the spec's MUST is about the session, not the request.
      const renewal = loss === 'session_expired' ? this.#renew?.(on, lost) : undefined;
      if (request.signal?.aborted || (loss === 'session_expired' && renewal === undefined)) throw error;
      const hints = request.toolName === undefined ? undefined : this.#hints.get(request.toolName);
      const decision = decideReplay({ method: request.method, annotations: hints, attempt });
      if (decision.action === 'fail') throw refused(lost, decision.error, decision.reason);
      const info = { ...request, loss, attempt, error: lost, reason: decision.reason };
      if (this.#beforeResend && !(await this.#beforeResend(info)))
        throw refused(lost, request.method === 'tools/call' ? 'may_have_run' : 'original', 'vetoed');
      if (renewal !== undefined) {
        const next = await renewedWithin(renewal, request, lost);
        if (next === undefined) throw error;
        on = next;
      }
      const left =
        request.deadline === undefined ? undefined : Math.ceil(request.deadline - performance.now());
      if (left !== undefined && left < 1) throw timedOut(request, lost);
      try {
        return await send(on, left);
      } catch (again) {
        error = again;
      }
    }
  }
}

/**
 * The new session, waited for no longer than the request would wait (its signal, its deadline): a renewal
 * is the connection's, and takes as long as the server's next `initialize` takes.
 * @throws the signal's reason when it fires; MCPCallError kind `timeout` past the deadline.
 */
function renewedWithin<S>(renewal: Promise<S | undefined>, request: LostRequest, lost: MCPCallError) {
  if (request.deadline === undefined && request.signal === undefined) return renewal;
  const ms = request.deadline === undefined ? 2 ** 31 - 1 : request.deadline - performance.now();
  return waitWithin(renewal, ms, request.signal, () => timedOut(request, lost));
}

/** The `timeout` error of a lost request whose time ran out before it could be sent again. */
function timedOut(request: LostRequest, lost: MCPCallError): MCPCallError {
  const bound = request.timeoutMs === undefined ? '' : ` after ${request.timeoutMs} ms`;
  return new MCPCallError('timeout', `timed out${bound} waiting to send it again on a new session`, {
    server: lost.server,
    method: request.method,
    toolName: request.toolName,
    timeoutMs: request.timeoutMs,
  });
}

const WHY = {
  tool_not_safe: 'it is not marked readOnlyHint or idempotentHint',
  attempts_spent: 'it was lost again after being re-sent once',
  method_not_repeatable: 'it is not safe to repeat',
  vetoed: 'the beforeResend hook declined',
} as const;

/** Why a lost request was not sent again (see {@link refused}). */
export type NotResentWhy = keyof typeof WHY;

/** The error a lost request not re-sent fails with: `lost` itself, or as kind `may_have_run` saying why. */
export function refused(
  lost: MCPCallError,
  as: 'may_have_run' | 'original',
  why: NotResentWhy,
): MCPCallError {
  if (as === 'original') return lost;
  return lost.with({
    kind: 'may_have_run',
    reason: `${lost.reason}; the tool may or may not have run, and was not re-sent (${WHY[why]})`,
  });
}
