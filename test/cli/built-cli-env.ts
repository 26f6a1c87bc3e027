/**
 * Runs the built `agentwire` (dist/cli/main.js) as a child process with only the environment given, for the
 * tests that need a real process: the OAuth login's loopback listener and browser step, the host configs of
 * a fake home directory.
 */
import { spawn } from 'node:child_process';
import { ROOT } from '../helpers.js';
import { MAIN } from './built-cli.js';

export { ensureBuilt, MAIN } from './built-cli.js';

/** What a run printed and exited with. */
export interface BuiltRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Options of {@link runBuilt}. */
export interface BuiltRunOptions {
  /** The whole environment of the child (nothing is inherited but what is given). */
  env: Record<string, string>;
  cwd?: string;
  /** Called with all of stderr so far, each time more arrives. */
  onStderr?: (stderr: string) => void;
}

/** Runs `agentwire <args>` to its end. stdin is closed (not a terminal). */
export function runBuilt(args: readonly string[], options: BuiltRunOptions): Promise<BuiltRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [MAIN, ...args], {
      env: options.env,
      cwd: options.cwd ?? ROOT,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
    });
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
      options.onStderr?.(stderr);
    });
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}
