/** One question on the terminal: asked on stderr, answered with a line on stdin. */
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
