/**
 * The server's declared capabilities as the client's rule for what it may send (MCP spec 2025-11-25 and
 * 2026-07-28, "Lifecycle > Capability Negotiation": "both parties MUST only use capabilities that were
 * successfully negotiated"; each feature's "Capabilities" section names the key its requests need). In both
 * eras: the capabilities come from `initialize`, or from `server/discover` in 2026-07-28.
 *
 * What the client does without the capability is decided per request by what the honest answer is: a list
 * of a feature the server does not offer is empty, without a request; any other request fails with
 * `MCPCallError` kind `unsupported`, `capability` naming what is missing, and nothing is sent.
 */
import { MCPCallError } from '../protocol/errors.js';
import type { MCPServerCapabilities } from '../protocol/types.js';

/** The capability each gated request needs, as a dotted path into the server's `capabilities`. */
const NEEDED: Readonly<Record<string, string>> = {
  'tools/list': 'tools',
  'prompts/list': 'prompts',
  'prompts/get': 'prompts',
  'resources/list': 'resources',
  'resources/templates/list': 'resources',
  'resources/read': 'resources',
  'resources/subscribe': 'resources.subscribe',
  'resources/unsubscribe': 'resources.subscribe',
  'logging/setLevel': 'logging',
  'completion/complete': 'completions',
};

/** Something that knows the server's declared capabilities: a session. */
export interface DeclaredCapabilities {
  readonly serverCapabilities: MCPServerCapabilities | undefined;
}

/**
 * Whether `capabilities` declare `path` (`resources`, `resources.subscribe`): each key present, and not
 * `null` or `false`. The last key of a flag (`subscribe`) must be `true`, as the spec writes it.
 */
export function declares(capabilities: MCPServerCapabilities | undefined, path: string): boolean {
  let at: unknown = capabilities;
  for (const key of path.split('.')) {
    if (typeof at !== 'object' || at === null) return false;
    at = (at as Record<string, unknown>)[key];
  }
  return at !== undefined && at !== null && at !== false;
}

/** The capability `method` needs that `session`'s server did not declare; `undefined` when none is missing. */
export function missingCapability(session: DeclaredCapabilities, method: string): string | undefined {
  const needed = NEEDED[method];
  return needed === undefined || declares(session.serverCapabilities, needed) ? undefined : needed;
}

/** Whether `session`'s server offers what `method` needs (every method not gated here: yes). */
export function offers(session: DeclaredCapabilities, method: string): boolean {
  return missingCapability(session, method) === undefined;
}

/**
 * Throws the `unsupported` error of `method` when `session`'s server did not declare the capability it
 * needs; returns otherwise.
 * @throws MCPCallError kind `unsupported` (`capability`, `method`, `server` set)
 */
export function requireCapability(session: DeclaredCapabilities, method: string, server: string): void {
  const capability = missingCapability(session, method);
  if (capability === undefined) return;
  const reason = `the server does not declare the "${capability}" capability, so it was not sent`;
  throw new MCPCallError('unsupported', reason, { server, method, capability });
}
