/**
 * agentwire's MCP errors: one small hierarchy. A caller tells *why* a call failed from the class and the
 * `kind` field, never from message text; the original error is always on the standard `cause`.
 *
 * - {@link MCPToolError}: the tool ran and reported failure (`CallToolResult.isError: true`, MCP spec
 *   2025-11-25 "Tools > Error Handling").
 * - {@link MCPCallError}: the call did not complete: transport, HTTP, JSON-RPC or protocol failure, timeout,
 *   abort, closed connection, expired session (JSON-RPC 2.0, "Error object"; MCP spec 2025-11-25,
 *   "Basic > Lifecycle > Timeouts" and "Transports > Streamable HTTP > Session Management").
 */
import type { CallToolResult } from './types.js';

/** Base class of every error agentwire's MCP layer throws. */
export class MCPError extends Error {
  override name = 'MCPError';
  /** The server's name (its configured name, or the command / URL host). A message names it when it is set. */
  readonly server: string | undefined;

  constructor(message: string, options: { server?: string | undefined; cause?: unknown } = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.server = options.server;
  }
}

/** The tool ran and returned `isError: true`. Thrown by MCP tools when `throwOnToolError` is on (default). */
export class MCPToolError extends MCPError {
  override name = 'MCPToolError';
  /** The tool's name on the server. */
  readonly toolName: string;
  /** The raw result, including every content block and `structuredContent`. */
  readonly result: CallToolResult;

  constructor(
    message: string,
    options: { toolName: string; result: CallToolResult; server?: string | undefined; cause?: unknown },
  ) {
    super(message, options);
    this.toolName = options.toolName;
    this.result = options.result;
  }
}

/**
 * Why an MCP request did not complete.
 * - `spawn`: the stdio server's process could not be started (command not found, not executable).
 * - `transport`: an I/O failure (socket reset, write to a closed pipe, DNS, refused connection).
 * - `http`: the server answered with a non-2xx status (`status` set), or with an empty or unusable body.
 * - `protocol`: a message that breaks the MCP / JSON-RPC rules (unparseable, wrong shape, bad handshake).
 * - `jsonrpc`: the server answered with a JSON-RPC error (`code`, `data` set).
 * - `connection_closed`: the connection ended while the request was pending (`exitCode` / `signal` and
 *   `stderrTail` set for stdio servers).
 * - `timeout`: the request's `timeoutMs` or `maxTotalTimeoutMs` elapsed (`timeoutMs` set).
 * - `aborted`: the caller's `AbortSignal` fired; the abort reason is on `cause`.
 * - `session_expired`: the Streamable HTTP server no longer knows our `Mcp-Session-Id` (404, or a 400 that
 *   says so); the session has been cleared.
 * - `not_connected`: the client is not connected (never connected, disconnected, or reconnection gave up).
 * - `may_have_run`: a `tools/call` lost before its response (its session forgotten, MCP spec 2025-11-25,
 *   "Transports > Session Management"; its response stream broken, MCP spec 2026-07-28, "Transports >
 *   Streamable HTTP") to a tool not annotated `readOnlyHint` or `idempotentHint`: the tool may or may not have
 *   run, and the client did not send it again, since running it twice could repeat its side effects.
 * - `input_required`: the server still asked for input the client could not give (MCP spec 2026-07-28,
 *   "Basic > Patterns > Multi Round-Trip Requests"): more rounds than `maxInputRounds` (`inputRounds` set to
 *   the bound), an embedded request the client has no handler for, or one whose handler threw or rejected (its
 *   error on `cause`) (`inputMethod` set in both); nothing more was sent.
 * - `task`: the call ran as a task (MCP spec 2025-11-25, "Basic > Utilities > Tasks"; the 2026-07-28 tasks
 *   extension) and the server ended it `cancelled` without this client asking (`taskId` set). A task that
 *   failed is kind `jsonrpc` with its error's `code`; one this client timed out or aborted, `timeout` / `aborted`.
 * - `unsupported`: the server did not declare the capability the request needs (`capability` set: `prompts`,
 *   `resources`, `resources.subscribe`, `logging`, `completions`), so the request was not sent (MCP spec
 *   2025-11-25 and 2026-07-28, "Lifecycle > Capability Negotiation": both sides use only what was negotiated).
 */
export type MCPCallErrorKind =
  | 'spawn'
  | 'transport'
  | 'http'
  | 'protocol'
  | 'jsonrpc'
  | 'connection_closed'
  | 'timeout'
  | 'aborted'
  | 'session_expired'
  | 'not_connected'
  | 'may_have_run'
  | 'input_required'
  | 'task'
  | 'unsupported';

