/**
 * The `hint: …` lines under an error that say what to type next: the login command for a server that
 * answered 401 (auth/stored-login.ts), `--input` for a VS Code `${input:ID}` that has no value.
 */
import { MCPConfigError } from '../mcp/index.js';
import { loginHint } from './auth/stored-login.js';

/** The hint lines for `error` (no newline); none for most errors. */
export function failureHints(error: unknown): string[] {
  if (error instanceof MCPConfigError && error.variable?.startsWith('input:')) {
    const id = error.variable.slice('input:'.length);
    return [`hint: give it with --input ${id}=<value> (on a terminal it is asked for)`];
  }
  return loginHint(error);
}
