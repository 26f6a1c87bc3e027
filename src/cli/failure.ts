/**
 * How a failure reaches the user: an exit code and one clear stderr line (plus the stdio server's last
 * stderr lines when the error carries them). No stack traces; messages come from agentwire's errors, which
 * never contain header or environment values.
 */
import { errorDataSuffix } from '../agent/error-data.js';
import { MCPCallError, MCPConfigError, MCPToolError } from '../mcp/index.js';
import { URL_ELICITATION_REQUIRED } from '../mcp/session/engine/elicitations.js';
import { explainedLine, failureHints } from './failure-explanations.js';
import { ExitCode, type ExitCodeValue, singleLine } from './io.js';
import { UrlConsentUnavailableError } from './url-consent.js';
import { UsageError } from './usage-error.js';

/** What to print and which code to exit with. */
export interface Failure {
  exitCode: ExitCodeValue;
  /** Text for stderr, newline-terminated. */
  text: string;
}

/**
 * Classifies any thrown value: usage → 2, tool error → 1, a call cancelled by Ctrl-C or another signal →
 * 130, any other MCP call/connection failure → 3, else 1.
 */
export function describeFailure(error: unknown): Failure {
  if (error instanceof UsageError || error instanceof MCPConfigError) {
    const hints = failureHints(error).map((line) => `${line}\n`);
    return { exitCode: ExitCode.usage, text: [`error: ${error.message}\n`, ...hints].join('') };
  }
  if (error instanceof MCPToolError)
    return { exitCode: ExitCode.toolError, text: `error: ${error.message}\n` };
  if (error instanceof MCPCallError) {
    // A server that exited (`connection_closed`) is quoted in the message already: its stderr, once.
    const tail = error.kind === 'connection_closed' ? [] : (error.stderrTail ?? []);
    // -32042 (MCP spec 2025-11-25, "Elicitation > URL Elicitation Required Error") reaches here when no
    // terminal could ask for consent, or the user said no: say how to go on.
    const urlRequired = error.code === URL_ELICITATION_REQUIRED;
    // A 2026-07-28 URL elicitation refused for want of a terminal (url-consent.ts): name the URL.
    const consent = error.cause instanceof UrlConsentUnavailableError ? error.cause : undefined;
    const after = urlRequired
      ? ['the server needs you to open that URL: open it in a browser, then run the command again']
      : consent
        ? [
            `the server asks you to open ${consent.url}: run the command on a terminal to be asked for consent`,
          ]
        : [];
    return {
      exitCode: error.kind === 'aborted' ? ExitCode.interrupted : ExitCode.connection,
      // A JSON-RPC error's `data` often says how to fix the call (`{"field":"x","hint":"use y"}`); a
      // -32042's data is the URL list the message already names.
      text:
        (explainedLine(error) ??
          `error: ${singleLine(error.message)}${urlRequired ? '' : errorDataSuffix(error)}\n`) +
        stderrLines(tail) +
        [...after, ...failureHints(error)].map((line) => `${line}\n`).join(''),
    };
  }
  const message = error instanceof Error ? error.message : String(error);
  return { exitCode: ExitCode.toolError, text: `error: unexpected failure: ${message}\n` };
}

/** `server stderr (last lines):` and the lines, indented; empty for no lines. */
export function stderrLines(tail: readonly string[]): string {
  if (tail.length === 0) return '';
  return ['server stderr (last lines):', ...tail.map((line) => `  ${line}`)].map((l) => `${l}\n`).join('');
}
