import { mkdtemp, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { failure, type RunTool, toolRunner } from './helpers.js';

let root: string;
let run: RunTool;
// `(a+)+$` backtracks 2^n times on n a's followed by a non-a: hours for this line.
const evil = { pattern: '(a+)+$', path: 'redos.txt' };

beforeAll(async () => {
  root = await realpath(await mkdtemp(path.join(tmpdir(), 'agentwire-search-')));
  await writeFile(path.join(root, 'redos.txt'), `${'a'.repeat(40)}!\n`);
  await writeFile(path.join(root, 'plain.txt'), 'one\ntwo\nthree\n');
  run = toolRunner({ root, withoutBash: true, searchTimeoutMs: 1_000 });
});

afterAll(() => rm(root, { recursive: true, force: true }));

describe('search', () => {
  it('stops a catastrophically backtracking pattern at its timeout, with the event loop free', async () => {
    let ticks = 0;
    const ticker = setInterval(() => ticks++, 50);
    const before = Date.now();
    const error = await failure(run('search', evil));
    clearInterval(ticker);
    expect([error.kind, error.message]).toEqual(['timeout', 'search timed out after 1000 ms']);
    expect(Date.now() - before).toBeLessThan(4_000);
    expect(ticks).toBeGreaterThan(5);
  }, 15_000);

  it('stops a catastrophically backtracking pattern when its signal fires', async () => {
    const controller = new AbortController();
    const pending = run('search', evil, controller.signal);
    const timer = setTimeout(() => controller.abort(), 200);
    const error = await failure(pending);
    clearTimeout(timer);
    expect([error.kind, error.message]).toEqual(['aborted', 'search aborted']);
  }, 15_000);

  it('still finds lines, case-insensitively on request', async () => {
    expect(await run('search', { pattern: 'T[wh]', ignore_case: true, name_contains: 'plain' })).toBe(
      'plain.txt:2: two\nplain.txt:3: three',
    );
  });
});
