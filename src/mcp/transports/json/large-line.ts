/**
 * transports/json/: JSON-RPC messages of megabytes, parsed while they arrive.
 *
 * Parses one large stdout line (a JSON-RPC message of megabytes) while it arrives, at little more than its
 * size in peak memory.
 *
 * The ordinary path (stdio/line-reader.ts + `JSON.parse`) holds the line's chunks, the joined line, its
 * decoded text and the parsed strings at once: 4× the payload for a 20 MiB tool result, where the goal is
 * at most 3×. Large messages are large because of one or a few long strings
 * (a text block, an image's base64 data), so this reader, fed chunk by chunk:
 * 1. follows JSON's string grammar (RFC 8259 section 7: a string starts and ends with an unescaped `"`, a
 *    backslash escapes the next character) to see where each string value starts and ends;
 * 2. once a string reaches {@link LONG_STRING_BYTES}, sends its content to a {@link LongJsonString}, which
 *    decodes and unescapes it as it comes, so the chunks are let go at once;
 * 3. keeps the rest of the line, the "skeleton", with a placeholder for each long string, and parses it
 *    with `JSON.parse` at the end, which validates everything but the long strings' content;
 * 4. puts the long strings back into the parsed skeleton (placeholders.ts).
 *
 * Measured: a 20 MiB plain text result peaks at ~2.4× its size instead of ~4×, and is
 * read faster; text dense with escapes (JSON inside a text block) costs the byte-by-byte scan on top of
 * the unescaping that `JSON.parse` does anyway.
 *
 * One leniency against `JSON.parse`: a raw control character inside a long string, in a 1 MiB stretch
 * without escapes, is accepted. A line that is not JSON is reported with its text, long strings
 * re-escaped (see {@link LargeLineParser.text}).
 */

import { LongJsonString } from './long-string.js';
import { placeholderBytes, restoreLongStrings, withWrittenLongStrings } from './placeholders.js';

/**
 * Lines of at least this many bytes (4 MiB) are read here. Below it the 4× peak is a few MiB, and the
 * scan would cost big lists of small strings (a 5 000-tool `tools/list` result is about 1 MiB) for nothing.
 */
export const LARGE_LINE_BYTES = 4 * 1024 * 1024;
/** Strings of at least this many bytes (32 KiB) are decoded as they come, not parsed in the skeleton. */
export const LONG_STRING_BYTES = 32 * 1024;

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
/**
 * Inside a string only an unescaped quote matters: the next quote is found with `indexOf` (memchr) and is
 * escaped when an odd run of backslashes comes right before it. Where quotes come closer together than
 * {@link DENSE_QUOTE_GAP} bytes (escaped quotes, as in JSON inside a text block), the next
 * {@link DENSE_SCAN_BYTES} bytes are looked at one by one instead, cheaper than a native call per quote.
 */
const DENSE_QUOTE_GAP = 64;
const DENSE_SCAN_BYTES = 256;

/** What a finished line turned out to be. */
export type LargeLineResult =
  /** The parsed JSON value. */
  | { ok: true; value: unknown }
  /** Not JSON (as `JSON.parse` would also say, but for the leniency above). */
  | { ok: false };

/** Reads one line; feed it with {@link LargeLineParser.push}, then call {@link LargeLineParser.finish}. */
export class LargeLineParser {
  private readonly minStringBytes: number;
  /** Bytes of the line outside long strings (and placeholders for them), in order. */
  private readonly skeleton: Buffer[] = [];
  /** Where each skeleton piece starts in the line (bytes); -1 for a placeholder. */
  private readonly skeletonStarts: number[] = [];
  private readonly strings: LongJsonString[] = [];
  /** The long string being received, if any. */
  private current: LongJsonString | undefined;
  private inString = false;
  /** The previous chunk ended with a backslash inside a string: the next chunk's first byte is escaped. */
  private escapeNext = false;
  /** Whether the chunk being read started with such an escaped byte. */
  private chunkStartEscaped = false;
  /** Offsets in the line: of the next chunk's first byte, and of the current string's first content byte. */
  private base = 0;
  private stringStart = 0;

  /** @param minStringBytes - Shortest string read as a long one, in bytes. Default {@link LONG_STRING_BYTES}. */
  constructor(minStringBytes = LONG_STRING_BYTES) {
    this.minStringBytes = minStringBytes;
  }

  /** Feeds the next bytes of the line (cut anywhere, even inside a UTF-8 sequence or an escape). */
  push(chunk: Buffer): void {
    const length = chunk.length;
    if (length === 0) return;
    let i = 0;
    /** The first byte of `chunk` not yet given to the skeleton or to the current long string. */
    let from = 0;
    this.chunkStartEscaped = this.escapeNext;
    if (this.escapeNext) {
      this.escapeNext = false;
      i = 1;
    }
    while (i < length) {
      if (!this.inString) {
        // Between strings: structure and numbers, short runs.
        while (i < length && chunk[i] !== QUOTE) i++;
        if (i === length) break;
        i++;
        this.inString = true;
        this.stringStart = this.base + i;
        continue;
      }
      i = this.scanString(chunk, i);
      if (i > length) {
        this.escapeNext = true;
        break;
      }
      if (i === length) break; // the string goes on in the next chunk
      // The closing quote is at i.
      if (this.current === undefined && this.base + i - this.stringStart >= this.minStringBytes) {
        from = this.startLongString(chunk, from, i);
      }
      if (this.current !== undefined) {
        this.current.push(chunk.subarray(from, i));
        this.endLongString();
        from = i; // the skeleton goes on with the closing quote
      }
      this.inString = false;
      i++;
    }
    if (
      this.inString &&
      this.current === undefined &&
      this.base + length - this.stringStart >= this.minStringBytes
    ) {
      from = this.startLongString(chunk, from, length);
    }
    if (this.current !== undefined) this.current.push(chunk.subarray(from));
    else this.keep(chunk.subarray(from), this.base + from);
    this.base += length;
  }

