/**
 * Tool names every provider accepts. Anthropic and OpenAI both require `^[a-zA-Z0-9_-]{1,64}$`; MCP allows
 * more (dots, slashes, up to 128 characters, MCP spec 2025-11-25 "Tools > Tool names"). Names are mapped
 * deterministically and each mapping is reversible through the table the agent keeps.
 */
import { createHash } from 'node:crypto';

/** What Anthropic and OpenAI accept as a tool name. */
export const PROVIDER_TOOL_NAME = /^[a-zA-Z0-9_-]{1,64}$/;

const MAX_LENGTH = 64;

/** First 8 hex digits of the SHA-256 of `text`: short, stable, and the same on every run. */
function shortHash(text: string): string {
  return createHash('sha256').update(text).digest('hex').slice(0, 8);
}

/**
 * A provider-valid name for `name`: valid names are returned unchanged; other characters become `_`;
 * a name longer than 64 characters is cut to 55 and ends in `_` plus a hash of the whole original, so two
 * long names sharing a beginning stay apart. With `disambiguate`, the hash suffix is always added (used when
 * two different names would otherwise map to the same one).
 */
export function toProviderToolName(name: string, disambiguate = false): string {
  if (!disambiguate && PROVIDER_TOOL_NAME.test(name)) return name;
  const cleaned = name.replace(/[^a-zA-Z0-9_-]/g, '_') || 'tool';
  if (!disambiguate && cleaned.length <= MAX_LENGTH) return cleaned;
  const suffix = `_${shortHash(name)}`;
  return cleaned.slice(0, MAX_LENGTH - suffix.length) + suffix;
}

/**
 * Maps a set of distinct wanted names to distinct provider-valid names. A name that is already valid keeps
 * itself; a mapped name that lands on another's gets the hash suffix. Order of `wanted` does not matter.
 *
 * @returns wanted name → provider name; reverse it for lookups.
 */
export function mapToolNames(wanted: readonly string[]): Map<string, string> {
  const unique = [...new Set(wanted)];
  const first = new Map(unique.map((name) => [name, toProviderToolName(name)]));
  const claims = new Map<string, string[]>();
  for (const [name, mapped] of first) claims.set(mapped, [...(claims.get(mapped) ?? []), name]);
  const out = new Map<string, string>();
  for (const [mapped, names] of claims) {
    for (const name of names) {
      // The one that needed no change keeps the plain name; every other claimant is told apart by hash.
      const keepsPlain = names.length === 1 || name === mapped;
      out.set(name, keepsPlain ? mapped : toProviderToolName(name, true));
    }
  }
  return out;
}
