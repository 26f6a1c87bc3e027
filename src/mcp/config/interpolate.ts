/**
 * `${…}` references in server configuration strings, resolved the way the tools that write these files do:
 * Claude Code's `.mcp.json` (`${VAR}`, `${VAR:-default}`) and VS Code's `mcp.json` (`${env:VAR}`,
 * `${input:id}`, `${workspaceFolder}`, `${userHome}`). Only the variable's name ever reaches an error, never
 * its value, because values are usually tokens.
 */

/** Where references are resolved from. */
export interface InterpolationScope {
  /** Environment variables (`${VAR}`, `${env:VAR}`). */
  env: Readonly<Record<string, string | undefined>>;
  /** Values for VS Code's `${input:id}` prompts, which agentwire cannot ask for interactively. */
  inputs: Readonly<Record<string, string>>;
  /** `${workspaceFolder}`; undefined when unknown (an in-memory config without `baseDir`). */
  workspaceFolder: string | undefined;
  /** `${userHome}`. */
  userHome: string;
}

/** Why a reference could not be resolved: `variable` is its name (`GITHUB_TOKEN`, `input:token`). */
export interface UnresolvedReference {
  variable: string;
  reason: string;
}

const REFERENCE = /\$\{([^}]*)\}/g;
const NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;
const SUPPORTED =
  // biome-ignore lint/suspicious/noTemplateCurlyInString: configuration references, not JS placeholders.
  'supported: ${VAR}, ${env:VAR}, ${VAR:-default}, ${input:ID}, ${workspaceFolder}, ${userHome}';

type Resolution = { value: string } | UnresolvedReference;

function resolve(reference: string, scope: InterpolationScope): Resolution {
  if (reference === 'workspaceFolder') {
    if (scope.workspaceFolder !== undefined) return { value: scope.workspaceFolder };
    return { variable: reference, reason: 'is not known here: pass the baseDir option' };
  }
  if (reference === 'userHome') return { value: scope.userHome };
  if (reference.startsWith('input:')) {
    const value = scope.inputs[reference.slice('input:'.length)];
    if (value !== undefined) return { value };
    return { variable: reference, reason: 'has no value: pass it in the inputs option' };
  }
  const fallback = /^([^:]*):-(.*)$/s.exec(reference);
  const name = fallback ? fallback[1]! : reference.replace(/^env:/, '');
  if (!NAME.test(name)) {
    return { variable: reference, reason: `cannot be resolved by agentwire (${SUPPORTED})` };
  }
  const value = scope.env[name];
  // Shell semantics for `:-`: an unset or empty variable takes the default.
  if (fallback) return { value: value === undefined || value === '' ? fallback[2]! : value };
  if (value !== undefined) return { value };
  return { variable: name, reason: 'is not set in the environment' };
}

/**
 * `text` with every `${…}` reference replaced. A `$` not followed by `{`, and a `${` without a closing `}`,
 * stay as they are; the default of `${VAR:-default}` is used verbatim (not interpolated again).
 *
 * @returns the interpolated string, or the first reference that could not be resolved.
 */
export function interpolate(
  text: string,
  scope: InterpolationScope,
): { value: string } | { unresolved: UnresolvedReference } {
  let unresolved: UnresolvedReference | undefined;
  const value = text.replace(REFERENCE, (whole, reference: string) => {
    if (unresolved) return whole;
    const resolution = resolve(reference, scope);
    if ('value' in resolution) return resolution.value;
    unresolved = resolution;
    return whole;
  });
  return unresolved ? { unresolved } : { value };
}
