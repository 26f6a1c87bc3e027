/**
 * The public shapes of a client's request hooks (`MCPClientOptions.hooks`, whose type `MCPClientHooks` is
 * in client/options.ts) and of the request context they, the `headers` function and a token supplier
 * receive. Each hook is a list of functions run in order, each seeing what the one before it left.
 */
import type { MCPRequestContext } from '../../config/request-context.js';
import type { CallToolResult } from '../../protocol/types.js';
import type { MCPWireMessage } from './wire-message.js';

/** What a `beforeRequest` hook may change on any transport: a `tools/call`'s arguments and `_meta`. */
interface MCPOutgoingRequestBase {
  readonly context: MCPRequestContext;
  /** `tools/call`: the tool's arguments as sent; may be replaced or changed. Other methods: `undefined`. */
  arguments: Record<string, unknown> | undefined;
  /**
   * `tools/call`: the request's `params._meta` as the caller gave it (`MCPToolCallOptions._meta`), `{}`
   * without; may be replaced or changed, with the rule of that option (agentwire's own keys stay its own).
   * Other methods: `undefined`.
   */
  _meta: Record<string, unknown> | undefined;
}

/** A request to an HTTP server, as a `beforeRequest` hook sees it. */
export interface MCPHttpOutgoingRequest extends MCPOutgoingRequestBase {
  readonly transport: 'http';
  /**
   * Extra headers for this request's HTTP exchanges (the POST, and its re-send after a `401`), over the
   * client's `headers`: the call's `headers` option, `{}` without. May be changed.
   */
  headers: Record<string, string>;
}

/** A request to a stdio server, as a `beforeRequest` hook sees it: stdio has no headers. */
export interface MCPStdioOutgoingRequest extends MCPOutgoingRequestBase {
  readonly transport: 'stdio';
  readonly headers?: undefined;
}

/** A request about to be sent (see `MCPClientHooks.beforeRequest`); `transport` tells which it is. */
export type MCPOutgoingRequest = MCPHttpOutgoingRequest | MCPStdioOutgoingRequest;

/** Runs before a request is sent; changes `request` in place. A rejection fails the request with it. */
export type MCPBeforeRequestHook = (request: MCPOutgoingRequest) => void | Promise<void>;

/**
 * Runs when a `tools/call` result arrives, before `callTool` returns it and so before a tool's `execute`
 * renders it: returns the result to pass on (a new one, or `undefined` to keep the one given).
 */
export type MCPAfterResultHook = (
  result: CallToolResult,
  context: MCPRequestContext,
) => CallToolResult | undefined | Promise<CallToolResult | undefined>;

/** A reconnect (or a re-send) about to be made, as a `beforeRetry` hook sees it. */
export interface MCPRetry {
  /**
   * `reconnect`: the connection was lost and reconnection (the `reconnect` option) is about to try again;
   * `resend`: a request lost before its response is about to be sent again: on a new session after its
   * session was lost (a forgotten 2025-11-25 session, HTTP 404; a connection lost with the call pending), or
   * on the same session after its 2026-07-28 response stream broke (MCP spec 2026-07-28, "Transports >
   * Streamable HTTP": re-issued as a new request).
   */
  readonly reason: 'reconnect' | 'resend';
  /** The client's name for the server. */
  readonly server: string;
  /** `connect` for a reconnect; the request's method for a re-send. */
  readonly method: string;
  /** The tool's name, for a re-sent `tools/call`. */
  readonly toolName?: string | undefined;
  /** 1-based number of this reconnect attempt (or re-send). */
  readonly attempt: number;
  /** What failed: the loss of the connection, or the last attempt's failure. */
  readonly error: Error;
}

/** Runs before a reconnect attempt (or a re-send); resolving to `false` vetoes it. */
export type MCPBeforeRetryHook = (retry: MCPRetry) => boolean | undefined | Promise<boolean | undefined>;

/** Told of every JSON-RPC message of the connection (see `MCPWireMessage`). Must not throw. */
export type MCPWireHook = (message: MCPWireMessage) => void;

/**
 * Runs when the server created a task for a `tools/call` (a task-backed call: see `MCPToolCallOptions.task`),
 * told of it as the server sent it (2025-11-25: the `CreateTaskResult`'s `task`; 2026-07-28 extension: the
 * `CreateTaskResult`, `resultType` included). Returning a result ends the call with that result at once:
 * the task is left to the caller (`MCPClient.getTask`, `cancelTask`, …), not polled, and the hooks after it
 * are not asked. Returning `undefined` passes the task on to the next hook, and after the last the call runs
 * the task to its end. A rejection fails the call with it.
 */
export type MCPTaskCreatedHook = (
  created: Record<string, unknown>,
  context: MCPRequestContext,
) => CallToolResult | undefined | Promise<CallToolResult | undefined>;

/**
 * The hook lists that run along a request and its connection (the part of `MCPClientHooks` this folder
 * runs; the client adds those of its call defaults and of a result's presentation).
 */
export interface RequestHookLists {
  /**
   * Before each `tools/call` (`callTool`, a tool's `execute`) and each request of `listResources`,
   * `listResourceTemplates`, `readResource`, `listPrompts`, `getPrompt`, `complete` and `ping` (the
   * connect and discovery are covered by the `headers` function): may change `arguments` and `_meta`
   * (`tools/call`) and, over HTTP, `headers`. Runs after the call's options are resolved (the `callOptions`
   * hooks). Default none.
   */
  beforeRequest?: MCPBeforeRequestHook[];
  /** After each `tools/call` result, before it is returned and rendered: may replace it. Default none. */
  afterResult?: MCPAfterResultHook[];
  /**
   * Before each automatic reconnect attempt: the first hook resolving to `false` vetoes it, and the client
   * ends `failed` (the reconnection gives up as after its last attempt: calls waiting for it reject with
   * the loss, an `error` event is emitted). Also before a request lost with its session or stream is sent
   * again (`reason: 'resend'`): a veto fails a `tools/call` with kind `may_have_run`, any other request
   * with the error that lost it. A hook that throws vetoes too. Default none.
   */
  beforeRetry?: MCPBeforeRetryHook[];
  /** Every JSON-RPC message of the connection; `onWireMessage` is the first of these. Default none. */
  onWire?: MCPWireHook[];
  /**
   * When the server creates a task for a `tools/call`, in order until one returns a result. A call's own
   * `onTaskCreated` option (its own or its defaults') is the shorthand for a first hook of that call: it is
   * asked before these. Default none.
   */
  taskCreated?: MCPTaskCreatedHook[];
}
