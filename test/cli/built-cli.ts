/** Runs the built `agentwire` executable (dist/cli/main.js) as a child process; shared by the CLI tests. */
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { ROOT } from '../helpers.js';

export const MAIN = path.join(ROOT, 'dist', 'cli', 'main.js');

/**
 * The lines of a `--help` text with each option's description on its option's line: help wraps at 80
 * columns, a long description going on below, indented to its column.
 */
export function helpLines(help: string): string[] {
  return help.replace(/\n {20,}(?=\S)/g, ' ').split('\n');
}

/** Builds dist/ when a bare `vitest run` comes before any `npm run build`. */
export function ensureBuilt(): void {
  if (!existsSync(MAIN)) execFileSync('npx', ['tsc', '-p', 'tsconfig.build.json'], { cwd: ROOT });
}

/** A running `agentwire`, its output collected as it comes. */
export interface RunningCli {
  child: ChildProcess;
  stdout(): string;
  stderr(): string;
  /** Resolves with the exit code once the process has exited and its output streams have closed. */
  exited: Promise<number | null>;
  /** Resolves once stderr holds `text`, with what `check` returns at that moment. */
  onStderr<T>(text: string, check: () => T): Promise<T>;
}

/** Starts `agentwire <args>`; `input` is written to its stdin, which is then closed. */
export function startCli(
  args: string[],
  options: { input?: string; env?: NodeJS.ProcessEnv } = {},
): RunningCli {
  const child = spawn(process.execPath, [MAIN, ...args], {
    stdio: ['pipe', 'pipe', 'pipe'],
    env: options.env ?? plainEnv(),
  });
  let stdout = '';
  let stderr = '';
  const watchers: { text: string; fire: () => void }[] = [];
  child.stdout?.on('data', (chunk: Buffer) => {
    stdout += chunk.toString();
  });
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
    for (const watcher of watchers.splice(0)) {
      if (stderr.includes(watcher.text)) watcher.fire();
      else watchers.push(watcher);
    }
  });
  child.stdin?.end(options.input ?? '');
  const exited = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
  return {
    child,
    stdout: () => stdout,
    stderr: () => stderr,
    exited,
    onStderr: (text, check) =>
      new Promise((resolve) => {
        if (stderr.includes(text)) resolve(check());
        else watchers.push({ text, fire: () => resolve(check()) });
      }),
  };
}

/** Runs `agentwire <args>` to the end. */
export async function runBuilt(
  args: string[],
  options: { input?: string; env?: NodeJS.ProcessEnv } = {},
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const run = startCli(args, options);
  const code = await run.exited;
  return { code, stdout: run.stdout(), stderr: run.stderr() };
}

/** The test's environment without colour settings: output is plain, as when piped. */
export function plainEnv(extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  const { FORCE_COLOR: _force, NO_COLOR: _no, ...env } = process.env;
  return { ...env, ...extra };
}

/**
 * {@link plainEnv} for `agentwire run` against a fake Anthropic server at `baseURL`: its key and URL, the
 * model `anthropic:claude-test`, and none of the test runner's OpenAI settings (which would pick OpenAI).
 */
export function fakeAnthropicEnv(baseURL: string): NodeJS.ProcessEnv {
  const {
    OPENAI_API_KEY: _o,
    OPENAI_BASE_URL: _b,
    ...rest
  } = plainEnv({
    ANTHROPIC_API_KEY: 'sk-ant-test',
    ANTHROPIC_BASE_URL: baseURL,
    AGENTWIRE_MODEL: 'anthropic:claude-test',
  });
  return rest;
}
