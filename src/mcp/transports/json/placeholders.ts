/**
 * Placeholders for the long strings of a large line (large-line.ts): what stands in the skeleton
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

/** Long strings as {@link withWrittenLongStrings} needs them. */
export type LongStrings = readonly { written(): string }[];

/** The bytes that stand for string `index` between its quotes in the skeleton. */
export function placeholderBytes(index: number): Buffer {
  return Buffer.from(`${PLACEHOLDER_JSON}${index}`);
}

/**
 * Puts the long strings back into the parsed skeleton, in place: only placeholders change, and every
 * object and array keeps its identity. Iterative, so a skeleton nested as deep as `JSON.parse` allows
 * cannot overflow the stack.
 */
export function restoreLongStrings(root: unknown, strings: readonly string[]): unknown {
  const restore = (value: string): string =>
    value.startsWith(PLACEHOLDER) ? (strings[Number(value.slice(PLACEHOLDER.length))] ?? value) : value;
  if (typeof root === 'string') return restore(root);
  const pending: unknown[] = [root];
  while (pending.length > 0) {
    const node = pending.pop();
    if (node === null || typeof node !== 'object') continue;
    if (Array.isArray(node)) {
      for (let i = 0; i < node.length; i++) {
        const item: unknown = node[i];
        if (typeof item === 'string') node[i] = restore(item);
        else if (item !== null && typeof item === 'object') pending.push(item);
      }
      continue;
    }
    const record = node as Record<string, unknown>;
    const keys = Object.keys(record);
    for (const key of keys) {
      const item = record[key];
      if (typeof item === 'string') {
        const restored = restore(item);
        if (restored !== item) record[key] = restored;
      } else if (item !== null && typeof item === 'object') pending.push(item);
    }
    if (keys.some((key) => key.startsWith(PLACEHOLDER))) rekey(record, keys, restore);
  }
  return root;
}

/** Replaces placeholder keys in place, keeping the key order (every key is removed and added again). */
function rekey(
  record: Record<string, unknown>,
  keys: readonly string[],
  restore: (key: string) => string,
): void {
  const entries = keys.map((key) => [restore(key), record[key]] as const);
  for (const key of keys) delete record[key];
  for (const [key, value] of entries) setOwn(record, key, value);
}

/** The skeleton's text with each placeholder replaced by its string's content as JSON text. */
export function withWrittenLongStrings(skeleton: string, strings: LongStrings): string {
  const parts = skeleton.split(PLACEHOLDER_JSON);
  let text = parts[0] ?? '';
  for (let i = 1; i < parts.length; i++) {
    const part = parts[i]!;
    const digits = /^\d+/.exec(part)?.[0] ?? '';
    const string = strings[Number(digits)];
    text += string === undefined ? PLACEHOLDER_JSON + part : string.written() + part.slice(digits.length);
  }
  return text;
}

/** Sets an own data property, also for `__proto__` (assigning it would set the prototype instead). */
function setOwn(record: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(record, key, { value, writable: true, enumerable: true, configurable: true });
}
