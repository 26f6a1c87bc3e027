/**
 * `MCPClient`'s options and connection state.
 */

import type { RunContext } from '../../core/tool.js';
import type { MCPFormatResultContext, MCPFormatResultHook } from '../adapter/present-result.js';
import type { CallToolResult, LoggingLevel } from '../protocol/types.js';
import type { MCPCallOptionsHook, MCPCallOptionsSource } from '../session/call-options.js';
import type { MCPServerRequestHandlers } from '../session/engine/server-requests.js';
import type { MCPProtocolVersionOption } from '../session/negotiation/protocol-versions.js';
import { DEFAULT_REQUEST_TIMEOUT_MS, type RequestOptions } from '../session/request-options.js';
import type { RequestHookLists } from './hooks/hook-types.js';
import type { MCPReconnectOptions } from './reconnect.js';
import type { MCPWireMessage } from './wire-tap.js';

export type { MCPFormatResultContext } from '../adapter/present-result.js';

/** Default of `connectTimeoutMs`, in ms: the MCP SDK's default request timeout. */
export const DEFAULT_CONNECT_TIMEOUT_MS = DEFAULT_REQUEST_TIMEOUT_MS;

/** Default of `listChangedDebounceMs`, in ms. */
export const DEFAULT_LIST_CHANGED_DEBOUNCE_MS = 20;

/**
 * Connection state: `reconnecting` while automatic reconnection is trying; `failed` after a `connect()` that
 * failed, a lost connection with reconnection off, or reconnection that gave up.
 */
export type MCPClientState = 'disconnected' | 'connecting' | 'connected' | 'reconnecting' | 'failed';

