/**
 * The CLI's contact with the outside world, passed in so that tests run the CLI in-process with captured
 * output and the real entry point wires it to the process.
 */

/** Where the CLI writes, and what can interrupt it. */
export interface CliIo {
  /** Results: rendered tool output, tool lists, raw JSON. Receives whole chunks, newline included. */
  stdout(text: string): void;
  /** Errors and diagnostics, one clear line each. */
  stderr(text: string): void;
  /**
   * Reads the whole of standard input (for `-` in place of the tool arguments). Absent: there is none to
   * read, and `-` is a usage error.
   */
  stdin?(): Promise<string>;
  /** Whether stdout is coloured (a terminal, see colors.ts); default no. stderr is coloured by the caller. */
  colorStdout?: boolean;
  /** Aborts the work in flight (Ctrl-C in the real CLI): a pending call is cancelled and the server stopped. */
  signal?: AbortSignal;
  /**
   * The terminal to draw progress on (the real CLI's stderr, when it is a TTY); absent when stderr is piped
   * or captured, and then no progress is drawn.
   */
  terminal?: NodeJS.WriteStream;
  /**
   * Asks the user a yes/no `question` (written as is, no newline added); set only when there is a terminal
   * to answer on (stdin and stderr are TTYs). Without it, what needs consent is refused.
   */
  confirm?(question: string, signal?: AbortSignal): Promise<boolean>;
  /**
   * Asks the user `question` (written as is) and resolves with the line answered, `''` at the end of input;
   * set only when there is a terminal, like `confirm`. Without it, what needs an answer is refused.
   */
  ask?(question: string, signal?: AbortSignal): Promise<string>;
  /**
   * Asks one field of a form elicitation: writes `question` (as is) and resolves with the line answered, or
   * `null` when the user pressed Ctrl-C or input ended (the form is then declined; Ctrl-C here does not
   * interrupt the command). Set only when there is a terminal, like `ask`.
   */
  askField?(question: string, signal?: AbortSignal): Promise<string | null>;
}

/**
 * Exit codes: 0 ok, 1 the tool reported an error (`isError: true`), 2 the
 * command line is wrong, 3 the server could not be reached or the call failed below the tool; 130 (128 +
 * SIGINT, the shell convention) an agent run interrupted with Ctrl-C.
 */
export const ExitCode = {
  ok: 0,
  toolError: 1,
  usage: 2,
  connection: 3,
  interrupted: 130,
} as const;

/** One of {@link ExitCode}'s values. */
export type ExitCodeValue = (typeof ExitCode)[keyof typeof ExitCode];

/** Folds line breaks (an HTML error page quoted in an HTTP error, say) so a message stays one line. */
export function singleLine(message: string): string {
  return message.replace(/\s*[\r\n]+\s*/g, ' ').trim();
}

/** Indented JSON, newline-terminated (the `--json` output of every command). */
export function toJson(value: unknown): string {
  return `${JSON.stringify(value, null, 2)}\n`;
}
