/**
 * A stdio server's stderr: always drained (an unread pipe fills at 64 KiB and blocks the server), kept as a
 * bounded tail of its last lines for error messages, and optionally forwarded.
 */
import { noRedaction, type Redactor } from '../../protocol/redact.js';
import { decodeLine, LineReader } from './line-reader.js';

/**
 * Where a stdio server's stderr goes besides the captured tail:
 * - `'capture'`: nowhere (default);
 * - `'inherit'`: also to the host's stderr, byte for byte (as the server wrote it: `env` values unredacted);
 * - a function: called with each line (UTF-8, without its line ending, `env` values redacted).
 */
export type StderrMode = 'capture' | 'inherit' | ((line: string) => void);

/** Longest stderr line kept in the tail, in bytes; the rest of the line is dropped. */
export const STDERR_MAX_LINE_BYTES = 4096;

/** Drains a stderr stream into a ring of its last lines. */
export class StderrCapture {
  private readonly ring: string[] = [];
  private readonly reader: LineReader;

  /**
   * @param tailLines - lines kept, oldest dropped first (0 keeps none).
   * @param mode - see {@link StderrMode}.
   * @param onCallbackError - receives what a `mode` callback threw (it must not break the pipe).
   * @param redact - applied to each line before it is kept or handed to a `mode` callback (the server's
   *   `env` values, which a crash dump or a debug line may print).
   */
  constructor(
    private readonly tailLines: number,
    private readonly mode: StderrMode,
    private readonly onCallbackError: (error: unknown) => void,
    redact: Redactor = noRedaction,
  ) {
    this.reader = new LineReader({
      maxLineBytes: STDERR_MAX_LINE_BYTES,
      overflow: 'truncate',
      onLine: (line) => this.addLine(redact(decodeLine(line))),
    });
  }

  /** The last lines, oldest first. */
  get tail(): readonly string[] {
    return [...this.ring];
  }

  /** Feeds a chunk read from the pipe. */
  push(chunk: Buffer): void {
    if (this.mode === 'inherit') process.stderr.write(chunk);
    this.reader.push(chunk);
  }

  /** The pipe closed: keep a last line that had no newline (a crash often ends mid-line). */
  end(): void {
    this.reader.end();
  }

  private addLine(line: string): void {
    if (this.tailLines > 0) {
      this.ring.push(line);
      if (this.ring.length > this.tailLines) this.ring.shift();
    }
    if (typeof this.mode === 'function') {
      try {
        this.mode(line);
      } catch (error) {
        this.onCallbackError(error);
      }
    }
  }
}
