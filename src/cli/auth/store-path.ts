/**
 * Where `agentwire auth login` keeps the user's logins: one file, `oauth.json`, in agentwire's per-user
 * configuration directory, following the XDG Base Directory convention on Linux and the platforms' own
 * conventions elsewhere:
 * - `$AGENTWIRE_AUTH_FILE` when set (the whole path; for tests and for keeping several identities apart);
 * - Linux and other Unix systems: `$XDG_CONFIG_HOME/agentwire/oauth.json`, else `~/.config/agentwire/oauth.json`;
 * - macOS: `~/Library/Application Support/agentwire/oauth.json` (`$XDG_CONFIG_HOME/agentwire` when set);
 * - Windows: `%APPDATA%\agentwire\oauth.json`.
 */
import { homedir } from 'node:os';
import path from 'node:path';

/** The environment variable that overrides the token file's path. */
export const AUTH_FILE_VARIABLE = 'AGENTWIRE_AUTH_FILE';

/** The token file for this user and platform (see the module comment). */
export function authStoreFile(
  env: Readonly<Record<string, string | undefined>> = process.env,
  platform: NodeJS.Platform = process.platform,
): string {
  const override = env[AUTH_FILE_VARIABLE];
  if (override !== undefined && override !== '') return path.resolve(override);
  const home = env.HOME !== undefined && env.HOME !== '' ? env.HOME : homedir();
  const xdg = env.XDG_CONFIG_HOME;
  if (xdg !== undefined && path.isAbsolute(xdg)) return path.join(xdg, 'agentwire', 'oauth.json');
  if (platform === 'win32') {
    const appData = env.APPDATA ?? path.join(home, 'AppData', 'Roaming');
    return path.join(appData, 'agentwire', 'oauth.json');
  }
  if (platform === 'darwin') {
    return path.join(home, 'Library', 'Application Support', 'agentwire', 'oauth.json');
  }
  return path.join(home, '.config', 'agentwire', 'oauth.json');
}
