/**
 * The environment `bash` commands get: a small safe set, never the host's whole environment, which holds
 * the model provider's API keys (`OPENAI_API_KEY`, …) that a command would otherwise print to the model.
 */

/**
 * Variables passed through from the host when set: the ones stdio MCP servers get (the SDK's
 * `DEFAULT_INHERITED_ENV_VARS` on POSIX), plus locale and temp directory, which tools need to behave.
 */
export const BASH_INHERITED_ENV_VARS: readonly string[] = [
  'HOME',
  'LOGNAME',
  'PATH',
  'SHELL',
  'TERM',
  'USER',
  'LANG',
  'LC_ALL',
  'TMPDIR',
];

/**
 * The environment for a `bash` command: {@link BASH_INHERITED_ENV_VARS} from `host`, then `extra` (which
 * wins; an `undefined` value leaves the variable out).
 */
export function bashEnvironment(
  extra: Readonly<Record<string, string | undefined>> = {},
  host: NodeJS.ProcessEnv = process.env,
): Record<string, string> {
  const env: Record<string, string> = {};
  for (const name of BASH_INHERITED_ENV_VARS) {
    const value = host[name];
    // A value starting with `()` is an exported bash function (Shellshock's vector), as the SDK skips too.
    if (value !== undefined && !value.startsWith('()')) env[name] = value;
  }
  for (const [name, value] of Object.entries(extra)) {
    if (value === undefined) delete env[name];
    else env[name] = value;
  }
  return env;
}
