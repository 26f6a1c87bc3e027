/** A command line the CLI cannot act on. Reported as one line on stderr with exit code 2. */
export class UsageError extends Error {
  override name = 'UsageError';
}