  /**
   * Ends the line (without its `\n`) and parses it.
   *
   * @returns The value, or `{ ok: false }` when the line is not JSON.
   */
  finish(): LargeLineResult {
    if (this.inString || !this.strings.every((string) => string.valid)) return { ok: false };
    const values = this.strings.map((string) => string.value());
    let value: unknown;
    try {
      value = JSON.parse(this.skeletonText());
    } catch {
      return { ok: false };
    }
    return { ok: true, value: restoreLongStrings(value, values) };
  }

  /**
   * The line's text, for reporting a line that is not what it should be: decoded as the ordinary path
   * decodes it (UTF-8, a trailing `\r` dropped), except that the long strings' valid parts are re-escaped
   * by `JSON.stringify` (the same JSON, maybe other escapes: their text as written was let go while
   * reading). Call after {@link LargeLineParser.finish}.
   */
  text(): string {
    if (this.current !== undefined) this.endLongString(); // a string the line ended inside of
    const text = withWrittenLongStrings(this.skeletonText(), this.strings);
    return text.endsWith('\r') ? text.slice(0, -1) : text;
  }

  /**
   * Scans string content from `i` to its closing quote. Returns the quote's index, `length` when the string
   * goes on past the chunk, or `length + 1` when it goes on and the chunk ends with a backslash that
   * escapes the next chunk's first byte (an odd run of them).
   */
  private scanString(chunk: Buffer, start: number): number {
    const length = chunk.length;
    // Bytes before `floor` are not part of a backslash run that could escape a quote here: the first byte
    // when the previous chunk's run escaped it.
    const floor = start === 1 && this.chunkStartEscaped ? 1 : 0;
    let i = start;
    let dense = false;
    for (;;) {
      let quote = -1;
      if (dense) {
        // Quotes come close together (escaped ones, as in JSON inside a text): bytes one by one.
        const end = Math.min(length, i + DENSE_SCAN_BYTES);
        for (let k = i; k < end; k++) {
          if (chunk[k] === QUOTE) {
            quote = k;
            break;
          }
        }
        if (quote === -1 && end < length) {
          i = end;
          dense = false;
          continue;
        }
      } else {
        quote = chunk.indexOf(QUOTE, i);
      }
      if (quote === -1) return backslashRun(chunk, length, floor) % 2 === 1 ? length + 1 : length;
      if (backslashRun(chunk, quote, floor) % 2 === 0) return quote;
      dense = quote - i < DENSE_QUOTE_GAP;
      i = quote + 1;
    }
  }

  /**
   * Turns the string being scanned into a long one: its content so far (in the skeleton and in
   * `chunk[from, to)`) goes to a new {@link LongJsonString}. Returns the new `from` (= `to`).
   */
  private startLongString(chunk: Buffer, from: number, to: number): number {
    this.keep(chunk.subarray(from, to), this.base + from);
    const string = new LongJsonString();
    // The content starts in the last skeleton pieces: at most LONG_STRING_BYTES plus this chunk.
    let first = this.skeleton.length;
    while (first > 0 && this.skeletonStarts[first - 1]! >= this.stringStart) first--;
    // The piece before holds the opening quote, and maybe the content's first bytes.
    const cut = first - 1;
    if (cut >= 0 && this.skeletonStarts[cut]! >= 0) {
      const piece = this.skeleton[cut]!;
      const offset = this.stringStart - this.skeletonStarts[cut]!;
      string.push(piece.subarray(offset));
      this.skeleton[cut] = piece.subarray(0, offset);
    }
    // One by one: a spread of many small chunks could exceed the call's argument limit.
    for (let k = first; k < this.skeleton.length; k++) string.push(this.skeleton[k]!);
    this.skeleton.length = first;
    this.skeletonStarts.length = first;
    this.current = string;
    return to;
  }

  private endLongString(): void {
    const string = this.current!;
    string.end();
    this.current = undefined;
    this.skeleton.push(placeholderBytes(this.strings.length));
    this.skeletonStarts.push(-1);
    this.strings.push(string);
  }

  private keep(bytes: Buffer, start: number): void {
    if (bytes.length === 0) return;
    this.skeleton.push(bytes);
    this.skeletonStarts.push(start);
  }

  private skeletonText(): string {
    return Buffer.concat(this.skeleton).toString('utf8');
  }
}

/** How many backslashes come right before `end` in `chunk`, not counting bytes before `floor`. */
function backslashRun(chunk: Buffer, end: number, floor: number): number {
  let count = 0;
  for (let k = end - 1; k >= floor && chunk[k] === BACKSLASH; k--) count++;
  return count;
}
