/** Questions on the terminal: asked on stderr, answered with a line on stdin. */
import { createInterface } from 'node:readline/promises';

/**
 * Writes `question` to stderr as is and resolves with the next line read from stdin, without its line
 * break; `''` when stdin ends first. `signal` ends the wait (the promise rejects with its `AbortError`).
 */
export async function askOnTerminal(question: string, signal?: AbortSignal): Promise<string> {
  const rl = createInterface({ input: process.stdin, output: process.stderr, terminal: false });
  const ended = new Promise<string>((resolve) => rl.once('close', () => resolve('')));
  try {
    return await Promise.race([rl.question(question, signal ? { signal } : {}), ended]);
  } finally {
    rl.close();
  }
}

/**
 * Writes `question` to stderr and resolves with the next line typed, edited as a terminal line (readline's
 * terminal mode, raw input); `null` when the user presses Ctrl-C (caught here, so the command is not
 * interrupted) or input ends. `signal` ends the wait (the promise rejects with its `AbortError`). The
 * terminal is left as it was found.
 */
export async function askFieldOnTerminal(question: string, signal?: AbortSignal): Promise<string | null> {
  const rl = createInterface({ input: process.stdin, output: process.stderr, terminal: true });
  const stopped = new Promise<null>((resolve) => {
    rl.once('SIGINT', () => {
      process.stderr.write('^C\n');
      resolve(null);
    });
    rl.once('close', () => resolve(null));
  });
  try {
    return await Promise.race([rl.question(question, signal ? { signal } : {}), stopped]);
  } finally {
    rl.close();
  }
}
