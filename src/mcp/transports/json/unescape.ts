/**
 * Where escaped JSON string content (RFC 8259 section 7) can be cut so that each part unescapes on its
 * own: long strings are unescaped piece by piece as they arrive (long-string.ts), never whole.
 */

/**
 * The length of the longest prefix of `text` that ends on an escape boundary: `text` minus a trailing
 * backslash that starts an escape, or minus a `\u` escape that lacks some of its four hex digits.
 */
export function completeEscapesEnd(text: string): number {
  const length = text.length;
  if (backslashRun(text, length - 1) % 2 === 1) return length - 1;
  // A `\uXXXX` escape that started in the last five characters is incomplete.
  for (let at = Math.max(0, length - 5); at < length - 1; at++) {
    if (text.charCodeAt(at + 1) === 0x75 && backslashRun(text, at) % 2 === 1) return at;
  }
  return length;
}

/** How many backslashes end at `index` (inclusive); an odd count means the last one starts an escape. */
function backslashRun(text: string, index: number): number {
  let count = 0;
  for (let i = index; i >= 0 && text.charCodeAt(i) === 0x5c; i--) count++;
  return count;
}