/** Options shared by `fromStdio` and `fromUrl`. */
export interface MCPClientOptions extends MCPServerRequestHandlers {
  /** The server's name in errors, events and tool prefixes. Default: derived from the command or URL host. */
  name?: string;
  /** `clientInfo.name` sent in `initialize`. Default `"agentwire"`. */
  clientName?: string;
  /** `clientInfo.version` sent in `initialize`. Default: agentwire's package version. */
  clientVersion?: string;
  /**
   * Default options for every tool call, or a function of the tool name returning them. A function is the
   * shorthand for the first `hooks.callOptions` hook; an object is what the first of those hooks is given.
   * Default none.
   */
  callOptions?: MCPCallOptionsSource;
  /**
   * Bound in ms on each request of the handshake and discovery (`initialize`, `tools/list`), and the default
   * of other requests but tool calls. Default 60 000.
   */
  connectTimeoutMs?: number;
  /** Throw `MCPToolError` from tool `execute` when a result has `isError: true`. Default true. */
  throwOnToolError?: boolean;
  /**
   * Takes over how results reach the agent: what a tool's `execute` resolves with. The shorthand for the
   * first `hooks.formatResult` hook (given the `CallToolResult`). Default none: `renderCallToolResult`.
   */
  formatResult?: (result: CallToolResult, context: MCPFormatResultContext) => unknown;
  /** Automatic reconnection. Default `{ enabled: false }`. */
  reconnect?: MCPReconnectOptions;
  /**
   * Check `structuredContent` against a tool's `outputSchema` in `execute` (MCP spec 2025-11-25, "Tools >
   * Output Schema": clients SHOULD validate); a mismatch is thrown as an `MCPToolError` naming it, so the
   * model sees a tool error rather than data of the wrong shape. `callTool()` is never affected. Default
   * true.
   */
  validateOutput?: boolean;
  /** Re-discover tools on `notifications/tools/list_changed`. Default true. */
  refreshToolsOnListChanged?: boolean;
  /** Quiet period in ms that a burst of `list_changed` notifications is folded into. Default 20. */
  listChangedDebounceMs?: number;
  /**
   * Ask the server for log messages at this level and above after each connect: `logging/setLevel` in the
   * 2025 era; in 2026-07-28, which removed that method, `io.modelcontextprotocol/logLevel` in every
   * request's `_meta` (MCP spec 2026-07-28, changelog: the log level is set per request). Not sent to a
   * server that does not declare the `logging` capability (the connect goes on without it). Logging is
   * deprecated in MCP 2026-07-28 (changelog, "Deprecated"; still fully functional, and supported here).
   */
  logLevel?: LoggingLevel;
  /**
   * The MCP revision to speak. `'auto'` (default) negotiates: it sends `server/discover` first (MCP spec
   * 2026-07-28, "Server > Discover") and speaks 2026-07-28 when the server offers it, else falls back to the
   * 2025 `initialize` handshake (MCP spec 2026-07-28, "Basic > Versioning > Backward Compatibility"): over
   * stdio on the same server process, over Streamable HTTP after the server's 4xx (one extra round trip,
   * and from there to HTTP+SSE for a 2024-11-05 server); a -32022 answer naming another revision we speak
   * is retried once with it. A revision pins it: a 2025-era one sends `initialize` offering only it,
   * `'2026-07-28'` only `server/discover`. The HTTP+SSE transport (`transport: 'sse'`) speaks the 2025 era
   * only, so `'auto'` sends `initialize` there as before. Every reconnect negotiates again, except that over
   * Streamable HTTP the verdict is kept per origin (MCP spec 2026-07-28, "Basic > Versioning > Backward
   * Compatibility"): a 2025-era server gets `initialize` at once, a 2026-era one is probed at the agreed
   * revision or, while its `server/discover` result is fresh (`ttlMs`), not at all; a refusal (-32022, a 4xx
   * other than 401/403) drops the verdict and the connect probes again, once. Over stdio the verdict is kept
   * per command line (command, arguments, working directory, environment) alike, across server restarts.
   * A server that speaks none of the revisions allowed fails `connect()` with `MCPCallError` kind
   * `protocol`, `code` -32022, `data: { supported: string[] | undefined, offered: string[] }` (the
   * server's revisions and ours). See `MCPClient.getProtocolVersion()`.
   */
  protocolVersion?: MCPProtocolVersionOption;
  /**
   * Bound in ms on waiting for a stdio server's answer to the `server/discover` probe (`protocolVersion`
   * `'auto'`): a 2025-era server may ignore a request it does not know, and silence for this long means one,
   * so `initialize` follows at once on the same process (MCP spec 2026-07-28, "Transports > stdio > Backward
   * Compatibility": "does not respond within a reasonable timeout"). Independent of `connectTimeoutMs` (the
   * smaller of the two applies). Over HTTP every legacy server answers, and the probe is bounded by
   * `connectTimeoutMs` like any request. Default 5 000.
   */
  probeTimeoutMs?: number;
  /**
   * Bound on the input-required rounds of one request in MCP 2026-07-28 (`tools/call`, `prompts/get`,
   * `resources/read`; MCP spec 2026-07-28, "Basic > Patterns > Multi Round-Trip Requests"): the number of
   * times the server may answer `input_required` and have it fulfilled through `onElicitation`, `onSampling`
   * and `roots`. The next one fails the request with `MCPCallError` kind `input_required`, `inputRounds` set
   * to this bound. A count, integer ≥ 0. Default 10 (the MCP SDK's).
   * @throws RangeError from `fromStdio` / `fromUrl` when it is not a whole number ≥ 0.
   */
  maxInputRounds?: number;
  /**
   * Honour the caching hints of 2026-07-28 results (MCP spec 2026-07-28, "Server > Utilities > Caching"):
   * within its `ttlMs`, a `tools/list` page (also at a reconnect), a `prompts/list`, `resources/list` or
   * `resources/templates/list` page, or a `resources/read` of one URI is answered from memory, without a
   * request. `list_changed` / `resources/updated` notifications make the entry stale; `refreshTools()`
   * always asks the server; `cacheScope: 'private'` entries are dropped by `finishAuth()`. The cache belongs
   * to this client and is never shared. 2025-era servers send no `ttlMs`, so nothing of theirs is cached.
   * Default true; `false` sends every request.
   */
  cache?: boolean;
  /**
   * Most tool calls in flight to this server at once; more wait in order (FIFO), and the wait counts toward
   * each call's timeout (a call that times out or is aborted while waiting never reaches the server). For a
   * stdio server that works one request at a time, so that one model turn's parallel calls do not pile up.
   * A whole number ≥ 1. Default: no bound.
   * @throws RangeError from `fromStdio` / `fromUrl` when it is not a whole number ≥ 1.
   */
  maxConcurrentCalls?: number;
  /**
   * Called with every JSON-RPC message of the connection as it is sent and as it is received (requests,
   * responses, notifications, both eras), for tracing. The shorthand for the first `hooks.onWire` hook.
   * Default none: the transport is then used as is.
   */
  onWireMessage?: (message: MCPWireMessage) => void;
  /**
   * Hooks, each a list of functions run in order (see {@link MCPClientHooks}): `callOptions` (a call's
   * defaults), `beforeRequest` (may change a request's arguments, `_meta` and HTTP headers), `afterResult`
   * (may change a `tools/call` result before it is returned and rendered), `formatResult` (how a tool's
   * `execute` presents it), `taskCreated` (a task the server created for a call), `beforeRetry` (may veto a
   * reconnect or a re-send), `onWire` (every JSON-RPC message). Default none: requests then take the plain
   * path, with no hook machinery; `callOptions` and `formatResult` hooks alone leave it plain too.
   */
  hooks?: MCPClientHooks;
}

