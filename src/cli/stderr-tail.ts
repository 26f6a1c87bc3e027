/**
 * The last lines each stdio server of a command wrote to its stderr, kept by the CLI for the failures
 * whose error does not carry them: a request that timed out because the server never answered is best
 * explained by what the server said before it went quiet.
 */

/** Lines kept per server. */
export const STDERR_TAIL_LINES = 20;

/** The stderr tails of a command's servers, by server name. */
export class StderrTails {
  readonly #tails = new Map<string, string[]>();

  /**
   * A `stderr` callback that keeps the last {@link STDERR_TAIL_LINES} lines, and `name`, which files them
   * under the server's name once it is known (names are made unique after the client is created).
   */
  collector(): { stderr: (line: string) => void; name: (server: string) => void } {
    const tail: string[] = [];
    return {
      stderr: (line) => {
        tail.push(line);
        if (tail.length > STDERR_TAIL_LINES) tail.shift();
      },
      name: (server) => {
        this.#tails.set(server, tail);
      },
    };
  }

  /** The lines `server` wrote last, oldest first; empty when it wrote none or is not known. */
  of(server: string | undefined): readonly string[] {
    return server === undefined ? [] : [...(this.#tails.get(server) ?? [])];
  }
}
