/**
 * How a failed `agentwire run` reaches the user: the agent's and the providers' errors on top of the MCP
 * failures every command shares ({@link describeFailure}). One stderr line, an exit code, no stack trace,
 * and never a key or header value (provider messages name environment variables, not their values).
 */
import { AgentError } from '../agent/index.js';
import { ModelError } from '../providers/index.js';
import { describeFailure } from './failure.js';
import { ExitCode, type ExitCodeValue, singleLine } from './io.js';
import { RunSetupError } from './run-setup-error.js';

/** What to print (newline-terminated, for stderr) and which code to exit with. */
export interface RunFailure {
  exitCode: ExitCodeValue;
  text: string;
}

/**
 * Classifies what a command threw: an aborted agent run → 130; no model provider configured → 2; a model
 * request that failed (provider unreachable, HTTP error, broken stream) → 3; the agent's other failures
 * (`max_turns`) → 1; a {@link RunSetupError} → each of its failures on its own line(s), with the first one's
 * exit code (2 for invalid config entries, 3 for servers that could not connect); anything else as
 * {@link describeFailure} says.
 */
export function describeRunFailure(error: unknown): RunFailure {
  if (error instanceof RunSetupError) {
    const each = error.failures.map(describeRunFailure);
    return { exitCode: each[0]?.exitCode ?? 1, text: each.map((failure) => failure.text).join('') };
  }
  if (error instanceof AgentError && error.kind === 'aborted') {
    return { exitCode: ExitCode.interrupted, text: `error: ${error.message}${reasonOf(error.cause)}\n` };
  }
  if (error instanceof AgentError) return { exitCode: 1, text: `error: ${singleLine(error.message)}\n` };
  if (error instanceof ModelError) {
    return {
      exitCode: error.kind === 'not_configured' ? 2 : 3,
      text: `error: ${singleLine(error.message)}\n`,
    };
  }
  return describeFailure(error);
}

/** ` (interrupted by SIGINT)` for the abort reason the CLI's entry point gives; empty when there is none. */
function reasonOf(reason: unknown): string {
  if (reason instanceof Error && reason.message !== '') return ` (${singleLine(reason.message)})`;
  if (typeof reason === 'string' && reason !== '') return ` (${singleLine(reason)})`;
  return '';
}

/** Folds line breaks (an HTML error page quoted by a vendor SDK, say) so the error stays one line. */
