/**
 * Named servers from configuration files: `--config <file>` read with its `${input:ID}` values
 * ({@link loadConfigFile}), and, without `--config`, the hosts' configurations searched in lookup order
 * (locations.ts), the first file that defines the name winning ({@link findHostEntries}).
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { parseConfigText } from '../../mcp/config/text.js';
import {
  getServerEntry,
  loadServerConfig,
  MCPConfigError,
  type MCPServerConfig,
  type MCPServerEntry,
} from '../../mcp/index.js';
import { type DiscoverOptions, discoverHostConfigs, type HostConfigSource } from './discover.js';
import { resolveInputs } from './inputs.js';
import type { HostConfigLocation } from './locations.js';

/**
 * Loads `file` as `loadServerConfig` does, with the `${input:ID}` values given, and on a terminal the
 * missing ones of the entries `names` (all entries without `names`) asked for.
 * @throws MCPConfigError as `loadServerConfig` does.
 */
export async function loadConfigFile(
  file: string,
  inputs: Readonly<Record<string, string>>,
  names?: readonly string[],
): Promise<MCPServerConfig> {
  let raw: unknown;
  try {
    raw = parseConfigText(await readFile(path.resolve(file), 'utf8'), path.resolve(file));
  } catch {
    // The loader reports an unreadable or malformed file in its own words.
    return loadServerConfig(file, { inputs });
  }
  return loadServerConfig(file, { inputs: await resolveInputs(raw, inputs, names) });
}

/** A configured server and where it came from. */
export interface HostEntry {
  entry: MCPServerEntry;
  location: HostConfigLocation;
}

/**
 * Each name's entry in the first host configuration that defines it (a disabled entry is passed over:
 * another host may enable the same server), in the order given. The `${input:ID}` values an entry lacks
 * are asked for on a terminal.
 * @returns per name, the entry or the `MCPConfigError` that says why there is none: the entry's own error
 *   when the first definition is invalid; "no host configuration defines …" when none does.
 */
export async function findHostEntries(
  names: readonly string[],
  options: DiscoverOptions = {},
): Promise<(HostEntry | MCPConfigError)[]> {
  const sources = await discoverHostConfigs(options);
  const found: (HostEntry | MCPConfigError)[] = [];
  for (const name of names) found.push(await findIn(sources, name, options.inputs ?? {}));
  return found;
}

/**
 * {@link findHostEntries} for one name.
 * @throws MCPConfigError as {@link findHostEntries} returns it.
 */
export async function findHostEntry(name: string, options: DiscoverOptions = {}): Promise<HostEntry> {
  const [found] = await findHostEntries([name], options);
  if (found instanceof MCPConfigError) throw found;
  return found!;
}

async function findIn(
  sources: readonly HostConfigSource[],
  name: string,
  given: Readonly<Record<string, string>>,
): Promise<HostEntry | MCPConfigError> {
  for (const source of sources) {
    if (!('config' in source)) continue;
    const { location } = source;
    let { config } = source;
    if (!config.servers.some((s) => s.name === name) && !config.invalid.some((s) => s.name === name))
      continue;
    if (config.invalid.some((s) => s.name === name)) {
      config = source.parse(await resolveInputs(source.raw, given, [name]));
    }
    try {
      return { entry: getServerEntry(config, name), location };
    } catch (error) {
      if (error instanceof MCPConfigError) return error;
      throw error;
    }
  }
  const unreadable = sources.flatMap((source) => ('error' in source ? [source.location.file] : []));
  const detail = unreadable.length === 0 ? '' : ` (could not read: ${unreadable.join(', ')})`;
  return new MCPConfigError(
    `no host configuration defines a server "${name}"${detail}; list them with "agentwire configs", ` +
      'or give --config <file>',
    { entry: name },
  );
}
