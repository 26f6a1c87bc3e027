/**
 * Placeholders for the long strings of a large line (json-large-line.ts): what stands in the skeleton
 * that `JSON.parse` reads, and how the strings are put back.
 */
import { randomUUID } from 'node:crypto';

/**
 * A placeholder's value, followed by the string's index. The random part makes it a value no server can
 * send by chance or on purpose; the NUL makes it unlike any text a person would write.
 */
const PLACEHOLDER = `\u0000agentwire-long-string:${randomUUID()}:`;
/** The same, as it is written inside a JSON string (`\u0000` escaped). */
const PLACEHOLDER_JSON = JSON.stringify(PLACEHOLDER).slice(1, -1);

/** Long strings as {@link withRawLongStrings} needs them. */
export type LongStrings = readonly { raw(): string }[];

/** The bytes that stand for string `index` between its quotes in the skeleton. */
export function placeholderBytes(index: number): Buffer {
  return Buffer.from(`${PLACEHOLDER_JSON}${index}`);
}

/** Puts the long strings back into the parsed skeleton, in place (only its placeholders change). */
export function restoreLongStrings(value: unknown, strings: readonly string[]): unknown {
  if (typeof value === 'string') {
    if (!value.startsWith(PLACEHOLDER)) return value;
    return strings[Number(value.slice(PLACEHOLDER.length))] ?? value;
  }
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) value[i] = restoreLongStrings(value[i], strings);
    return value;
  }
  if (value === null || typeof value !== 'object') return value;
  const record = value as Record<string, unknown>;
  const keys = Object.keys(record);
  if (keys.some((key) => key.startsWith(PLACEHOLDER))) {
    // A long key: rebuild the object so that the key keeps its place in the order.
    const rebuilt: Record<string, unknown> = {};
    for (const key of keys) {
      setOwn(rebuilt, restoreLongStrings(key, strings) as string, restoreLongStrings(record[key], strings));
    }
    return rebuilt;
  }
  for (const key of keys) {
    const before = record[key];
    const after = restoreLongStrings(before, strings);
    if (after !== before) record[key] = after;
  }
  return value;
}

/** The skeleton's text with each placeholder replaced by its string's raw content (escapes as written). */
export function withRawLongStrings(skeleton: string, strings: LongStrings): string {
  const parts = skeleton.split(PLACEHOLDER_JSON);
  let text = parts[0] ?? '';
  for (let i = 1; i < parts.length; i++) {
    const part = parts[i]!;
    const digits = /^\d+/.exec(part)?.[0] ?? '';
    const string = strings[Number(digits)];
    text += string === undefined ? PLACEHOLDER_JSON + part : string.raw() + part.slice(digits.length);
  }
  return text;
}

/** Sets an own data property, also for `__proto__` (on a new object, assigning it sets the prototype). */
function setOwn(record: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(record, key, { value, writable: true, enumerable: true, configurable: true });
}
