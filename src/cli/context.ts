import type { CliIo, ExitCodeValue } from './io.js';

/** What every command file receives: where to write, and how to report its exit code. */
export interface CommandContext {
  io: CliIo;
  /** Records the exit code of the command that ran (default 0). */
  exit(code: ExitCodeValue): void;
}
