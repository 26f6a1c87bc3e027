/**
 * Parses one large stdout line (a JSON-RPC message of megabytes) at about twice its size in peak memory.
 *
 * The ordinary path (stdio-line-reader.ts + `JSON.parse`) holds the line's chunks, the joined line, its
 * decoded text and the parsed strings at once: 4× the payload for a 20 MiB tool result (bench/RESULTS.md,
 * workload 3; issue 8 asks for at most 3×). Large messages are large because of one or a few long strings
 * (a text block, an image's base64 data), so this path:
 * 1. finds every string value of at least {@link LONG_STRING_BYTES} bytes in the chunks (json-long-strings.ts);
 * 2. decodes each straight from the chunks (unescaping in pieces when it has escapes), never joining them;
 * 3. parses the rest, the "skeleton", in which each long string is a placeholder, with `JSON.parse`;
 * 4. puts the long strings back where their placeholders are.
 *
 * Anything unusual (no long string, a skeleton that is not JSON, a bad escape) returns `undefined`, and the
 * caller takes the ordinary path, which reports the line exactly as before. One leniency: a raw control
 * character inside a long string without escapes is accepted, where `JSON.parse` would refuse the line.
 */
import { randomUUID } from 'node:crypto';
import { StringDecoder } from 'node:string_decoder';
import { type ChunkPosition, findLongStrings, type LongString } from './json-long-strings.js';
import { unescapeJsonString } from './json-unescape.js';

/**
 * Lines of at least this many bytes (4 MiB) are parsed here. Below it the 4× peak is a few MiB, and the scan
 * would cost big lists of small strings (a 5 000-tool `tools/list` result is about 1 MiB) ~5 ms for nothing.
 */
export const LARGE_LINE_BYTES = 4 * 1024 * 1024;
/** Strings of at least this many bytes (32 KiB) are decoded from the chunks, not parsed in the skeleton. */
export const LONG_STRING_BYTES = 32 * 1024;

/** Bytes decoded at a time (1 MiB): see `decodeString`. */
const DECODE_BATCH_BYTES = 1024 * 1024;

/**
 * Marks a long string's place in the skeleton. The random part makes it a value no server can send by
 * chance or on purpose; the NUL makes it unlike any text a person would write.
 */
const PLACEHOLDER = `\u0000agentwire-long-string:${randomUUID()}:`;

/**
 * Parses a line given as chunks (without its `\n`; a trailing `\r` is ignored).
 *
 * @returns The parsed JSON value, or `undefined` when the line has no long string or is not JSON as this
 *   path reads it (the caller then parses the joined line the ordinary way).
 */
export function parseLargeLine(chunks: readonly Buffer[], minStringBytes = LONG_STRING_BYTES): unknown {
  const line = withoutTrailingCr(chunks);
  const strings = findLongStrings(line, minStringBytes);
  if (strings === undefined || strings.length === 0) return undefined;
  let values: string[];
  try {
    values = strings.map((s) => decodeString(line, s));
  } catch {
    return undefined;
  }
  const skeleton = new StringDecoder('utf8');
  const text = skeleton.write(skeletonBytes(line, strings)) + skeleton.end();
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return undefined;
  }
  return restore(parsed, values);
}

function withoutTrailingCr(chunks: readonly Buffer[]): readonly Buffer[] {
  const last = chunks[chunks.length - 1];
  if (last === undefined || last[last.length - 1] !== 0x0d) return chunks;
  return [...chunks.slice(0, -1), last.subarray(0, last.length - 1)];
}

/** The bytes between two positions, as subarrays of the chunks (no copy). */
function* bytesBetween(chunks: readonly Buffer[], from: ChunkPosition, to: ChunkPosition) {
  for (let c = from.chunk; c <= to.chunk; c++) {
    const chunk = chunks[c]!;
    const start = c === from.chunk ? from.offset : 0;
    const end = c === to.chunk ? to.offset : chunk.length;
    if (end > start) yield chunk.subarray(start, end);
  }
}

/**
 * Decodes a long string's content; a UTF-8 sequence split across chunks is kept whole by the decoder.
 * Chunks are decoded in batches of {@link DECODE_BATCH_BYTES}: a string that size is allocated outside
 * V8's young generation, where 64 KiB pieces would be copied by every scavenge until promoted (measured:
 * 20 MiB in 64 KiB pieces made a call 30 % slower than in 1 MiB pieces).
 */
function decodeString(chunks: readonly Buffer[], string: LongString): string {
  const decoder = new StringDecoder('utf8');
  const pieces: string[] = [];
  let batch: Buffer[] = [];
  let batchBytes = 0;
  for (const bytes of bytesBetween(chunks, string.start, string.end)) {
    batch.push(bytes);
    batchBytes += bytes.length;
    if (batchBytes >= DECODE_BATCH_BYTES) {
      pieces.push(decoder.write(Buffer.concat(batch, batchBytes)));
      batch = [];
      batchBytes = 0;
    }
  }
  if (batchBytes > 0) pieces.push(decoder.write(Buffer.concat(batch, batchBytes)));
  pieces.push(decoder.end());
  if (string.escaped) return unescapeJsonString(pieces);
  // A rope (V8 cons string) of the pieces: joining would copy 20 MiB to save a copy nobody may need.
  let text = '';
  for (const piece of pieces) text += piece;
  return text;
}

/** The line with each long string's content replaced by the placeholder's content (quotes kept). */
function skeletonBytes(chunks: readonly Buffer[], strings: readonly LongString[]): Buffer {
  const parts: Buffer[] = [];
  let from: ChunkPosition = { chunk: 0, offset: 0 };
  strings.forEach((string, index) => {
    parts.push(...bytesBetween(chunks, from, string.start));
    parts.push(Buffer.from(JSON.stringify(`${PLACEHOLDER}${index}`).slice(1, -1)));
    from = string.end;
  });
  const last = chunks.length - 1;
  parts.push(...bytesBetween(chunks, from, { chunk: last, offset: chunks[last]!.length }));
  return Buffer.concat(parts);
}

/** Puts the long strings back, in place (the skeleton is small; only its placeholders change). */
function restore(value: unknown, strings: readonly string[]): unknown {
  if (typeof value === 'string') {
    if (!value.startsWith(PLACEHOLDER)) return value;
    return strings[Number(value.slice(PLACEHOLDER.length))] ?? value;
  }
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) value[i] = restore(value[i], strings);
    return value;
  }
  if (value === null || typeof value !== 'object') return value;
  const record = value as Record<string, unknown>;
  const keys = Object.keys(record);
  if (keys.some((key) => key.startsWith(PLACEHOLDER))) {
    // A long key: rebuild the object so the key takes its place in order.
    const rebuilt: Record<string, unknown> = {};
    for (const key of keys) setOwn(rebuilt, restore(key, strings) as string, restore(record[key], strings));
    return rebuilt;
  }
  for (const key of keys) {
    const before = record[key];
    const after = restore(before, strings);
    if (after !== before) setOwn(record, key, after);
  }
  return value;
}

/** Sets an own data property, also for `__proto__` (a plain assignment would set the prototype). */
function setOwn(record: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(record, key, { value, writable: true, enumerable: true, configurable: true });
}
