/**
 * The known key a misspelt one was probably meant to be: the "did you mean" of a server entry's unknown key
 * (unknown-keys.ts) and of a key refused in `"auth"` (auth-fields.ts).
 */
import { distance } from 'fastest-levenshtein';

/** Largest edit distance between a key given and a known one for the known one to be suggested. */
const SUGGESTION_DISTANCE = 2;

/** A key compared without case, `_` and `-` (`client_secret` is `clientSecret` misspelt). */
function normalized(key: string): string {
  return key.toLowerCase().replace(/[_-]/g, '');
}

/**
 * The key of `known` nearest to `key` (Levenshtein distance, compared without case, `_` and `-`), when it is
 * within 2 edits; the first of `known` on a tie; `undefined` when none is that close.
 */
export function nearestKey(key: string, known: readonly string[]): string | undefined {
  let best: string | undefined;
  let bestDistance = SUGGESTION_DISTANCE + 1;
  for (const candidate of known) {
    const edits = distance(normalized(key), normalized(candidate));
    if (edits < bestDistance) [best, bestDistance] = [candidate, edits];
  }
  return best;
}
