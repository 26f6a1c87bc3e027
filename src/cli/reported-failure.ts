/**
 * A failure already printed. A command's failure is printed the moment it happens (a timeout, Ctrl-C),
 * before its servers are stopped, which may take seconds for a server that ignores SIGTERM; what is thrown
 * on afterwards only carries the exit code, so that nothing is printed twice.
 */
import type { ExitCodeValue } from './io.js';

/** Thrown after the failure `cause` has been written to stderr; the CLI exits with `exitCode`. */
export class ReportedFailure extends Error {
  override name = 'ReportedFailure';
  readonly exitCode: ExitCodeValue;

  constructor(exitCode: ExitCodeValue, cause: unknown) {
    super('the failure has been reported', { cause });
    this.exitCode = exitCode;
  }
}
