/**
 * The options of the stdio transport (see `StdioTransport` in `stdio.ts`), kept apart so that the
 * transport's file holds only its behaviour.
 */
import type { StderrMode } from './stderr.js';

export { DEFAULT_MAX_MESSAGE_BYTES } from '../limits.js';

/**
 * How long each step of a stdio server's shutdown waits for it to exit before the next, in ms (MCP spec
 * 2025-11-25, "Lifecycle > Shutdown": stdin closed, then SIGTERM, then SIGKILL, each after a grace period).
 */
export const DEFAULT_CLOSE_GRACE_MS = 2000;

/** Why a stdout line was skipped (see {@link StdioTransportOptions.onNonJsonLine}). */
export interface NonJsonLineInfo {
  /** `not_json`: the line does not parse; `not_jsonrpc`: it parses but is not a JSON-RPC 2.0 message. */
  reason: 'not_json' | 'not_jsonrpc';
  /** Lines skipped without a report since the previous report (reports are rate-limited). */
  suppressed: number;
}

/** Options of a {@link StdioTransport}. */
export interface StdioTransportOptions {
  /** The executable, looked up on the child's `PATH` when it contains no path separator. */
  command: string;
  /** Its arguments. Default `[]`. */
  args?: readonly string[] | undefined;
  /**
   * Extra environment variables, merged over the SDK's safe default environment (`HOME`, `LOGNAME`, `PATH`,
   * `SHELL`, `TERM`, `USER`, from `getDefaultEnvironment()`); these win. Values of 8 characters or more
   * (`MIN_ENV_SECRET_LENGTH`) are redacted (`[redacted]`) wherever the server's output reaches agentwire's
   * reports: stderr lines (`stderrTail`, a `stderr` callback, error messages), skipped stdout lines, and
   * JSON-RPC errors (message and `data`). `stderr: 'inherit'` copies the bytes unredacted.
   */
  env?: Readonly<Record<string, string>> | undefined;
  /** Pass the host's whole environment (then `env` over it) instead of the safe default. Default `false`. */
  inheritEnv?: boolean | undefined;
  /** Working directory of the server. Default: the host's. */
  cwd?: string | undefined;
  /** Where stderr goes besides the captured tail (see {@link StderrMode}). Default `'capture'`. */
  stderr?: StderrMode | undefined;
  /** Lines of stderr kept for `stderrTail`, `closeInfo` and errors. Default 20. */
  stderrTailLines?: number | undefined;
  /**
   * Grace period of each step of `close()` (stdin end, SIGTERM, SIGKILL), in ms; not waited once the server
   * has exited. Default 2000 ({@link DEFAULT_CLOSE_GRACE_MS}).
   */
  closeGraceMs?: number | undefined;
  /** The server's name in errors. Default: `command`. */
  serverName?: string | undefined;
  /**
   * Called for a stdout line that is not a JSON-RPC message (a banner, a log line), which is skipped.
   * Rate-limited: the first 5, then one every 10 s carrying the count skipped in between. When unset, the
   * same reports go to `onerror` as an `MCPCallError` of kind `protocol`.
   */
  onNonJsonLine?: ((line: string, info: NonJsonLineInfo) => void) | undefined;
  /**
   * Largest message (stdout line) accepted, in bytes. A longer one closes the connection as soon as it
   * passes the limit, with `closeInfo` kind `protocol` naming it: the reply it carried is lost and which
   * call it answers cannot be known unread, so failing every pending call at once beats letting one time
   * out. Default 256 MiB (`DEFAULT_MAX_MESSAGE_BYTES`, the HTTP transports' default too).
   */
  maxMessageBytes?: number | undefined;
}
