/**
 * Splits a byte stream into newline-terminated lines in linear time.
 *
 * The stdio transport frames messages as newline-delimited JSON (MCP spec 2025-11-25, "Transports > stdio":
 * messages are delimited by newlines and MUST NOT contain embedded newlines). The SDK's reader concatenates
 * its whole buffer on every chunk, which is quadratic: a 20 MiB message takes seconds. This reader keeps the
 * chunks of an unfinished line in a list, searches only each new chunk for `\n`, and joins once per line.
 *
 * Lines are returned as bytes and decoded whole, so a UTF-8 character split across two chunks decodes
 * correctly: byte 0x0A never occurs inside a multi-byte UTF-8 sequence.
 */

const NEWLINE = 0x0a;

/** What to do with a line longer than `maxLineBytes`. */
export type LineOverflow =
  /**
   * Drop the whole line, reporting it as soon as it passes the limit (for messages: a partial message is
   * useless, and whoever waits for it should know now, not when the line ends, if ever).
   */
  | 'drop'
  /** Keep its first `maxLineBytes` bytes and drop the rest (for logs: the start of a line still helps). */
  | 'truncate';

/** Options of a {@link LineReader}. */
export interface LineReaderOptions {
  /** Called with each complete line, without its `\n` (a trailing `\r` is kept; see {@link decodeLine}). */
  onLine: (line: Buffer) => void;
  /** Longest line kept, in bytes. Default: unlimited (`Infinity`). */
  maxLineBytes?: number;
  /** Default `'drop'`. */
  overflow?: LineOverflow;
  /** Called once per overlong line, as soon as the limit is crossed, with the line's bytes seen so far. */
  onOverflow?: (bytes: number) => void;
  /**
   * Streams large lines instead of joining them: once a line reaches `bytes` bytes, `open()` is called and
   * the line's bytes so far, then the rest as it arrives, go to the sink it returns; the line never
   * reaches `onLine` (a reader of large messages can let the bytes go as it reads them; see
   * json-large-line.ts). A line dropped for being over `maxLineBytes` is abandoned without `end()`.
   * Default: none, every line goes to `onLine`.
   */
  largeLine?: { bytes: number; open: () => LargeLineSink };
}

/** Where a large line goes (see {@link LineReaderOptions.largeLine}). */
export interface LargeLineSink {
  /** The line's next bytes, in order. */
  push(bytes: Buffer): void;
  /** The line is complete (its `\n` came, or the stream ended). */
  end(): void;
}

/** Incremental line splitter; feed it with {@link LineReader.push}, end it with {@link LineReader.end}. */
export class LineReader {
  private readonly onLine: (line: Buffer) => void;
  private readonly maxLineBytes: number;
  private readonly overflow: LineOverflow;
  private readonly onOverflow: ((bytes: number) => void) | undefined;
  private readonly largeLine: LineReaderOptions['largeLine'];
  /** The sink of the current line, once it is large. */
  private sink: LargeLineSink | undefined;
  /** Pieces of the current, unfinished line, oldest first. */
  private pending: Buffer[] = [];
  /** Bytes in `pending`. */
  private pendingBytes = 0;
  /** Bytes of the current line seen so far, including those dropped past the limit. */
  private lineBytes = 0;

  constructor(options: LineReaderOptions) {
    this.onLine = options.onLine;
    this.maxLineBytes = options.maxLineBytes ?? Number.POSITIVE_INFINITY;
    this.overflow = options.overflow ?? 'drop';
    this.onOverflow = options.onOverflow;
    this.largeLine = options.largeLine;
  }

  /** Bytes held for the unfinished line (at most `maxLineBytes`). */
  get bufferedBytes(): number {
    return this.pendingBytes;
  }

  /** Feeds the next chunk; calls `onLine` for every line it completes, in order. */
  push(chunk: Buffer): void {
    let start = 0;
    let newline = chunk.indexOf(NEWLINE, start);
    while (newline !== -1) {
      this.append(chunk.subarray(start, newline));
      this.finishLine();
      start = newline + 1;
      newline = chunk.indexOf(NEWLINE, start);
    }
    if (start < chunk.length) this.append(chunk.subarray(start));
  }

  /** Ends the stream: an unterminated last line is delivered as a line (a process may die mid-write). */
  end(): void {
    if (this.lineBytes > 0) this.finishLine();
  }

  private append(piece: Buffer): void {
    if (piece.length === 0) return;
    const before = this.lineBytes;
    this.lineBytes += piece.length;
    if (this.lineBytes <= this.maxLineBytes) {
      this.keep(piece);
      return;
    }
    if (before > this.maxLineBytes) return; // already over the limit: the rest of the line is dropped
    if (this.overflow === 'truncate') {
      if (before < this.maxLineBytes) this.keep(piece.subarray(0, this.maxLineBytes - before));
      this.onOverflow?.(this.lineBytes);
    } else {
      this.pending = [];
      this.pendingBytes = 0;
      this.sink = undefined;
      this.onOverflow?.(this.lineBytes);
    }
  }

  private keep(piece: Buffer): void {
    if (this.sink !== undefined) {
      this.sink.push(piece);
      return;
    }
    this.pending.push(piece);
    this.pendingBytes += piece.length;
    if (this.largeLine !== undefined && this.pendingBytes >= this.largeLine.bytes) {
      this.sink = this.largeLine.open();
      for (const held of this.pending) this.sink.push(held);
      this.pending = [];
      this.pendingBytes = 0;
    }
  }

  private finishLine(): void {
    const total = this.lineBytes;
    const pieces = this.pending;
    const bytes = this.pendingBytes;
    const sink = this.sink;
    this.pending = [];
    this.pendingBytes = 0;
    this.lineBytes = 0;
    this.sink = undefined;
    if (total > this.maxLineBytes && this.overflow === 'drop') return; // reported when it crossed the limit
    if (sink !== undefined) {
      sink.end();
      return;
    }
    const line = pieces.length === 1 ? pieces[0]! : Buffer.concat(pieces, bytes);
    this.onLine(line);
  }
}

/** Decodes a line as UTF-8, dropping the `\r` of a CRLF ending (servers on Windows write them). */
export function decodeLine(line: Buffer): string {
  const end = line.length > 0 && line[line.length - 1] === 0x0d ? line.length - 1 : line.length;
  return line.toString('utf8', 0, end);
}
