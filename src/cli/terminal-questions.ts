/**
 * One terminal, shared by what draws on it and what asks on it: while a question is open (a form of a
 * server, cli/form-elicitation.ts), whatever redraws a line of its own (a call's progress bar,
 * call-progress.ts, which redraws on a timer) steps aside, so the question and its answers are not drawn
 * over; it takes the terminal back once the last question is answered.
 */
import type { CliIo } from './io.js';

/** Something that draws on the terminal until told to step aside. */
export interface TerminalDrawer {
  /** A question is about to be asked: end the line drawn (it stays on screen), draw nothing more. */
  pause(): void;
}

/** The drawers and open questions of one terminal. */
export class TerminalQuestions {
  readonly #drawers = new Set<TerminalDrawer>();
  #open = 0;

  /** Registers `drawer` (told to pause before each question); returns the function that forgets it. */
  draw(drawer: TerminalDrawer): () => void {
    this.#drawers.add(drawer);
    return () => this.#drawers.delete(drawer);
  }

  /** Whether a question is open now (a drawer draws nothing then). */
  get asking(): boolean {
    return this.#open > 0;
  }

  /** Runs `work`, which asks on the terminal, with every drawer paused. */
  async ask<T>(work: () => Promise<T>): Promise<T> {
    this.#open += 1;
    for (const drawer of this.#drawers) drawer.pause();
    try {
      return await work();
    } finally {
      this.#open -= 1;
    }
  }
}

const byIo = new WeakMap<CliIo, TerminalQuestions>();

/** The terminal questions of `io` (one per io: the CLI's one terminal). */
export function terminalQuestions(io: CliIo): TerminalQuestions {
  let questions = byIo.get(io);
  if (!questions) {
    questions = new TerminalQuestions();
    byIo.set(io, questions);
  }
  return questions;
}
