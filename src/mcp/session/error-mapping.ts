/**
 * Turns whatever a failed request rejected with (an SDK error, one of our transports' errors, an abort
 * reason) into one {@link MCPCallError} whose `kind` says why, whose fields name the server, the method
 * and the tool (its message is built from them), and whose `cause` is the original.
 */
import { ProtocolError, SdkError, SdkErrorCode, UnauthorizedError } from '@modelcontextprotocol/client';
import { MCPOAuthGrantError } from '../auth/grant-error.js';
import { MCPCallError, type MCPCallErrorDetails, type MCPCallErrorKind } from '../protocol/errors.js';
import type { Redactor } from '../protocol/redact.js';
import { redactCallError } from '../protocol/redact-error.js';
import type { TransportCloseInfo } from '../transports/transport.js';
import { requiredUrlElicitations, URL_ELICITATION_REQUIRED } from './engine/elicitations.js';
import { InputHandlerError } from './engine/input-handler-error.js';
import { TaskRequestError } from './tasks/tasks-run.js';

/** Where a failure happened, for the message and the error's fields. */
export interface FailureContext {
  server: string;
  method: string;
  toolName?: string | undefined;
  /** The caller's signal: when it has fired, the failure is an abort, whatever the SDK called it. */
  signal?: AbortSignal | undefined;
  /** The request's timeout in ms, for `timeout` errors. */
  timeoutMs?: number | undefined;
  /** Why the transport closed, when it has. */
  closeInfo?: TransportCloseInfo | undefined;
  /**
   * Removes the server's credentials (see redact.ts) from the error: its message, body, `data`, stderr tail
   * and every error of its `cause` chain (redact-error.ts).
   */
  redact?: Redactor | undefined;
}

/** The error of `kind` for `reason` where `context` says, redacted whole (fields, data, cause chain). */
function make(kind: MCPCallErrorKind, reason: string, context: FailureContext, details: MCPCallErrorDetails) {
  const error = new MCPCallError(kind, reason, {
    ...details,
    server: context.server,
    method: context.method,
    toolName: context.toolName,
  });
  return redactCallError(error, context.redact);
}

function abortReasonText(reason: unknown): string {
  if (reason instanceof Error) return reason.message;
  return reason === undefined ? 'aborted' : String(reason);
}

/** Maps a request failure to an {@link MCPCallError}. Already-mapped errors gain the context they lack. */
export function toCallError(error: unknown, context: FailureContext): MCPCallError {
  if (error instanceof TaskRequestError)
    return toCallError(error.cause, context).with({ taskId: error.taskId });
  if (context.signal?.aborted) {
    const reason = context.signal.reason;
    // A task-backed call keeps its task's id (tasks-run.ts).
    const taskId = error instanceof MCPCallError ? error.taskId : undefined;
    return make('aborted', `aborted (${abortReasonText(reason)})`, context, { cause: reason, taskId });
  }
  if (error instanceof InputHandlerError) {
    // MCP spec 2026-07-28, "Client > Sampling > Error Handling": nothing was sent after the handler failed.
    return make('input_required', `the client's ${error.method} handler failed`, context, {
      inputMethod: error.method,
      cause: error.cause,
    });
  }
  if (error instanceof MCPCallError) {
    // A transport's error says what failed; the session knows the request it failed in.
    return make(error.kind, error.reason, context, { ...error.details(), cause: error.cause ?? error });
  }
  const elicitations = requiredUrlElicitations(error);
  if (elicitations !== undefined && elicitations.length > 0) {
    // MCP spec 2025-11-25, "Elicitation > URL Elicitation Required Error": the request can be retried once
    // the user has opened these URLs; the message names them so that a host without a handler can say so.
    const urls = elicitations.map((entry) => entry.url).join(', ');
    return make('jsonrpc', `URL elicitation required (-32042): open ${urls}`, context, {
      code: URL_ELICITATION_REQUIRED,
      data: (error as ProtocolError).data,
      serverMessage: (error as ProtocolError).message,
      cause: error,
    });
  }
  if (error instanceof ProtocolError) {
    // The SDK keeps the server's error message as it came (`ProtocolError.fromError`); the code is its field.
    return make('jsonrpc', `server returned JSON-RPC error ${error.code}: ${error.message}`, context, {
      code: error.code,
      data: error.data,
      serverMessage: error.message,
      cause: error,
    });
  }
  if (error instanceof UnauthorizedError) {
    return make('http', `unauthorized (401): ${error.message}`, context, { status: 401, cause: error });
  }
  if (error instanceof MCPOAuthGrantError) {
    // A refused token request of the `auth` option: the server's 401 stands, with the refusal as cause.
    return make('http', `unauthorized (401): ${error.reason}`, context, { status: 401, cause: error });
  }
  if (error instanceof SdkError) return fromSdkError(error, context);
  const message = error instanceof Error ? error.message : String(error);
  return make('transport', message, context, { cause: error });
}

