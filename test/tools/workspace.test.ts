import { mkdir, mkdtemp, readFile, realpath, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { failure, type RunTool, toolRunner } from './helpers.js';

let base: string;
let root: string;
let outside: string;
let run: RunTool;

beforeAll(async () => {
  base = await realpath(await mkdtemp(path.join(tmpdir(), 'agentwire-ws-')));
  root = path.join(base, 'ws');
  outside = path.join(base, 'outside');
  await mkdir(root);
  await mkdir(outside);
  // Dangling links: their targets do not exist (yet).
  await symlink(path.join(outside, 'out.txt'), path.join(root, 'dangling'));
  await symlink(path.join(root, 'dangling'), path.join(root, 'dangling-chain'));
  await symlink(path.join(outside, 'dir', 'deeper'), path.join(root, 'dangling-dir'));
  await symlink(path.join(root, 'made-later.txt'), path.join(root, 'dangling-inside'));
  await writeFile(path.join(root, '..foo'), 'dots in a name\n');
  run = toolRunner({ root, withoutBash: true });
});

afterAll(() => rm(base, { recursive: true, force: true }));

describe('the workspace', () => {
  it('refuses to write through a dangling symlink that points outside', async () => {
    for (const p of ['dangling', 'dangling-chain', 'dangling-dir/new.txt']) {
      const error = await failure(run('write_file', { path: p, content: 'ESCAPED' }));
      expect([error.kind, error.message]).toEqual([
        'outside_workspace',
        `path "${p}" is outside the workspace`,
      ]);
    }
    await expect(readFile(path.join(outside, 'out.txt'), 'utf8')).rejects.toMatchObject({ code: 'ENOENT' });
    await expect(readFile(path.join(outside, 'dir', 'deeper', 'new.txt'))).rejects.toMatchObject({
      code: 'ENOENT',
    });
  });

  it('writes through a dangling symlink that points inside, to its target', async () => {
    expect(await run('write_file', { path: 'dangling-inside', content: 'ok' })).toBe(
      'wrote 2 bytes to made-later.txt',
    );
    expect(await readFile(path.join(root, 'made-later.txt'), 'utf8')).toBe('ok');
  });

  it('accepts a file whose name starts with two dots', async () => {
    expect(await run('read_file', { path: '..foo' })).toBe('dots in a name\n');
    expect(await run('write_file', { path: '..bar', content: 'x' })).toBe('wrote 1 bytes to ..bar');
  });
});