/** Details an {@link MCPCallError} may carry; which ones are set depends on `kind`. */
export interface MCPCallErrorDetails {
  server?: string | undefined;
  /** The tool, for `tools/call`. */
  toolName?: string | undefined;
  /**
   * What failed: the JSON-RPC method of the request (`initialize`, `tools/list`, `tools/call`, …), an HTTP
   * stream (`GET stream`), or `request` for another HTTP message (a response we send); unset for a failure
   * outside any request (a stdio server exiting, say).
   */
  method?: string | undefined;
  /** JSON-RPC error code (kind `jsonrpc`). */
  code?: number | undefined;
  /** JSON-RPC error data (kind `jsonrpc`). */
  data?: unknown;
  /**
   * The JSON-RPC error's `message` as the server sent it (kind `jsonrpc`), without this client's words
   * around it: what a gateway relays to its own client, whose error then states the code once.
   */
  serverMessage?: string | undefined;
  /** HTTP status (kind `http`, `session_expired`). */
  status?: number | undefined;
  /** The start of the HTTP response body, at most 512 characters (kind `http`). */
  body?: string | undefined;
  /** The stdio server's exit code, when it exited (kind `connection_closed`, `spawn`). */
  exitCode?: number | null | undefined;
  /** The signal that ended the stdio server, when one did. */
  signal?: string | null | undefined;
  /** The last lines the stdio server wrote to stderr, oldest first. */
  stderrTail?: readonly string[] | undefined;
  /** The timeout that elapsed, in ms (kind `timeout`). */
  timeoutMs?: number | undefined;
  /**
   * True when the request was lost in flight: over Streamable HTTP in MCP 2026-07-28 its response stream broke
   * before the response, and the client MUST re-issue it as a new request with a new id (MCP spec 2026-07-28,
   * "Key Changes" 9; streams are not resumable). `MCPClient` has already re-issued reads once; a `tools/call`
   * is re-issued only for a tool annotated `readOnlyHint` or `idempotentHint`; one to any other tool fails
   * with kind `may_have_run`: calling again may repeat its side effects, and the caller decides.
   */
  reissue?: boolean | undefined;
  /** The input-required rounds bound that was reached (kind `input_required`). */
  inputRounds?: number | undefined;
  /** The embedded request no handler answers: `elicitation/create`, … (kind `input_required`). */
  inputMethod?: string | undefined;
  /** The server's task id, when the call ran as a task (every kind). */
  taskId?: string | undefined;
  /**
   * The server capability the request needs and the server did not declare, as a dotted path into its
   * `capabilities` (`resources`, `resources.subscribe`, `logging`, …) (kind `unsupported`).
   */
  capability?: string | undefined;
  cause?: unknown;
}

/** What {@link MCPCallError.with} may change: any detail, the kind, the reason. */
export interface MCPCallErrorChanges extends MCPCallErrorDetails {
  kind?: MCPCallErrorKind;
  reason?: string;
}

/**
 * The message of a failed request, built from its fields, and the only place that builds it:
 * `MCP server "<server>": <method> "<tool>" failed: <reason>` (the server part without a server, the tool
 * part without a tool). A failure outside any request (no `method`) reads as its reason alone: those
 * reasons name the server themselves (`server "x" exited with code 1`).
 */
export function callErrorMessage(
  reason: string,
  where: Pick<MCPCallErrorDetails, 'server' | 'method' | 'toolName'>,
): string {
  if (where.method === undefined) return reason;
  const server = where.server === undefined ? '' : `MCP server "${where.server}": `;
  const tool = where.toolName === undefined ? '' : ` "${where.toolName}"`;
  return `${server}${where.method}${tool} failed: ${reason}`;
}

/**
 * A request that did not complete. Switch on `kind`; the original error is on `cause`. The message is
 * `callErrorMessage` of the fields; `reason` is its last part, the failure itself
 * (`timed out after 500 ms`, `the server answered HTTP 503`).
 */
export class MCPCallError extends MCPError {
  override name = 'MCPCallError';
  readonly kind: MCPCallErrorKind;
  /** What went wrong, without where (`timed out after 500 ms`): the message's part after `failed: `. */
  readonly reason: string;
  readonly toolName: string | undefined;
  readonly method: string | undefined;
  readonly code: number | undefined;
  readonly data: unknown;
  /** Kind `jsonrpc`: the error's `message` as the server sent it (see {@link MCPCallErrorDetails}). */
  readonly serverMessage: string | undefined;
  readonly status: number | undefined;
  readonly body: string | undefined;
  readonly exitCode: number | null | undefined;
  readonly signal: string | null | undefined;
  readonly stderrTail: readonly string[] | undefined;
  readonly timeoutMs: number | undefined;
  readonly reissue: boolean | undefined;
  readonly inputRounds: number | undefined;
  readonly inputMethod: string | undefined;
  readonly taskId: string | undefined;
  readonly capability: string | undefined;

