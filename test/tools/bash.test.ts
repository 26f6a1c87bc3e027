import { mkdtemp, realpath, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { failure, isAlive, type RunTool, toolRunner } from './helpers.js';

let root: string;
let run: RunTool;
const started: number[] = [];

beforeAll(async () => {
  root = await realpath(await mkdtemp(path.join(tmpdir(), 'agentwire-bash-')));
  run = toolRunner({
    root,
    bashTimeoutMs: 2_000,
    bashEnv: { EXTRA_VAR: 'extra value', UNSET_VAR: undefined },
  });
});

afterEach(() => {
  // A failing test must not leave its background sleep behind.
  for (const pid of started.splice(0)) if (isAlive(pid)) process.kill(pid, 'SIGKILL');
});

afterAll(() => rm(root, { recursive: true, force: true }));

/** The pid a command printed on its first line (`sleep 47 & echo $!`). */
function pidIn(text: string): number {
  const pid = Number(/(\d+)/.exec(text)?.[1]);
  started.push(pid);
  return pid;
}

describe('bash', () => {
  it('hands the command a small safe environment, not the process environment', async () => {
    process.env.AGENTWIRE_TEST_API_KEY = 'sk-must-not-leak';
    try {
      expect(await run('bash', { command: 'printenv AGENTWIRE_TEST_API_KEY || echo unset' })).toBe('unset\n');
      const names = String(await run('bash', { command: 'env | cut -d= -f1 | sort' }))
        .trim()
        .split('\n');
      const safe = ['HOME', 'LANG', 'LC_ALL', 'LOGNAME', 'PATH', 'SHELL', 'TERM', 'TMPDIR', 'USER'];
      // PWD, SHLVL and _ are bash's own.
      const expected = [
        ...safe.filter((n) => process.env[n] !== undefined),
        'EXTRA_VAR',
        'PWD',
        'SHLVL',
        '_',
      ];
      expect(names).toEqual(expected.sort());
      expect(await run('bash', { command: 'echo "$EXTRA_VAR|$PATH"' })).toBe(
        `extra value|${process.env.PATH}\n`,
      );
    } finally {
      delete process.env.AGENTWIRE_TEST_API_KEY;
    }
  });

  it('returns when the command exits, though a background child holds its output, and ends that child', async () => {
    const before = Date.now();
    const output = String(await run('bash', { command: 'sleep 47 & echo $!', timeout_ms: 2_000 }));
    expect(Date.now() - before).toBeLessThan(1_500);
    expect(output).toMatch(/^\d+\n$/);
    expect(isAlive(pidIn(output))).toBe(false);
  }, 10_000);

  it('kills the whole process group on timeout', async () => {
    const before = Date.now();
    const error = await failure(run('bash', { command: 'sleep 47 & echo $!; sleep 40', timeout_ms: 1_000 }));
    expect(Date.now() - before).toBeLessThan(2_500);
    expect(error.kind).toBe('timeout');
    expect(error.message).toMatch(/^command timed out after 1000 ms; output so far:\n\d+\n$/);
    expect(isAlive(pidIn(error.message))).toBe(false);
  }, 10_000);

  it('kills the whole process group when its signal fires', async () => {
    const controller = new AbortController();
    const pending = run('bash', { command: 'sleep 47 & echo $!; wait' }, controller.signal);
    const timer = setTimeout(() => controller.abort(), 500);
    const before = Date.now();
    const error = await failure(pending);
    clearTimeout(timer);
    expect(Date.now() - before).toBeLessThan(1_500);
    expect(error.kind).toBe('aborted');
    expect(error.message).toMatch(/^command aborted; output so far:\n\d+\n$/);
    expect(isAlive(pidIn(error.message))).toBe(false);
  }, 10_000);
});
