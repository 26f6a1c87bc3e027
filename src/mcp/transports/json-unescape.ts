/**
 * Unescapes the content of one JSON string (RFC 8259 section 7) given in pieces, without joining them
 * first: a 20 MiB string with escapes in it (JSON or code inside a tool's text) costs one copy, not three.
 *
 * Each piece is cut where no escape straddles the cut and handed to `JSON.parse` (quoted), so the grammar,
 * its errors and every escape (`\uD83D\uDE00` split across pieces included: JavaScript strings are
 * UTF-16, so the two halves join again) are exactly `JSON.parse`'s.
 */

/**
 * Joins and unescapes the raw (still escaped) content of a JSON string.
 *
 * @param pieces - The content between the quotes, decoded from UTF-8, split anywhere.
 * @returns The string value (a rope of the unescaped pieces).
 * @throws SyntaxError (from `JSON.parse`) for an invalid escape or a raw control character.
 */
export function unescapeJsonString(pieces: Iterable<string>): string {
  let value = '';
  let carry = '';
  for (const piece of pieces) {
    const text = carry + piece;
    const cut = completeEscapesEnd(text);
    if (cut > 0) value += JSON.parse(`"${text.slice(0, cut)}"`) as string;
    carry = text.slice(cut);
  }
  if (carry !== '') value += JSON.parse(`"${carry}"`) as string;
  return value;
}

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
