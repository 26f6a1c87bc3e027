/**
 * The `<server>` of `agentwire auth …`: a URL, or the name of an HTTP entry of `--config <file>` or of a
 * host's configuration (host-configs/lookup.ts). The tokens are keyed by the server's URL, so a login made
 * through an entry serves the same URL given with `--url`, and the other way round.
 */
import { parseServerUrl } from '../../mcp/config/server-spec.js';
import {
  getServerEntry,
  type MCPHttpServer,
  type MCPServerConfig,
  type MCPServerEntry,
  MCPServerUrlError,
} from '../../mcp/index.js';
import { parseInputPairs } from '../host-configs/inputs.js';
import { findHostEntry, loadConfigFile } from '../host-configs/lookup.js';
import type { CliIo } from '../io.js';
import { UsageError } from '../usage-error.js';

/** An HTTP server to log in to. */
export interface AuthTarget {
  url: URL;
  /** Its name in messages: the entry's, or the URL's host. */
  name: string;
  headers?: Record<string, string>;
  transport?: NonNullable<MCPHttpServer['transport']>;
}

/**
 * Resolves `server` (see the module comment). The keys of a `--config` entry that agentwire does not read
 * (a misspelt `headers`, say) are named on `io.stderr` as the other commands name them, before anything
 * else is said about the entry.
 * @throws UsageError for a URL that is not an absolute http(s) URL, or an entry that is not an HTTP server.
 * @throws MCPConfigError when the config cannot be read or has no such entry.
 */
export async function authTarget(
  server: string,
  options: { config?: string; input?: string[] },
  io: CliIo,
): Promise<AuthTarget> {
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(server)) {
    const url = parseUrl(server);
    return { url, name: url.host };
  }
  const inputs = parseInputPairs(options.input ?? []);
  const entry =
    options.config === undefined
      ? (await findHostEntry(server, { inputs })).entry
      : configEntry(await loadConfigFile(options.config, inputs), server, io);
  if (entry.kind !== 'http') {
    throw new UsageError(`server "${entry.name}" is a stdio server: only HTTP servers (with a "url") log in`);
  }
  return {
    url: new URL(entry.url),
    name: entry.name,
    transport: entry.options.transport,
    ...(entry.options.headers !== undefined && { headers: entry.options.headers }),
  };
}

/** The entry `name` of a `--config` file, its warnings printed. @throws MCPConfigError as `getServerEntry`. */
function configEntry(config: MCPServerConfig, name: string, io: CliIo): MCPServerEntry {
  const entry = getServerEntry(config, name);
  for (const warning of config.warnings)
    if (warning.entry === entry.name) io.stderr(`warning: ${warning.message}\n`);
  return entry;
}

function parseUrl(text: string): URL {
  try {
    return parseServerUrl(text);
  } catch (error) {
    if (!(error instanceof MCPServerUrlError)) throw error;
    throw new UsageError('<server> is not a valid http(s) URL (e.g. https://example.com/mcp)', {
      cause: error,
    });
  }
}