function fromSdkError(error: SdkError, context: FailureContext): MCPCallError {
  switch (error.code) {
    case SdkErrorCode.RequestTimeout: {
      const total = numberFromData(error.data, 'maxTotalTimeout');
      if (total !== undefined) {
        return make('timeout', `timed out: exceeded maxTotalTimeout of ${total} ms`, context, {
          timeoutMs: total,
          cause: error,
        });
      }
      const timeoutMs = context.timeoutMs ?? numberFromData(error.data, 'timeout');
      const bound = timeoutMs === undefined ? '' : ` after ${timeoutMs} ms`;
      return make('timeout', `timed out${bound}`, context, { timeoutMs, cause: error });
    }
    case SdkErrorCode.ConnectionClosed:
      return closed(context, error);
    case SdkErrorCode.NotConnected:
      return make('not_connected', 'not connected', context, { cause: error });
    case SdkErrorCode.InputRequiredRoundsExceeded: {
      const rounds = numberFromData(error.data, 'rounds');
      return make('input_required', `still required input after ${rounds} rounds`, context, {
        inputRounds: rounds,
        cause: error,
      });
    }
    case SdkErrorCode.CapabilityNotSupported: {
      const method = stringFromData(error.data, 'method');
      if (method === undefined) return make('protocol', error.message, context, { cause: error });
      return make('input_required', `asked for ${method}, which this client has no handler for`, context, {
        inputMethod: method,
        cause: error,
      });
    }
    case SdkErrorCode.InvalidResult:
      return make('protocol', `invalid result: ${error.message}`, context, { cause: error });
    default:
      return make('protocol', error.message, context, { cause: error });
  }
}

/** The error for a request that was pending when the connection ended. */
export function closed(context: FailureContext, cause?: unknown): MCPCallError {
  const info = context.closeInfo;
  if (info === undefined) return make('connection_closed', 'connection closed', context, { cause });
  const { kind, message, ...details } = info;
  return make(kind, message, context, { ...details, cause: details.cause ?? cause });
}

/**
 * How the pending requests of a session fail when the client closes it because it found it lost (an expired
 * session, a transport that closed): kind `connection_closed`, as lost with the connection, and retried
 * alike, rather than the `not_connected` of a deliberate close.
 */
export function lostInfo(server: string, lost: MCPCallError): TransportCloseInfo {
  return {
    kind: 'connection_closed',
    message: `the connection was lost: ${lost.reason}`,
    server,
    cause: lost,
  };
}

/**
 * The close record pending requests are failed with: the transport's, unless it only says the client
 * closed it (`not_connected`) while `closing` says why the client did so ({@link lostInfo}).
 */
export function teardownInfo(
  info: TransportCloseInfo | undefined,
  closing: boolean | TransportCloseInfo,
): TransportCloseInfo | undefined {
  if (typeof closing === 'boolean' || (info !== undefined && info.kind !== 'not_connected')) return info;
  return closing;
}

function stringFromData(data: unknown, key: string): string | undefined {
  if (typeof data !== 'object' || data === null) return undefined;
  const value = (data as Record<string, unknown>)[key];
  return typeof value === 'string' ? value : undefined;
}

function numberFromData(data: unknown, key: string): number | undefined {
  if (typeof data !== 'object' || data === null) return undefined;
  const value = (data as Record<string, unknown>)[key];
  return typeof value === 'number' ? value : undefined;
}
