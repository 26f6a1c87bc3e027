/**
 * Per-server tool filters (`allowTools` / `blockTools`): which of a server's tools an agent gets to see.
 * Patterns are tool names as the server spells them, where `*` matches any run of characters and `?` one
 * character; nothing else is special, because tool names are plain identifiers (MCP spec 2025-11-25,
 * "Tools > Tool names": letters, digits, `_`, `-`, `.`, `/`) and a fuller glob syntax would only add
 * surprises.
 */

/** Which tools of one server to expose. */
export interface MCPToolFilter {
  /** Only tools matching one of these names or patterns. Default: every tool. */
  allowTools?: readonly string[] | undefined;
  /** No tool matching one of these names or patterns; applied after `allowTools`. Default: none blocked. */
  blockTools?: readonly string[] | undefined;
}

function patternToRegExp(pattern: string): RegExp {
  const body = pattern
    .split('')
    .map((char) => {
      if (char === '*') return '.*';
      if (char === '?') return '.';
      return char.replace(/[\\^$.|+(){}[\]]/g, '\\$&');
    })
    .join('');
  return new RegExp(`^${body}$`, 's');
}

function matcher(patterns: readonly string[]): (name: string) => boolean {
  const regexps = patterns.map(patternToRegExp);
  return (name) => regexps.some((regexp) => regexp.test(name));
}

/** A predicate on a server's tool name that is true for the tools `filter` lets through. */
export function toolFilter(filter: MCPToolFilter = {}): (toolName: string) => boolean {
  const allowed = filter.allowTools ? matcher(filter.allowTools) : () => true;
  const blocked = filter.blockTools ? matcher(filter.blockTools) : () => false;
  return (name) => allowed(name) && !blocked(name);
}
