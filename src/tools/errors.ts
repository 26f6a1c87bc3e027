/**
 * Why a built-in tool refused or failed. The agent hands the message to the model; callers switch on `kind`.
 * - `outside_workspace`: a path leads outside the workspace root (directly, through `..`, or a symlink,
 *   including one swapped in while the call ran).
 * - `not_found`: the file or directory does not exist.
 * - `invalid_input`: an argument is missing or of the wrong kind, a regular expression does not parse, a
 *   path holds a NUL byte or is too long, `write_file` content is over its cap, or the path is not a regular
 *   file (a directory, FIFO or device given to `read_file` / `write_file` / `edit_file`).
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

/** Longest path shown in a message or on {@link BuiltinToolError.path}, in UTF-16 code units. */
const SHOWN_PATH_CHARS = 200;

/**
 * A path as it may be shown: NUL bytes as `\0`, and cut to 200 characters (with `…`), so that a hostile
 * argument cannot make a message huge or hold bytes a terminal or log would choke on.
 */
export function shownPath(raw: string): string {
  const escaped = raw.replaceAll('\0', '\\0');
  return escaped.length > SHOWN_PATH_CHARS ? `${escaped.slice(0, SHOWN_PATH_CHARS)}…` : escaped;
}

/** A built-in tool's failure. The original error, when there is one, is on `cause`. */
export class BuiltinToolError extends Error {
  override name = 'BuiltinToolError';
  readonly kind: BuiltinToolErrorKind;
  /** The tool that failed. */
  readonly toolName: string;
  /**
   * For a refusal of a path or content (not a failure of the file system): why.
   * `outside_workspace` (the path, or what it turned into while the call ran, leads outside the root),
   * `nul_byte` (the path holds a NUL byte), `name_too_long` (a path segment over 255 bytes or a path over
   * 4,096 bytes, in UTF-8), `too_large` (`write_file` content or an `edit_file` result over `maxWriteBytes`).
   */
  readonly reason: 'outside_workspace' | 'nul_byte' | 'name_too_long' | 'too_large' | undefined;
  /** The path refused, as `shownPath` shows it (at most 200 characters, no NUL byte). */
  readonly path: string | undefined;

  constructor(
    kind: BuiltinToolErrorKind,
    toolName: string,
    message: string,
    options: { cause?: unknown; reason?: BuiltinToolError['reason']; path?: string } = {},
  ) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.kind = kind;
    this.toolName = toolName;
    this.reason = options.reason;
    this.path = options.path;
  }
}

/** Maps Node's file-system errors to `not_found` / `io`, naming the tool and the path. */
export function fsError(toolName: string, shown: string, error: unknown): BuiltinToolError {
  if (error instanceof BuiltinToolError) return error;
  const code = error instanceof Error && 'code' in error ? String(error.code) : '';
  if (code === 'ENOENT')
    return new BuiltinToolError('not_found', toolName, `"${shown}" does not exist`, { cause: error });
  const why = code || (error instanceof Error ? error.message : String(error));
  return new BuiltinToolError('io', toolName, `cannot access "${shown}": ${why}`, { cause: error });
}
