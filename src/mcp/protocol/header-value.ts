/**
 * How a single-valued HTTP response header is read: leniently, as a repeated field. A proxy that adds a
 * header the server already set, or a server that sets it twice, sends the field twice, and an HTTP client
 * hands the values over joined by commas (RFC 9110, "Field Order": a recipient MAY combine repeated fields
 * into one, separated by commas), so `Mcp-Session-Id: a` twice reads `a, a`. The same value repeated is
 * read as that value once; anything else is left as it came, for the caller to refuse or pass on.
 */

/** `value` with an identical repetition (`a, a`, `a,a`) read as one (`a`); `undefined` for `null`. */
export function oneHeaderValue(value: string | null | undefined): string | undefined {
  if (value === null || value === undefined) return undefined;
  if (!value.includes(',')) return value;
  const parts = value.split(',').map((part) => part.trim());
  const first = parts[0] ?? '';
  return first !== '' && parts.every((part) => part === first) ? first : value;
}
