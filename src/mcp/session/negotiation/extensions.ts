/**
 * The extensions agentwire implements as a client, declared in `capabilities.extensions` (MCP spec
 * 2026-07-28, "Versioning > Extension negotiation") only to a server that offers the same extension: a
 * 2026-07-28 connection whose `server/discover` result lists it. A 2025 `initialize` is sent before the
 * server's capabilities are known, so it declares none, and its handshake stays as it was.
 */
import type { PriorDiscovery } from '@modelcontextprotocol/client';

/** The MCP Skills extension (SEP-2640). */
export const SKILLS_EXTENSION_ID = 'io.modelcontextprotocol/skills';

/** Each extension agentwire implements, with the settings it declares (none). */
const CLIENT_EXTENSIONS: Readonly<Record<string, object>> = { [SKILLS_EXTENSION_ID]: {} };

/** `capabilities` plus `extensions` for every extension both sides implement; `capabilities` when none. */
export function withOfferedExtensions(
  capabilities: Record<string, object>,
  prior: PriorDiscovery | undefined,
): Record<string, object> {
  if (prior?.kind !== 'modern') return capabilities;
  const offered = (prior.discover.capabilities as { extensions?: Record<string, unknown> }).extensions;
  const shared = Object.entries(CLIENT_EXTENSIONS).filter(([id]) => offered?.[id] !== undefined);
  return shared.length === 0 ? capabilities : { ...capabilities, extensions: Object.fromEntries(shared) };
}
