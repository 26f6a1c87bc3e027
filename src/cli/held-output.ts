/**
 * The run's output, held back while a question waits on the terminal: a tool call that needs no answer may
 * finish while another call's question is open, and its lines would otherwise land in the middle of the
 * question. What is held is written, in order, once the question is answered.
 */
import type { CliIo } from './io.js';

/** An `io` whose stdout and stderr writes wait while {@link HeldOutput.hold} is in effect. */
export class HeldOutput {
  /** The io to hand to the printer: as `target`, with stdout and stderr writes held while a question is open. */
  readonly io: CliIo;
  readonly #pending: { stream: 'stdout' | 'stderr'; text: string }[] = [];
  #holds = 0;

  constructor(target: CliIo) {
    const write = (stream: 'stdout' | 'stderr') => (text: string) => {
      if (this.#holds > 0) this.#pending.push({ stream, text });
      else target[stream](text);
    };
    this.io = { ...target, stdout: write('stdout'), stderr: write('stderr') };
    this.#target = target;
  }

  readonly #target: CliIo;

  /** Holds the output while `work` runs, then writes what was held. */
  async hold<T>(work: () => Promise<T>): Promise<T> {
    this.#holds += 1;
    try {
      return await work();
    } finally {
      this.#holds -= 1;
      if (this.#holds === 0) {
        for (const { stream, text } of this.#pending.splice(0)) this.#target[stream](text);
      }
    }
  }
}
