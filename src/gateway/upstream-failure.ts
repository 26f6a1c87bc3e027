/**
 * How an upstream's failure is told to the gateway's clients: which upstream, what it was doing, what
 * failed (the `MCPCallError` kind, and for a stdio server its exit code or signal), never what the upstream
 * wrote on its stderr. Those lines are for whoever runs the gateway (its own stderr, the upstream client's
 * `closeInfo`); a gateway client is somebody else, and a crashing server's stderr is where it dumps its
 * environment, paths and configuration.
 */
import type { MCPCallError } from '../mcp/for-gateway.js';

/** What a gateway client learns of a failure: a message, and `data` for code to switch on. */
export interface MCPGatewayUpstreamFailure {
  /** `MCP server "<server>": <method> "<tool>" failed: <what>`, or `MCP server "<server>" <what>`. */
  message: string;
  /**
   * `server` (its name in the configuration), `kind` (`connection_closed`, `spawn`, `timeout`, …) and, when
   * a stdio server's process ended, `exitCode` or `signal`.
   */
  data: { server: string; kind: string; exitCode?: number; signal?: string };
}

/**
 * The client-facing description of `error`, a failure of upstream `server`. For the kinds whose reason
 * quotes the server's stderr (a process that exited, could not start, or closed its stdout) the reason is
 * built again from the fields; any other reason is the error's own (built from fields, credentials redacted).
 */
export function describeUpstreamFailure(error: MCPCallError, server: string): MCPGatewayUpstreamFailure {
  const data: MCPGatewayUpstreamFailure['data'] = { server, kind: error.kind };
  if (typeof error.exitCode === 'number') data.exitCode = error.exitCode;
  if (typeof error.signal === 'string') data.signal = error.signal;
  // Only these kinds' reasons are built with the stderr tail (`…; last stderr: …`).
  const quotesStderr =
    (error.kind === 'connection_closed' || error.kind === 'spawn') && (error.stderrTail?.length ?? 0) > 0;
  if (!quotesStderr) return { message: error.message, data };
  const what =
    data.signal !== undefined
      ? `the server was killed by signal ${data.signal}`
      : data.exitCode !== undefined
        ? `the server exited with code ${data.exitCode}`
        : error.kind === 'spawn'
          ? 'the server could not be started'
          : 'the connection to the server closed';
  const message =
    error.method === undefined
      ? `MCP server "${server}" failed: ${what}`
      : `MCP server "${server}": ${error.method}${error.toolName === undefined ? '' : ` "${error.toolName}"`} failed: ${what}`;
  return { message, data };
}
