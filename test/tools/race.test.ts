/**
 * Confinement under a race: a second process swaps a file or a directory inside the workspace for a symlink
 * to one outside it, as fast as it can, while a tool is called thousands of times on that path. No call may
 * read what is outside or write there; calls that saw the swap are refused (or find nothing).
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdir, mkdtemp, readdir, readFile, realpath, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { BuiltinToolError } from '../../src/tools/index.js';
import { isAlive, type RunTool, toolRunner } from './helpers.js';

const SWAPPER = path.join(import.meta.dirname, '..', 'fixtures', 'path-swapper.mjs');
const SECRET = 'SECRET-OUTSIDE';
/** Calls per tool, and the time they may take at most, in ms (a slow machine makes fewer calls). */
const ATTEMPTS = 3_000;
const SEARCH_ATTEMPTS = 300;
const BUDGET_MS = 8_000;

let base: string;
let root: string;
let outside: string;
let run: RunTool;
let swapper: ChildProcess | undefined;

beforeEach(async () => {
  base = await realpath(await mkdtemp(path.join(tmpdir(), 'agentwire-race-')));
  root = path.join(base, 'ws');
  outside = path.join(base, 'outside');
  await mkdir(path.join(root, 'd'), { recursive: true });
  await mkdir(outside);
  await writeFile(path.join(root, 'f.txt'), 'inside OLD\n');
  await writeFile(path.join(root, 'd', 'f.txt'), 'inside OLD\n');
  await writeFile(path.join(outside, 'f.txt'), `${SECRET} OLD\n`);
  await writeFile(path.join(outside, 'secret-name.txt'), `${SECRET}\n`);
  run = toolRunner({ root, withoutBash: true });
});

afterEach(async () => {
  const child = swapper;
  swapper = undefined;
  if (child?.pid !== undefined && child.exitCode === null && child.signalCode === null) {
    const exited = once(child, 'exit');
    child.kill('SIGKILL');
    await exited;
  }
  if (child?.pid !== undefined) expect(isAlive(child.pid)).toBe(false);
  await rm(base, { recursive: true, force: true });
});

