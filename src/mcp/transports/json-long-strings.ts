/**
 * Finds the long string values of one JSON text held as a list of byte chunks, without joining the chunks.
 *
 * Why: a tool result of 20 MiB is one stdout line whose size is almost all one string (`content[].text` or an
 * image's base64 `data`). Joining its chunks, decoding the joined line and `JSON.parse` each hold a full
 * copy at once (about 4× the payload in peak memory, measured in bench/RESULTS.md). Knowing where the long
 * strings are lets the reader decode each of them straight from the chunks and parse only the small rest
 * (see json-large-line.ts), at about 2× the payload.
 *
 * The scan follows JSON's string grammar only (RFC 8259 section 7: a string starts and ends with an
 * unescaped `"`; a backslash escapes the next character). It does not validate the rest: the caller parses
 * what is left with `JSON.parse`, which does.
 */

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
/**
 * After this many plain bytes inside one string, stop looking at bytes one by one and let `indexOf`
 * (memchr) find the next quote. Small strings never pay for a native call; long ones cost about 1 ms per
 * 20 MiB instead of 40.
 */
const SCAN_BYTES_BEFORE_SEARCH = 256;

/** Where a chunk list is: chunk index and byte offset in it. */
export interface ChunkPosition {
  chunk: number;
  offset: number;
}

/** One string value of at least the asked length: its content, without the quotes. */
export interface LongString {
  /** First content byte (just after the opening quote). */
  start: ChunkPosition;
  /** The closing quote. */
  end: ChunkPosition;
  /** Length of the content in bytes (escapes counted as written). */
  bytes: number;
  /** Whether the content has a backslash, i.e. needs unescaping. */
  escaped: boolean;
}

/**
 * Lists the string values whose content is at least `minBytes` bytes long, in order.
 *
 * @param chunks - One JSON text, split anywhere (even inside a UTF-8 sequence or an escape).
 * @param minBytes - Shortest content length reported, in bytes.
 * @returns The long strings, or `undefined` when the text ends inside a string (it is then not JSON).
 */
export function findLongStrings(chunks: readonly Buffer[], minBytes: number): LongString[] | undefined {
  const found: LongString[] = [];
  let inString = false;
  /** The previous chunk ended with a backslash inside a string: this chunk's first byte is escaped. */
  let escapeNext = false;
  let escaped = false;
  let start: ChunkPosition = { chunk: 0, offset: 0 };
  /** Absolute offsets: of the current chunk's first byte, and of the current string's first content byte. */
  let base = 0;
  let startAt = 0;

  for (let c = 0; c < chunks.length; c++) {
    const chunk = chunks[c]!;
    const length = chunk.length;
    let i = 0;
    if (escapeNext) {
      escapeNext = false;
      i = 1;
    }
    while (i < length) {
      if (!inString) {
        // Between strings: structure and numbers, short runs.
        while (i < length && chunk[i] !== QUOTE) i++;
        if (i === length) break;
        inString = true;
        escaped = false;
        i++;
        start = { chunk: c, offset: i };
        startAt = base + i;
        continue;
      }
      // Inside a string: one tight loop; a long plain run hands over to memchr.
      let plain = 0;
      for (; i < length; i++) {
        const byte = chunk[i];
        if (byte === QUOTE) break;
        if (byte === BACKSLASH) {
          escaped = true;
          plain = 0;
          i++; // skip the escaped byte (the loop's i++ moves past it)
          continue;
        }
        if (++plain === SCAN_BYTES_BEFORE_SEARCH) {
          plain = 0;
          i = nextSpecialByte(chunk, i + 1) - 1;
        }
      }
      if (i > length) {
        escapeNext = true;
        break;
      }
      if (i === length) break; // the string goes on in the next chunk
      const bytes = base + i - startAt;
      if (bytes >= minBytes) found.push({ start, end: { chunk: c, offset: i }, bytes, escaped });
      inString = false;
      i++;
    }
    base += length;
  }
  return inString ? undefined : found;
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
