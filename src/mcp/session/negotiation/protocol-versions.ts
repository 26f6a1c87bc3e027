/**
 * The MCP protocol revisions agentwire speaks, in its two eras, and the `protocolVersion` option that picks
 * among them (MCP spec 2026-07-28, "Basic > Versioning"): the modern era (2026-07-28 on) is stateless and
 * negotiated through `server/discover`; the legacy era (2024-11-05 … 2025-11-25) through `initialize`.
 */
import { MCPCallError } from '../../protocol/errors.js';

/** Revisions of the modern (stateless, `server/discover`) era that agentwire speaks, most preferred first. */
export const MODERN_PROTOCOL_VERSIONS = ['2026-07-28'] as const;

/** Revisions of the legacy (`initialize` handshake) era that agentwire speaks, most preferred first. */
export const LEGACY_PROTOCOL_VERSIONS = ['2025-11-25', '2025-06-18', '2025-03-26', '2024-11-05'] as const;

/** One MCP revision agentwire speaks. */
export type MCPProtocolVersion =
  | (typeof MODERN_PROTOCOL_VERSIONS)[number]
  | (typeof LEGACY_PROTOCOL_VERSIONS)[number];

/**
 * Which revision to speak: `'auto'` finds the best one both sides speak (2026-07-28 when the server offers
 * it, the 2025 `initialize` handshake otherwise); a revision speaks only that one.
 */
export type MCPProtocolVersionOption = 'auto' | MCPProtocolVersion;

/** Whether `version` belongs to the modern era (2026-07-28 and later: dates compare as strings). */
export function isModernVersion(version: string): boolean {
  return version >= '2026-07-28';
}

/** Every revision that `option` allows, most preferred first. */
export function offeredVersions(option: MCPProtocolVersionOption): string[] {
  if (option !== 'auto') return [option];
  return [...MODERN_PROTOCOL_VERSIONS, ...LEGACY_PROTOCOL_VERSIONS];
}

/**
 * The error for a server that speaks none of the revisions offered: kind `protocol`, `code` -32022 (MCP
 * spec 2026-07-28, "Basic > Versioning": `UnsupportedProtocolVersionError`), `data.supported` the server's
 * revisions (when it named them) and `data.offered` ours.
 */
export function noCommonVersion(
  server: string,
  method: string,
  offered: readonly string[],
  supported: readonly string[] | undefined,
  cause?: unknown,
): MCPCallError {
  const theirs = supported === undefined ? 'did not name its revisions' : `speaks ${supported.join(', ')}`;
  return new MCPCallError(
    'protocol',
    `no protocol revision in common: the server ${theirs}; agentwire offered ${offered.join(', ')}`,
    {
      server,
      method,
      code: -32022,
      data: { supported: supported === undefined ? undefined : [...supported], offered: [...offered] },
      cause,
    },
  );
}

/** `data.supported` of a -32022 answer, when it is a list of strings. */
export function supportedFrom(data: unknown): string[] | undefined {
  if (typeof data !== 'object' || data === null) return undefined;
  const supported = (data as { supported?: unknown }).supported;
  if (!Array.isArray(supported) || !supported.every((v) => typeof v === 'string')) return undefined;
  return supported;
}
