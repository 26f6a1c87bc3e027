/**
 * What a session is given: what it tells its owner (hooks), what the client offers the server, and what
 * {@link Session.open} needs to open one.
 */

import type { MCPCallError } from '../protocol/errors.js';
import type { Redactor } from '../protocol/redact-error.js';
import type { Implementation, Root, ServerLogMessage } from '../protocol/types.js';
import type { AgentwireTransport } from '../transports/transport.js';
import type { BeforeResend } from './engine/replay.js';
import type { MCPServerRequestHandlers } from './engine/server-requests.js';
import type { ListenFeatures, ListenHooks } from './listen.js';
import type { PeerAddress } from './mcp-span.js';
import type { SessionEra } from './negotiation/negotiate.js';
import type { RequestOptions } from './request-options.js';
import type { ExcludedTool } from './tool-headers.js';
import type { WireTap } from './wire/wire.js';

/** What a session tells its owner. */
export interface SessionHooks extends ListenHooks {
  /** The connection ended without `close()` being called. `error` says why. */
  onUnexpectedClose(error: MCPCallError): void;
  /** The server sent `notifications/tools/list_changed`. */
  onToolListChanged(): void;
  /** A non-fatal transport or protocol problem. */
  onError(error: Error): void;
  /**
   * A response or progress notification arrived for a request no longer pending (it timed out or was
   * cancelled): normal (MCP spec 2025-11-25, "Utilities > Cancellation"), not an error.
   */
  onLateMessage?(): void;
  /** `notifications/message` from the server. */
  onServerLog?(message: ServerLogMessage): void;
  /** A listed tool was left out: its `x-mcp-header` declaration is invalid (2026-07-28 over HTTP). */
  onToolExcluded?(tool: ExcludedTool): void;
  /**
   * The handshake failed (a timeout, a refusal): called with the error at once, before the transport is
   * closed (seconds, for a stdio server that ignores SIGTERM); `open` then rejects with it once closed.
   */
  onOpenFailed?(error: MCPCallError): void;
}

/** What the client offers the server: handlers for its requests, and the current roots. */
export interface SessionClientFeatures extends MCPServerRequestHandlers, ListenFeatures {
  /** Removes the server's credentials from error text. */
  redact?: Redactor;
  /** The roots to answer `roots/list` with, read at request time. */
  currentRoots?: () => Root[];
  /** Bound on the input-required rounds of one request (2026-07-28). Default 10. */
  maxInputRounds?: number | undefined;
  /** Where the server is, for the network attributes of request spans (mcp-span.ts). */
  peer?: PeerAddress | undefined;
}

/** Builds a fresh transport for one connection attempt. */
export type TransportFactory = () => AgentwireTransport;

/** What {@link Session.open} needs. */
export interface SessionOpenOptions {
  /** The server's name, for errors. */
  server: string;
  /** `clientInfo` of the probe and `initialize`. */
  clientInfo: Implementation;
  /** A fresh transport for the connection (called again only when a server process died on the probe). */
  createTransport: TransportFactory;
  hooks: SessionHooks;
  /** The handshake's signal and timeout (the connect timeout). */
  request?: RequestOptions | undefined;
  /** What the client offers the server. */
  given?: SessionClientFeatures | undefined;
  /** How the revision is picked (negotiate.ts). */
  era?: SessionEra | undefined;
  /** The wire trace (`onWireMessage`); absent: none. */
  tap?: WireTap | undefined;
  /**
   * Consulted before a lost request is sent again, once the decision (replay-decision.ts) allows it: `false`
   * vetoes (a `tools/call` then fails with kind `may_have_run`, any other request with its own error).
   * Internal: the client's `hooks.beforeRetry` is wired to it. Absent: every allowed re-send goes.
   */
  beforeResend?: BeforeResend | undefined;
}
