/**
 * Keys of a server entry that agentwire does not read. Configuration files are shared with other hosts,
 * which keep keys of their own in the same entries, so an unknown key is no error: it is reported as a
 * {@link MCPConfigWarning}, with the nearest known key when it looks like a misspelling of one (a
 * `"blocktools"` that would otherwise be ignored, and its tools served).
 */
import { nearestKey } from './nearest-key.js';

/** Every key of a server entry that agentwire reads. */
export const ENTRY_KEYS: readonly string[] = [
  'type',
  'disabled',
  'command',
  'args',
  'env',
  'envFile',
  'cwd',
  'url',
  'headers',
  'dpop',
  'auth',
  'allowTools',
  'blockTools',
  'maxConcurrentCalls',
  'lazy',
  'deferLoading',
  'toolOptions',
  'toolList',
  // Read by `agentwire serve` alone: the prefix of the entry's tools and prompts (gateway/options.ts).
  'prefix',
];

/** Keys other hosts keep in the same entries (Cline, Roo Code, VS Code): theirs, not misspellings. */
const OTHER_HOSTS_KEYS: readonly string[] = ['autoApprove', 'alwaysAllow', 'timeout', 'description'];

/** A key of a server entry that agentwire does not read, and is ignored. */
export interface MCPConfigWarning {
  /** The file's path, or the `source` label of an in-memory object. */
  file: string;
  /** The entry's key under `mcpServers` / `servers`. */
  entry: string;
  /** The key not read. */
  key: string;
  /** The known key nearest to `key`, when it is close enough to be a misspelling of it. */
  suggestion: string | undefined;
  /** `config <file>: server "<entry>": unknown key "<key>" ignored (did you mean "<suggestion>"?)`. */
  message: string;
}

/** The warnings for the keys of entry `entry` (its raw object) of `file` that agentwire does not read. */
export function unknownKeyWarnings(
  file: string,
  entry: string,
  raw: Record<string, unknown>,
): MCPConfigWarning[] {
  const warnings: MCPConfigWarning[] = [];
  for (const key of Object.keys(raw)) {
    if (ENTRY_KEYS.includes(key) || OTHER_HOSTS_KEYS.includes(key)) continue;
    const suggestion = nearestKey(key, ENTRY_KEYS);
    const hint = suggestion === undefined ? '' : ` (did you mean "${suggestion}"?)`;
    const message = `config ${file}: server "${entry}": unknown key "${key}" ignored${hint}`;
    warnings.push({ file, entry, key, suggestion, message });
  }
  return warnings;
}
