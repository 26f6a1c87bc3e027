/**
 * Colour for the few things that deserve it: `error:` and `warning:` on stderr, tool names, and a tool
 * call's `✓` / `✗` in `run`. Only on a terminal, as the conventions say: `NO_COLOR` (set and not empty,
 * no-color.org) turns it off everywhere, and wins; `FORCE_COLOR` (set, and not `0` or `false`) turns it on
 * when piped. The escape sequences come from picocolors.
 */
import pc from 'picocolors';

/** How each coloured thing is written; the identity when colour is off. */
export interface Paint {
  /** Whether anything is coloured. */
  readonly enabled: boolean;
  /** A tool's name (bold cyan). */
  name(text: string): string;
  /** `✓` (green). */
  ok(text: string): string;
  /** `✗` (red). */
  fail(text: string): string;
  /** The `error:` label (bold red). */
  error(text: string): string;
  /** The `warning:` label (yellow). */
  warning(text: string): string;
  /** The `hint:` label (cyan). */
  hint(text: string): string;
}

/** Whether to colour a stream: `isTTY` is the stream's, `env` the process's environment. */
export function colorWanted(isTTY: boolean | undefined, env: NodeJS.ProcessEnv): boolean {
  if (env.NO_COLOR !== undefined && env.NO_COLOR !== '') return false;
  const force = env.FORCE_COLOR;
  if (force !== undefined) return force !== '0' && force !== 'false';
  return isTTY === true && env.TERM !== 'dumb';
}

/** The paint for a stream whose colour is `enabled`. */
export function paint(enabled: boolean): Paint {
  const c = pc.createColors(enabled);
  return {
    enabled,
    name: (text) => c.bold(c.cyan(text)),
    ok: (text) => c.green(text),
    fail: (text) => c.red(text),
    error: (text) => c.bold(c.red(text)),
    warning: (text) => c.yellow(text),
    hint: (text) => c.cyan(text),
  };
}

/** No colour. */
export const PLAIN: Paint = paint(false);

/**
 * Colours the labels that start the CLI's own stderr lines (`error:`, `warning:`, `hint:`); the rest of
 * each line is left as it is.
 */
export function paintStderr(text: string, colors: Paint): string {
  if (!colors.enabled) return text;
  return text.replace(/^(error|warning|hint):/gm, (label: string) => {
    if (label === 'error:') return colors.error(label);
    return label === 'warning:' ? colors.warning(label) : colors.hint(label);
  });
}