/**
 * A client's hooks (`MCPClientOptions.hooks`): lists of functions, each list run in order, each function
 * given what the one before left. A call runs `callOptions`, `beforeRequest`, then (a task-backed call)
 * `taskCreated`, then `afterResult`; a tool's `execute` then runs `formatResult`. Each shorthand option is
 * its list's first hook: `callOptions` as a function of `callOptions`, `formatResult` of `formatResult`,
 * `onWireMessage` of `onWire`, and a call's `onTaskCreated` of `taskCreated` for that call. The `headers`
 * option as a function is no `beforeRequest` hook: it is asked per HTTP request, those of the connect, the
 * GET stream and the session's DELETE included, and again after a `401` (see `MCPHttpServer.headers`), where
 * a `beforeRequest` hook runs once per request the client's methods make.
 */
export interface MCPClientHooks extends RequestHookLists {
  /**
   * Resolve each tool call's defaults, before `beforeRequest` (see {@link MCPCallOptionsHook}); the call's own
   * options are layered over the last one's. Default none.
   */
  callOptions?: MCPCallOptionsHook[];
  /**
   * Format each result a tool's `execute` hands the model, after `afterResult` and once the result is known
   * not to be a failure that `throwOnToolError` throws (see {@link MCPFormatResultHook}). `callTool()` is
   * never affected. Default none: the result is rendered (`renderCallToolResult`).
   */
  formatResult?: MCPFormatResultHook[];
}

/** Options for requests other than `tools/call`: the signal and timeout of every request. */
export interface MCPRequestOptions extends Pick<RequestOptions, 'signal'> {
  /** Bound on the request in ms. Default: the client's `connectTimeoutMs` (default 60 000). */
  timeoutMs?: RequestOptions['timeoutMs'];
  /**
   * Whom the request is made for (a tenant): given to the `headers` function, a token supplier and the
   * hooks as `MCPRequestContext.run`. Default: none.
   */
  context?: RunContext | undefined;
  /**
   * Extra HTTP headers for this request, over the client's `headers` (a `beforeRequest` hook sees and may
   * change them). Over stdio there are none: ignored. Default: none.
   */
  headers?: Readonly<Record<string, string>> | undefined;
}
