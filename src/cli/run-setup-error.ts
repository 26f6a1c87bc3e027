/**
 * Several things wrong before a run can start, reported together: every invalid entry of a `--config`
 * file, or every server that could not connect, rather than only the first, so that one pass of fixes is
 * enough.
 */

/** Two or more failures of one run's setup, each one an error of its own (`MCPConfigError`, `MCPCallError`). */
export class RunSetupError extends Error {
  override name = 'RunSetupError';
  /** The failures, in the order of the servers they concern (the file's or the command line's). */
  readonly failures: readonly Error[];

  constructor(failures: readonly Error[]) {
    super(failures.map((failure) => failure.message).join('\n'));
    this.failures = failures;
  }
}

/**
 * Throws when there is anything in `failures`: the one failure itself, or a {@link RunSetupError} holding
 * them all. Values that are not `Error`s (a rejection with a string) are wrapped in one.
 */
export function throwSetupFailures(failures: readonly unknown[]): void {
  const errors = failures.map((failure) => (failure instanceof Error ? failure : new Error(String(failure))));
  const [first, ...rest] = errors;
  if (first === undefined) return;
  throw rest.length === 0 ? first : new RunSetupError(errors);
}