  /**
   * @param reason - What went wrong, without where: the message is built from it and `details` (see
   *   `callErrorMessage`), so that `MCP server "x": tools/call "t" failed: ` is never written twice.
   */
  constructor(kind: MCPCallErrorKind, reason: string, details: MCPCallErrorDetails = {}) {
    super(callErrorMessage(reason, details), { server: details.server, cause: details.cause });
    this.kind = kind;
    this.reason = reason;
    this.toolName = details.toolName;
    this.method = details.method;
    this.code = details.code;
    this.data = details.data;
    this.serverMessage = details.serverMessage;
    this.status = details.status;
    this.body = details.body;
    this.exitCode = details.exitCode;
    this.signal = details.signal;
    this.stderrTail = details.stderrTail;
    this.timeoutMs = details.timeoutMs;
    this.reissue = details.reissue;
    this.inputRounds = details.inputRounds;
    this.inputMethod = details.inputMethod;
    this.taskId = details.taskId;
    this.capability = details.capability;
  }

  /** The details this error carries, for building a derived error (e.g. the same failure, now naming the tool). */
  details(): MCPCallErrorDetails {
    return {
      server: this.server,
      toolName: this.toolName,
      method: this.method,
      code: this.code,
      data: this.data,
      serverMessage: this.serverMessage,
      status: this.status,
      body: this.body,
      exitCode: this.exitCode,
      signal: this.signal,
      stderrTail: this.stderrTail,
      timeoutMs: this.timeoutMs,
      reissue: this.reissue,
      inputRounds: this.inputRounds,
      inputMethod: this.inputMethod,
      taskId: this.taskId,
      capability: this.capability,
      cause: this.cause,
    };
  }

  /**
   * This failure with `changes` applied (e.g. now naming the method and tool it failed in): a new error whose
   * message is rebuilt from the fields. Keys given as `undefined` clear the field.
   */
  with(changes: MCPCallErrorChanges): MCPCallError {
    const { kind = this.kind, reason = this.reason, ...details } = changes;
    return new MCPCallError(kind, reason, { ...this.details(), ...details });
  }
}

/** Where an {@link MCPConfigError} points; each is set when known. */
export interface MCPConfigErrorDetails {
  /** The configuration file's path, or the `source` label given for an in-memory object. */
  file?: string | undefined;
  /** The server entry's name (its key under `mcpServers` / `servers`). */
  entry?: string | undefined;
  /** The offending field inside the entry, as a dotted path (`url`, `args[2]`, `headers.Authorization`). */
  field?: string | undefined;
  /** The `${…}` variable that could not be resolved (its name only, never a value). */
  variable?: string | undefined;
  cause?: unknown;
}

/**
 * A server configuration that cannot be used (unreadable or malformed file, bad entry, unset variable,
 * unknown server name). The message reads `config <file>: server "<entry>": <what is wrong>` and never holds
 * a header or environment value; the fields say the same for programs.
 */
export class MCPConfigError extends MCPError {
  override name = 'MCPConfigError';
  readonly file: string | undefined;
  readonly entry: string | undefined;
  readonly field: string | undefined;
  readonly variable: string | undefined;

  constructor(message: string, details: MCPConfigErrorDetails = {}) {
    super(message, { server: details.entry, cause: details.cause });
    this.file = details.file;
    this.entry = details.entry;
    this.field = details.field;
    this.variable = details.variable;
  }
}

/**
 * Why a server URL was refused: `invalid` (not a valid absolute URL), `not_http` (a scheme other than
 * `http:` and `https:`; `protocol` says which), `credentials` (it carries `user:password@`, which `fetch`
 * cannot send and which would be printed wherever the URL is).
 */
export type MCPServerUrlProblem = 'invalid' | 'not_http' | 'credentials';

const SERVER_URL_PROBLEMS: Record<MCPServerUrlProblem, (protocol: string | undefined) => string> = {
  invalid: () => 'the server URL is not a valid absolute URL',
  not_http: (protocol) => `the server URL must be http: or https:, not ${protocol}`,
  credentials: () =>
    'the server URL must not contain credentials (user:password@); send them in a header such as Authorization',
};

/**
 * A server URL that cannot be used (thrown by `MCPClient.fromUrl`; configuration files and the CLI word the
 * same `problem` their own way). The message never quotes the URL: its query may carry a token.
 */
export class MCPServerUrlError extends MCPConfigError {
  override name = 'MCPServerUrlError';
  readonly problem: MCPServerUrlProblem;
  /** The URL's scheme, colon included (`ws:`), for `not_http`. */
  readonly protocol: string | undefined;

  constructor(
    problem: MCPServerUrlProblem,
    details: MCPConfigErrorDetails & { protocol?: string | undefined } = {},
  ) {
    const { protocol, ...where } = details;
    super(SERVER_URL_PROBLEMS[problem](protocol), where);
    this.problem = problem;
    this.protocol = protocol;
  }
}
