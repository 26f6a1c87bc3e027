/**
 * Why a built-in tool refused or failed. The agent hands the message to the model; callers switch on `kind`.
 * - `outside_workspace`: a path leads outside the workspace root (directly, through `..`, or a symlink).
 * - `not_found`: the file or directory does not exist.
 * - `invalid_input`: an argument is missing or of the wrong kind, a regular expression does not parse, or the
 *   path is not a regular file (a directory, FIFO or device given to `read_file` / `write_file` / `edit_file`).
 * - `no_match` / `ambiguous_match`: `edit_file`'s `old_text` occurs zero times / more than once.
 * - `timeout`: `bash` or `search` ran past its timeout and was stopped.
 * - `aborted`: the call's AbortSignal fired.
 * - `io`: the file system refused (permissions, a directory where a file was expected, …).
 */
export type BuiltinToolErrorKind =
  | 'outside_workspace'
  | 'not_found'
  | 'invalid_input'
  | 'no_match'
  | 'ambiguous_match'
  | 'timeout'
  | 'aborted'
  | 'io';

/** A built-in tool's failure. The original error, when there is one, is on `cause`. */
export class BuiltinToolError extends Error {
  override name = 'BuiltinToolError';
  readonly kind: BuiltinToolErrorKind;
  /** The tool that failed. */
  readonly toolName: string;

  constructor(
    kind: BuiltinToolErrorKind,
    toolName: string,
    message: string,
    options: { cause?: unknown } = {},
  ) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.kind = kind;
    this.toolName = toolName;
  }
}