/** Starts swapping `root/<name>` with a symlink to `target`; resolves once it runs. */
async function startSwapping(name: string, target: string): Promise<void> {
  const child = spawn(process.execPath, [SWAPPER, root, name, target, String(BUDGET_MS * 4)], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  swapper = child;
  const [chunk] = (await once(child.stdout, 'data')) as [Buffer];
  expect(chunk.toString()).toBe('ready\n');
}

/** What the calls did: results that show the outside, refusals of a path that left the root, other errors. */
interface Tally {
  calls: number;
  escaped: number;
  refused: number;
  other: number;
}

async function hammer(
  attempts: number,
  call: (i: number) => Promise<unknown>,
  escaped: (result: unknown) => boolean,
): Promise<Tally> {
  const tally: Tally = { calls: 0, escaped: 0, refused: 0, other: 0 };
  const deadline = Date.now() + BUDGET_MS;
  for (let i = 0; i < attempts && Date.now() < deadline; i++) {
    tally.calls += 1;
    try {
      if (escaped(await call(i))) tally.escaped += 1;
    } catch (error) {
      if (!(error instanceof BuiltinToolError)) throw error;
      if (error.kind === 'outside_workspace') tally.refused += 1;
      else tally.other += 1;
    }
  }
  console.log(JSON.stringify(tally));
  return tally;
}

/** Names, contents and modification times of everything outside: unchanged means nothing was written. */
async function outsideState(): Promise<string[]> {
  const names = (await readdir(outside, { recursive: true })).sort();
  return Promise.all(
    names.map(async (name) => {
      const file = path.join(outside, name);
      const info = await stat(file);
      const content = info.isFile() ? await readFile(file, 'utf8') : '(dir)';
      return `${name} ${info.mtimeMs} ${content}`;
    }),
  );
}

const showsSecret = (result: unknown) => typeof result === 'string' && result.includes(SECRET);

describe('confinement under a racing symlink swap', () => {
  it('read_file never reads a file swapped for a symlink', async () => {
    await startSwapping('f.txt', path.join(outside, 'f.txt'));
    const tally = await hammer(ATTEMPTS, () => run('read_file', { path: 'f.txt' }), showsSecret);
    expect(tally.escaped).toBe(0);
  }, 30_000);

  it('read_file never reads through a directory swapped for a symlink', async () => {
    await startSwapping('d', outside);
    const tally = await hammer(ATTEMPTS, () => run('read_file', { path: 'd/f.txt' }), showsSecret);
    expect(tally.escaped).toBe(0);
  }, 30_000);

  it('write_file never writes through a swapped file or directory', async () => {
    const before = await outsideState();
    await startSwapping('d', outside);
    await hammer(
      ATTEMPTS,
      (i) => run('write_file', { path: i % 2 === 0 ? 'd/f.txt' : `d/new${i}/x.txt`, content: 'WRITTEN' }),
      () => false,
    );
    expect(await outsideState()).toEqual(before);
  }, 30_000);

  it('write_file never writes through a file swapped for a symlink', async () => {
    const before = await outsideState();
    await startSwapping('f.txt', path.join(outside, 'f.txt'));
    await hammer(
      ATTEMPTS,
      () => run('write_file', { path: 'f.txt', content: 'WRITTEN' }),
      () => false,
    );
    expect(await outsideState()).toEqual(before);
  }, 30_000);

  it('edit_file never reads or writes through a swapped file or directory', async () => {
    const before = await outsideState();
    await startSwapping('f.txt', path.join(outside, 'f.txt'));
    const file = await hammer(
      ATTEMPTS,
      (i) =>
        run('edit_file', { path: 'f.txt', old_text: i % 2 ? 'NEW' : 'OLD', new_text: i % 2 ? 'OLD' : 'NEW' }),
      showsSecret,
    );
    expect(await outsideState()).toEqual(before);
    await swapperGone();
    await startSwapping('d', outside);
    const dir = await hammer(
      ATTEMPTS,
      (i) =>
        run('edit_file', {
          path: 'd/f.txt',
          old_text: i % 2 ? 'NEW' : 'OLD',
          new_text: i % 2 ? 'OLD' : 'NEW',
        }),
      showsSecret,
    );
    expect(await outsideState()).toEqual(before);
    expect([file.escaped, dir.escaped]).toEqual([0, 0]);
  }, 60_000);

  it('search never reads through a swapped file or directory', async () => {
    await startSwapping('d', outside);
    const tally = await hammer(
      SEARCH_ATTEMPTS,
      (i) => run('search', { pattern: 'SECRET|inside', path: i % 2 === 0 ? '.' : 'd' }),
      showsSecret,
    );
    expect(tally.escaped).toBe(0);
  }, 30_000);

  it('list_files never lists a directory swapped for a symlink', async () => {
    await startSwapping('d', outside);
    const tally = await hammer(
      ATTEMPTS,
      (i) => run('list_files', { path: i % 2 === 0 ? '.' : 'd' }),
      (result) => typeof result === 'string' && result.includes('secret-name'),
    );
    expect(tally.escaped).toBe(0);
  }, 30_000);
});

/** Stops the current swapper and puts the workspace back as it was. */
async function swapperGone(): Promise<void> {
  const child = swapper;
  swapper = undefined;
  if (child && child.exitCode === null && child.signalCode === null) {
    const exited = once(child, 'exit');
    child.kill('SIGKILL');
    await exited;
  }
  await rm(path.join(root, '.f.txt.link'), { force: true });
  await rm(path.join(root, 'f.txt'), { force: true });
  await rm(path.join(root, '.f.txt.held'), { force: true });
  await writeFile(path.join(root, 'f.txt'), 'inside OLD\n');
}
