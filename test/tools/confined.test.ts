/**
 * The two ways `confined.ts` checks an open (Linux `/proc/self/fd`, and the second resolution other systems
 * use), each against a path that was approved and then had a symlink swapped in, held still.
 */
import { constants } from 'node:fs';
import { mkdir, mkdtemp, readFile, realpath, rename, rm, stat, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openDir, openFile, reopenForWriting } from '../../src/tools/confined.js';
import { Workspace } from '../../src/tools/workspace.js';
import { writeConfined } from '../../src/tools/write-text.js';
import { failure } from './helpers.js';

let base: string;
let root: string;
let outside: string;

beforeEach(async () => {
  base = await realpath(await mkdtemp(path.join(tmpdir(), 'agentwire-confined-')));
  root = path.join(base, 'ws');
  outside = path.join(base, 'outside');
  await mkdir(path.join(root, 'd'), { recursive: true });
  await mkdir(outside);
  await writeFile(path.join(root, 'd', 'f.txt'), 'inside');
  await writeFile(path.join(root, 'f.txt'), 'inside');
  await writeFile(path.join(outside, 'f.txt'), 'SECRET');
});

afterEach(() => rm(base, { recursive: true, force: true }));

/** Swaps `root/<name>` for a symlink to `target`, as a racing process would between check and open. */
async function swap(name: string, target: string): Promise<void> {
  await rename(path.join(root, name), path.join(root, `${name}.held`));
  await symlink(target, path.join(root, name));
}

describe.each([true, false])('confined opens (procFd %s)', (procFd) => {
  const who = (shown: string) => ({ toolName: 'read_file', shown, procFd });

  it('open and rewrite the approved file', async () => {
    const file = path.join(root, 'd', 'f.txt');
    const handle = await openFile(who('d/f.txt'), file, constants.O_RDONLY);
    try {
      expect(await handle.readFile('utf8')).toBe('inside');
      const writer = await reopenForWriting(who('d/f.txt'), handle, file);
      await writer.write('INSIDE', 0);
      await writer.close();
    } finally {
      await handle.close();
    }
    expect(await readFile(file, 'utf8')).toBe('INSIDE');
    await writeConfined(
      who('d/new/x.txt'),
      new Workspace(root),
      path.join(root, 'd', 'new', 'x.txt'),
      Buffer.from('x'),
    );
    expect(await readFile(path.join(root, 'd', 'new', 'x.txt'), 'utf8')).toBe('x');
  });

  it('refuse a file swapped for a symlink', async () => {
    await swap('f.txt', path.join(outside, 'f.txt'));
    const error = await failure(openFile(who('f.txt'), path.join(root, 'f.txt'), constants.O_RDONLY));
    expect([error.kind, error.reason, error.message]).toEqual([
      'outside_workspace',
      'outside_workspace',
      'path "f.txt" is outside the workspace',
    ]);
  });

  it('refuse a file, a directory and a write under a directory swapped for a symlink', async () => {
    await swap('d', outside);
    const read = await failure(openFile(who('d/f.txt'), path.join(root, 'd', 'f.txt'), constants.O_RDONLY));
    const dir = await failure(openDir(who('d'), path.join(root, 'd')));
    const write = await failure(
      writeConfined(
        who('d/n/x.txt'),
        new Workspace(root),
        path.join(root, 'd', 'n', 'x.txt'),
        Buffer.from('x'),
      ),
    );
    expect([read.kind, dir.kind, write.kind]).toEqual([
      'outside_workspace',
      'outside_workspace',
      'outside_workspace',
    ]);
    await expect(stat(path.join(outside, 'n'))).rejects.toMatchObject({ code: 'ENOENT' });
    expect(await readFile(path.join(outside, 'f.txt'), 'utf8')).toBe('SECRET');
  });
});
