/** A client for one entry of a server configuration file (see config/load.ts). */
import type { MCPServerEntry } from '../config/entry.js';
import type { MCPHttpServer, MCPStdioServer } from '../config/server-spec.js';
import { MCPClient } from './client.js';
import type { MCPClientOptions } from './options.js';

/**
 * Options of {@link createClient}: the client options shared by every server, plus the stdio- and
 * HTTP-only settings a configuration file does not carry. `name` always comes from the entry.
 */
export type MCPCreateClientOptions = Omit<MCPClientOptions, 'name'> &
  Pick<MCPStdioServer, 'stderr' | 'inheritEnv'> &
  Pick<MCPHttpServer, 'authProvider' | 'idleTimeoutMs' | 'fetch'>;

/** A client (not yet connected) for one configured server, named after its entry. */
export function createClient(entry: MCPServerEntry, options: MCPCreateClientOptions = {}): MCPClient {
  const { stderr, inheritEnv, authProvider, idleTimeoutMs, fetch, ...shared } = options;
  // The entry's own bound wins over the one given for every server.
  const { maxConcurrentCalls } = entry;
  const clientOptions = { ...shared, ...(maxConcurrentCalls !== undefined && { maxConcurrentCalls }) };
  if (entry.kind === 'stdio') {
    const server: MCPStdioServer = {
      ...entry.server,
      ...(stderr !== undefined && { stderr }),
      ...(inheritEnv !== undefined && { inheritEnv }),
    };
    return MCPClient.fromStdio(server, { ...clientOptions, name: entry.name });
  }
  return MCPClient.fromUrl(entry.url, {
    ...clientOptions,
    ...entry.options,
    // An entry's own `auth` wins over an `authProvider` given for every server.
    ...(authProvider && entry.options.auth === undefined && { authProvider }),
    ...(idleTimeoutMs !== undefined && { idleTimeoutMs }),
    ...(fetch && { fetch }),
    name: entry.name,
  });
}
