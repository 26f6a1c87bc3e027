/**
 * Runs the built `agentwire` in a real pseudo-terminal: a detached tmux session whose pane output (the raw
 * bytes the CLI writes, line breaks as the terminal's `\r\n`) is piped to a file.
 */
import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { quote } from 'shell-quote';
import { tempDir, waitUntil } from '../helpers.js';
import { MAIN } from './built-cli.js';

/** What the CLI wrote to the terminal (stdout and stderr together, as a terminal shows them). */
export interface TerminalRun {
  code: number;
  output: string;
  /**
   * With `withScreen`: the screen as the terminal shows it at the end (tmux capture-pane: redrawn lines in their final state,
   * trailing blanks and empty lines at the bottom dropped), up to the exit line.
   */
  screen?: string;
}

/** Keys typed once the terminal shows `after` (past where the step before it found its text). */
export interface TerminalKeys {
  after: string;
  /** tmux `send-keys` words: text is typed as is; `Enter`, `C-c`, `C-d` are keys. */
  keys: string[];
}

/**
 * Runs `agentwire <args>` with stdin, stdout and stderr on a pseudo-terminal, in an environment of only
 * `PATH`, `HOME`, `TERM=xterm-256color` and `env`; `typing` is typed into it step by step, as a person would.
 * @throws when tmux is not installed (`apt-get install tmux`), or the CLI does not end within `ms`.
 */
export async function runInTerminal(
  args: string[],
  env: Record<string, string> = {},
  ms = 30_000,
  withScreen = false,
  typing: readonly TerminalKeys[] = [],
): Promise<TerminalRun> {
  const dir = tempDir('agentwire-tty-');
  const socket = `agentwire-${randomUUID()}`;
  const tmux = (...words: string[]) => execFileSync('tmux', ['-L', socket, '-f', '/dev/null', ...words]);
  try {
    const gate = path.join(dir.dir, 'gate');
    const log = path.join(dir.dir, 'pane.log');
    const vars = {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? '',
      TERM: 'xterm-256color',
      ...env,
    };
    const assignments = Object.entries(vars).map(([key, value]) => `${key}=${value}`);
    const script = path.join(dir.dir, 'run.sh');
    // Waits for the pipe to be in place, so that nothing the CLI writes is missed.
    writeFileSync(
      script,
      [
        `while [ ! -e ${quote([gate])} ]; do sleep 0.02; done`,
        `env -i ${quote([...assignments, process.execPath, MAIN, ...args])}`,
        'echo "[exit $?]"',
        'sleep 60',
        '',
      ].join('\n'),
    );
    tmux('new-session', '-d', '-s', 'cli', '-x', '200', '-y', '50', `sh ${quote([script])}`);
    tmux('pipe-pane', '-t', 'cli', '-o', `cat >> ${quote([log])}`);
    writeFileSync(gate, '');
    const read = () => (existsSync(log) ? readFileSync(log, 'utf8') : '');
    let seen = 0;
    for (const step of typing) {
      await waitUntil(
        () => read().indexOf(step.after, seen) !== -1,
        ms,
        `the terminal to show ${step.after}`,
      );
      seen = read().indexOf(step.after, seen) + step.after.length;
      tmux('send-keys', '-t', 'cli', ...step.keys);
    }
    await waitUntil(() => /\[exit \d+\]/.test(read()), ms, 'the CLI to end in the terminal');
    const text = read();
    const end = text.lastIndexOf('[exit ');
    const pane = tmux('capture-pane', '-p', '-t', 'cli').toString();
    const screen = pane
      .slice(0, pane.lastIndexOf('[exit '))
      .split('\n')
      .map((line) => line.trimEnd())
      .join('\n');
    return {
      code: Number(/\[exit (\d+)\]/.exec(text.slice(end))![1]),
      output: text.slice(0, end),
      ...(withScreen && { screen }),
    };
  } finally {
    try {
      tmux('kill-server');
    } catch {
      // already gone
    }
    dir.remove();
  }
}
