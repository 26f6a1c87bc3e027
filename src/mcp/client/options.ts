/**
 * `MCPClient`'s options and connection state.
 */

import type { MCPFormatResultContext } from '../adapter/present-result.js';
import type { CallToolResult, LoggingLevel } from '../protocol/types.js';
import type { MCPCallOptionsSource } from '../session/call-options.js';
import type { MCPServerRequestHandlers } from '../session/server-requests.js';
import type { MCPReconnectOptions } from './reconnect.js';

export type { MCPFormatResultContext } from '../adapter/present-result.js';

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
  /** Default options for every tool call, or a function of the tool name returning them. */
  callOptions?: MCPCallOptionsSource;
  /** Bound in ms on each request of the handshake and discovery (`initialize`, `tools/list`). Default 60 000. */
  connectTimeout?: number;
  /** Throw `MCPToolError` from tool `execute` when a result has `isError: true`. Default true. */
  throwOnToolError?: boolean;
  /** Takes over how results reach the agent; the default is `renderCallToolResult`. */
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
  /** Ask the server for log messages at this level and above after each connect (`logging/setLevel`). */
  logLevel?: LoggingLevel;
}

/** Options for requests other than `tools/call`. */
export interface MCPRequestOptions {
  /** Cancels the request. */
  signal?: AbortSignal;
  /** Timeout in ms. Default: the client's `connectTimeout` (60 000). */
  timeout?: number;
}
