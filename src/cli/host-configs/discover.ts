/**
 * The servers of the hosts' configurations (locations.ts), read as `--config` files are (the same loader,
 * the same `${VAR}` and `${input:ID}` references), each with the file it came from. Reading asks for no
 * `${input:ID}`: only the entries a command uses are asked for ({@link HostConfigSource.parse}).
 */
import { readFile } from 'node:fs/promises';
import { parseConfigText } from '../../mcp/config/text.js';
import { MCPConfigError, type MCPServerConfig, parseServerConfig } from '../../mcp/index.js';
import { toServerConfig } from './convert.js';
import {
  type HostConfigEnvironment,
  type HostConfigLocation,
  hostConfigLocations,
  processEnvironment,
} from './locations.js';

/** One host file that exists: its servers, or why it could not be read as a whole. */
export type HostConfigSource =
  | {
      location: HostConfigLocation;
      /** The servers, read with the `--input` values given. */
      config: MCPServerConfig;
      /** The file's servers in the loader's form, for reading them again with more inputs. */
      raw: Record<string, unknown>;
      /** Reads `raw` again with `inputs`. */
      parse(inputs: Readonly<Record<string, string>>): MCPServerConfig;
    }
  | { location: HostConfigLocation; error: MCPConfigError };

/** Options of {@link discoverHostConfigs}. */
export interface DiscoverOptions {
  /** `--input ID=value` values. */
  inputs?: Readonly<Record<string, string>>;
  environment?: HostConfigEnvironment;
}

/** Every host file that exists and has servers, in lookup order. Never throws for a bad file. */
export async function discoverHostConfigs(options: DiscoverOptions = {}): Promise<HostConfigSource[]> {
  const environment = options.environment ?? processEnvironment();
  const sources: HostConfigSource[] = [];
  for (const location of hostConfigLocations(environment)) {
    let text: string;
    try {
      text = await readFile(location.file, 'utf8');
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code ?? 'unknown error';
      if (code === 'ENOENT' || code === 'ENOTDIR') continue;
      const failure = new MCPConfigError(`config ${location.file}: cannot be read (${code})`, {
        file: location.file,
        cause: error,
      });
      sources.push({ location, error: failure });
      continue;
    }
    try {
      const raw = toServerConfig(location.format, await parseText(location, text), environment.cwd);
      if (raw === undefined) continue;
      const parse = (inputs: Readonly<Record<string, string>>) =>
        parseServerConfig(raw, {
          source: location.file,
          baseDir: environment.cwd,
          env: environment.env,
          inputs,
        });
      sources.push({ location, config: parse(options.inputs ?? {}), raw, parse });
    } catch (error) {
      if (!(error instanceof MCPConfigError)) throw error;
      sources.push({ location, error });
    }
  }
  return sources;
}

async function parseText(location: HostConfigLocation, text: string): Promise<unknown> {
  if (location.format !== 'codex') return parseConfigText(text, location.file);
  // Loaded only when a Codex file exists: most commands never need a TOML parser.
  const { parse, TomlError } = await import('smol-toml');
  try {
    return parse(text);
  } catch (error) {
    if (!(error instanceof TomlError)) throw error;
    throw new MCPConfigError(
      `config ${location.file}: is not valid TOML at line ${error.line}, column ${error.column}`,
      { file: location.file },
    );
  }
}
