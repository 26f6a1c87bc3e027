/**
 * What a command says of a server that does not offer what it asks for: the client sends nothing the
 * server's capabilities do not allow (MCP spec 2025-11-25 and 2026-07-28, "Lifecycle > Capability
 * Negotiation"), and the command says so plainly and succeeds, as it would for an empty list:
 *
 *     server "memory" offers no resources
 */
import { declares } from '../mcp/client/capabilities.js';
import type { MCPClient, MCPRequestOptions } from '../mcp/index.js';
import { requestServer } from './command-runtime.js';
import { type CliIo, toJson } from './io.js';
import type { ServerOptionValues } from './server-flags.js';

/** The capabilities a command may need, by the word that names them to people. */
export type FeatureCapability = 'tools' | 'prompts' | 'resources' | 'completions';

/** `server "<name>" offers no <capability>`, newline-terminated. */
export function offersNoLine(server: string, capability: FeatureCapability): string {
  return `server "${server}" offers no ${capability}\n`;
}

/** Whether `client`'s server declared `capability` on the current connection. */
export function offers(client: MCPClient, capability: FeatureCapability): boolean {
  return declares(client.getServerCapabilities(), capability);
}

/**
 * Says on `io` that `server` offers no `capability`: the line on stdout, or with `--json` on stderr, with
 * `empty` (what a script reads: `[]` for a list) on stdout when given.
 */
export function sayOffersNone(
  io: CliIo,
  server: string,
  capability: FeatureCapability,
  json: { json?: boolean | undefined; empty?: unknown },
): void {
  if (!json.json) {
    io.stdout(offersNoLine(server, capability));
    return;
  }
  io.stderr(offersNoLine(server, capability));
  if (json.empty !== undefined) io.stdout(toJson(json.empty));
}

/**
 * `requestServer` for a request that needs `capability`: `{ value }` with `request`'s answer, or
 * `{ server }` (its name) when the server does not offer it, and nothing was asked.
 */
export function requestOffered<T>(
  options: ServerOptionValues,
  io: CliIo,
  capability: FeatureCapability,
  request: (client: MCPClient, requestOptions: MCPRequestOptions) => Promise<T>,
): Promise<{ value: T } | { server: string }> {
  return requestServer(options, io, async (client, requestOptions) =>
    offers(client, capability) ? { value: await request(client, requestOptions) } : { server: client.name },
  );
}
