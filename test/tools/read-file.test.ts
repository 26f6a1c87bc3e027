import { execFileSync } from 'node:child_process';
import { mkdtemp, realpath, rm, truncate, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_EDIT_FILE_BYTES } from '../../src/tools/files.js';
import { failure, type RunTool, toolRunner } from './helpers.js';

const GIB = 1024 ** 3;
let root: string;
let run: RunTool;

beforeAll(async () => {
  root = await realpath(await mkdtemp(path.join(tmpdir(), 'agentwire-read-')));
  // Sparse: 1 GiB of NUL bytes and no newline that takes no disk space.
  await writeFile(path.join(root, 'huge.bin'), '');
  await truncate(path.join(root, 'huge.bin'), GIB);
  await writeFile(path.join(root, 'lines.txt'), 'l1\nl2\nl3 is longer than the cap\nl4\n');
  execFileSync('mkfifo', [path.join(root, 'pipe')]);
  run = toolRunner({ root, withoutBash: true, maxOutputBytes: 20 });
});

afterAll(() => rm(root, { recursive: true, force: true }));

describe('read_file', () => {
  it('reads only the first maxOutputBytes of a huge file and says how big it is', async () => {
    expect(await run('read_file', { path: 'huge.bin' })).toBe(
      `${'\0'.repeat(20)}\n[output truncated: ${GIB - 20} of ${GIB} bytes left out]`,
    );
  }, 10_000);

  it('stops reading a line range at maxOutputBytes and says where to read on', async () => {
    expect(await run('read_file', { path: 'huge.bin', offset: 1, limit: 1 })).toBe(
      `${'\0'.repeat(20)}\n[output truncated at 20 bytes; line 1 is not shown in full]`,
    );
    expect(await run('read_file', { path: 'lines.txt', offset: 2 })).toBe(
      'l2\nl3 is longer than\n[output truncated at 20 bytes; line 3 is not shown in full]',
    );
    expect(await run('read_file', { path: 'lines.txt', offset: 2, limit: 1 })).toBe('l2');
    expect(await run('read_file', { path: 'lines.txt', offset: 4 })).toBe('l4\n');
    expect(await run('read_file', { path: 'lines.txt', offset: 9 })).toBe('');
  });

  it('refuses a FIFO or a directory instead of waiting on it', async () => {
    const fifo = await failure(run('read_file', { path: 'pipe' }));
    expect([fifo.kind, fifo.message]).toEqual(['invalid_input', '"pipe" is not a regular file']);
    const dir = await failure(run('read_file', { path: '.' }));
    expect([dir.kind, dir.message]).toEqual(['invalid_input', '"." is not a regular file']);
  }, 5_000);

  it('stops scanning a huge file when its signal fires', async () => {
    const controller = new AbortController();
    const pending = run('read_file', { path: 'huge.bin', offset: 2 }, controller.signal);
    const timer = setTimeout(() => controller.abort(), 50);
    const before = Date.now();
    const error = await failure(pending);
    clearTimeout(timer);
    expect([error.kind, error.message]).toEqual(['aborted', 'read_file aborted']);
    expect(Date.now() - before).toBeLessThan(1_000);
  }, 10_000);

  it('refuses to edit a file over MAX_EDIT_FILE_BYTES', async () => {
    const edit = await failure(run('edit_file', { path: 'huge.bin', old_text: 'a', new_text: 'b' }));
    expect([edit.kind, edit.message]).toEqual([
      'invalid_input',
      `"huge.bin" is ${GIB} bytes; edit_file edits files of up to ${MAX_EDIT_FILE_BYTES} bytes`,
    ]);
  });

  it('refuses to edit or overwrite a FIFO', async () => {
    const edit = await failure(run('edit_file', { path: 'pipe', old_text: 'a', new_text: 'b' }));
    expect([edit.kind, edit.message]).toEqual(['invalid_input', '"pipe" is not a regular file']);
    const write = await failure(run('write_file', { path: 'pipe', content: 'x' }));
    expect([write.kind, write.message]).toEqual(['invalid_input', '"pipe" is not a regular file']);
  }, 5_000);
});
