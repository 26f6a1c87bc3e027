/**
 * Parses one large stdout line (a JSON-RPC message of megabytes) while it arrives, at little more than its
 * size in peak memory.
 *
 * The ordinary path (stdio-line-reader.ts + `JSON.parse`) holds the line's chunks, the joined line, its
 * decoded text and the parsed strings at once: 4× the payload for a 20 MiB tool result (bench/RESULTS.md,
 * workload 3; issue 8 asks for at most 3×). Large messages are large because of one or a few long strings
 * (a text block, an image's base64 data), so this reader, fed chunk by chunk:
 * 1. follows JSON's string grammar (RFC 8259 section 7: a string starts and ends with an unescaped `"`, a
 *    backslash escapes the next character) to see where each string value starts and ends;
 * 2. once a string reaches {@link LONG_STRING_BYTES}, sends its content to a {@link LongJsonString}, which
 *    decodes it as it comes, so the chunks are let go at once;
 * 3. keeps the rest of the line, the "skeleton", with a placeholder for each long string, and parses it
 *    with `JSON.parse` at the end, which validates everything but the long strings' content;
 * 4. puts the long strings back (unescaped in pieces where they have escapes; json-unescape.ts).
 *
 * One leniency against `JSON.parse`: a raw control character inside a long string without escapes is
 * accepted. A line that is not JSON is reported with its text, rebuilt exactly (see {@link LargeLineParser.text}).
 */

import { LongJsonString } from './json-long-string.js';
import { placeholderBytes, restoreLongStrings, withRawLongStrings } from './json-placeholders.js';

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
 * After this many plain bytes inside one string, stop looking at bytes one by one and let `indexOf`
 * (memchr) find the next special byte: a 20 MiB plain string is scanned in ~2 ms instead of ~40.
 */
const SCAN_BYTES_BEFORE_SEARCH = 256;

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
  /** Whether the string being scanned has a backslash. */
  private escaped = false;
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
        this.escaped = false;
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
    if (this.inString) return { ok: false };
    let values: string[];
    try {
      values = this.strings.map((string) => string.value());
    } catch {
      return { ok: false };
    }
    let value: unknown;
    try {
      value = JSON.parse(this.skeletonText());
    } catch {
      return { ok: false };
    }
    return { ok: true, value: restoreLongStrings(value, values) };
  }

  /**
   * The line's text, as the ordinary path would have decoded it (UTF-8, a trailing `\r` dropped): for
   * reporting a line that is not what it should be. Call after {@link LargeLineParser.finish}.
   */
  text(): string {
    if (this.current !== undefined) this.endLongString(); // a string the line ended inside of
    const text = withRawLongStrings(this.skeletonText(), this.strings);
    return text.endsWith('\r') ? text.slice(0, -1) : text;
  }

  /**
   * Scans string content from `i` to its closing quote. Returns the quote's index, `length` when the string
   * goes on past the chunk, or `length + 1` when the chunk ends with a backslash (the escaped byte is in
   * the next chunk).
   */
  private scanString(chunk: Buffer, start: number): number {
    const length = chunk.length;
    let plain = 0;
    let i = start;
    for (; i < length; i++) {
      const byte = chunk[i];
      if (byte === QUOTE) return i;
      if (byte === BACKSLASH) {
        this.escaped = true;
        plain = 0;
        i++; // skip the escaped byte (the loop's i++ moves past it)
        continue;
      }
      if (++plain === SCAN_BYTES_BEFORE_SEARCH) {
        plain = 0;
        i = nextSpecialByte(chunk, i + 1) - 1;
      }
    }
    return i;
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
    const cut = first - 1;
    const content: Buffer[] = [];
    if (cut >= 0 && this.skeletonStarts[cut]! >= 0) {
      const piece = this.skeleton[cut]!;
      const offset = this.stringStart - this.skeletonStarts[cut]!;
      if (offset < piece.length) {
        content.push(piece.subarray(offset));
        this.skeleton[cut] = piece.subarray(0, offset);
      }
    }
    content.push(...this.skeleton.splice(first));
    this.skeletonStarts.splice(first);
    for (const bytes of content) string.push(bytes);
    this.current = string;
    return to;
  }

  private endLongString(): void {
    const string = this.current!;
    string.escaped = this.escaped;
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

/**
 * The index of the next quote or backslash in `chunk` from `from`, or its length if there is none. The
 * backslash search is bounded by the quote found, so text with many long strings stays linear.
 */
function nextSpecialByte(chunk: Buffer, from: number): number {
  const quote = chunk.indexOf(QUOTE, from);
  const end = quote === -1 ? chunk.length : quote;
  const backslash = chunk.subarray(from, end).indexOf(BACKSLASH);
  return backslash === -1 ? end : from + backslash;
}

/**
 * Parses a whole line given as chunks: {@link LargeLineParser} fed at once (for callers that already hold
 * the line).
 */
export function parseLargeLine(
  chunks: readonly Buffer[],
  minStringBytes = LONG_STRING_BYTES,
): LargeLineResult {
  const parser = new LargeLineParser(minStringBytes);
  for (const chunk of chunks) parser.push(chunk);
  return parser.finish();
}
