/**
 * Where the hosts people use keep their MCP server configurations, as each documents it. Project files are
 * looked for in the working directory, user files under the home directory and the platform's application
 * configuration directory (`$XDG_CONFIG_HOME` or `~/.config` on Linux, `~/Library/Application Support` on
 * macOS, `%APPDATA%` on Windows):
 *
 * | host           | project (working directory)                  | user                                          |
 * |----------------|----------------------------------------------|-----------------------------------------------|
 * | Claude Code    | `.mcp.json`; `~/.claude.json` `projects[cwd]` | `~/.claude.json` (`mcpServers`)               |
 * | Claude Desktop |                                              | `<app config>/Claude/claude_desktop_config.json` |
 * | Cursor         | `.cursor/mcp.json`                           | `~/.cursor/mcp.json`                          |
 * | VS Code        | `.vscode/mcp.json`                           | `<app config>/Code/User/mcp.json`             |
 * | Windsurf       |                                              | `~/.codeium/windsurf/mcp_config.json`         |
 * | Codex          | `.codex/config.toml`                         | `$CODEX_HOME/config.toml` (`~/.codex`)        |
 *
 * The order of {@link hostConfigLocations} is the order names are looked up in: the working directory's
 * files first (the more specific), then the user's.
 */
import { homedir } from 'node:os';
import path from 'node:path';

/** How a file is read into the `mcpServers` / `servers` form the config loader takes. */
export type HostConfigFormat =
  /** `mcpServers` or VS Code's `servers` (+ `inputs`), as the file stands. */
  | 'json'
  /** `~/.claude.json`: its top-level `mcpServers`. */
  | 'claude-user'
  /** `~/.claude.json`: `projects[<working directory>].mcpServers`. */
  | 'claude-local'
  /** Windsurf's `mcpServers`, whose remote entries say `serverUrl`. */
  | 'windsurf'
  /** Codex's TOML `[mcp_servers.<name>]` tables. */
  | 'codex';

/** One place a host keeps servers. */
export interface HostConfigLocation {
  host: 'Claude Code' | 'Claude Desktop' | 'Cursor' | 'VS Code' | 'Windsurf' | 'Codex';
  scope: 'project' | 'local' | 'user';
  file: string;
  format: HostConfigFormat;
}

/** What the locations depend on. */
export interface HostConfigEnvironment {
  env: Readonly<Record<string, string | undefined>>;
  cwd: string;
  platform: NodeJS.Platform;
}

/** The environment of this process. */
export function processEnvironment(): HostConfigEnvironment {
  return { env: process.env, cwd: process.cwd(), platform: process.platform };
}

/** The user's home: `$HOME` (`%USERPROFILE%` on Windows), else the OS's answer. */
export function homeOf({ env, platform }: HostConfigEnvironment): string {
  const home = platform === 'win32' ? (env.USERPROFILE ?? env.HOME) : env.HOME;
  return home !== undefined && home !== '' ? home : homedir();
}

/** The platform's directory for applications' per-user configuration. */
function appConfigDir(environment: HostConfigEnvironment): string {
  const { env, platform } = environment;
  const home = homeOf(environment);
  if (platform === 'win32') return env.APPDATA ?? path.join(home, 'AppData', 'Roaming');
  if (platform === 'darwin') return path.join(home, 'Library', 'Application Support');
  const xdg = env.XDG_CONFIG_HOME;
  return xdg !== undefined && path.isAbsolute(xdg) ? xdg : path.join(home, '.config');
}

/** Every location, in lookup order (see the module comment). Files may not exist. */
export function hostConfigLocations(environment: HostConfigEnvironment): HostConfigLocation[] {
  const { cwd, env } = environment;
  const home = homeOf(environment);
  const app = appConfigDir(environment);
  const claudeJson = path.join(home, '.claude.json');
  const codexHome =
    env.CODEX_HOME !== undefined && env.CODEX_HOME !== '' ? env.CODEX_HOME : path.join(home, '.codex');
  return [
    { host: 'Claude Code', scope: 'local', file: claudeJson, format: 'claude-local' },
    { host: 'Claude Code', scope: 'project', file: path.join(cwd, '.mcp.json'), format: 'json' },
    { host: 'Cursor', scope: 'project', file: path.join(cwd, '.cursor', 'mcp.json'), format: 'json' },
    { host: 'VS Code', scope: 'project', file: path.join(cwd, '.vscode', 'mcp.json'), format: 'json' },
    { host: 'Codex', scope: 'project', file: path.join(cwd, '.codex', 'config.toml'), format: 'codex' },
    { host: 'Claude Code', scope: 'user', file: claudeJson, format: 'claude-user' },
    {
      host: 'Claude Desktop',
      scope: 'user',
      file: path.join(app, 'Claude', 'claude_desktop_config.json'),
      format: 'json',
    },
    { host: 'Cursor', scope: 'user', file: path.join(home, '.cursor', 'mcp.json'), format: 'json' },
    { host: 'VS Code', scope: 'user', file: path.join(app, 'Code', 'User', 'mcp.json'), format: 'json' },
    {
      host: 'Windsurf',
      scope: 'user',
      file: path.join(home, '.codeium', 'windsurf', 'mcp_config.json'),
      format: 'windsurf',
    },
    { host: 'Codex', scope: 'user', file: path.join(codexHome, 'config.toml'), format: 'codex' },
  ];
}
