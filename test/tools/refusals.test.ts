import { chmod, mkdtemp, readFile, realpath, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_MAX_WRITE_BYTES } from '../../src/tools/write-text.js';
import { failure, type RunTool, toolRunner } from './helpers.js';

let root: string;
let run: RunTool;
let runDefault: RunTool;

beforeAll(async () => {
  root = await realpath(await mkdtemp(path.join(tmpdir(), 'agentwire-refuse-')));
  await writeFile(path.join(root, 'small.txt'), 'abc abc\n');
  run = toolRunner({ root, withoutBash: true, maxWriteBytes: 10 });
  runDefault = toolRunner({ root, withoutBash: true });
});

afterAll(() => rm(root, { recursive: true, force: true }));

/** Each file tool, called on `p`. */
const calls = (p: string): [string, Record<string, unknown>][] => [
  ['read_file', { path: p }],
  ['write_file', { path: p, content: 'x' }],
  ['edit_file', { path: p, old_text: 'a', new_text: 'b' }],
  ['list_files', { path: p }],
  ['search', { pattern: 'a', path: p }],
];

describe('refusals', () => {
  it('of a name too long, by every file tool, typed and with the path cut to 200 characters', async () => {
    const long = 'n'.repeat(100_000);
    const shown = `${'n'.repeat(200)}…`;
    for (const [tool, input] of calls(long)) {
      const error = await failure(run(tool, input));
      expect([error.kind, error.toolName, error.reason, error.path, error.message]).toEqual([
        'invalid_input',
        tool,
        'name_too_long',
        shown,
        `path "${shown}" is too long: at most 255 bytes per name and 4096 in all`,
      ]);
    }
    // 256 bytes in one name, and 4,097 in all with short names, are refused too; 255 bytes is a name.
    expect((await failure(run('read_file', { path: 'é'.repeat(128) }))).reason).toBe('name_too_long');
    expect((await failure(run('read_file', { path: 'ab/'.repeat(1366) }))).reason).toBe('name_too_long');
    expect((await failure(run('read_file', { path: 'n'.repeat(255) }))).kind).toBe('not_found');
  });

  it('of a NUL byte, by every file tool, typed and shown as \\0', async () => {
    for (const [tool, input] of calls('a\0b')) {
      const error = await failure(run(tool, input));
      expect([error.kind, error.toolName, error.reason, error.path, error.message]).toEqual([
        'invalid_input',
        tool,
        'nul_byte',
        'a\\0b',
        'path "a\\0b" holds a NUL byte',
      ]);
    }
  });

  it('of a path outside, with reason and path', async () => {
    const error = await failure(run('read_file', { path: '../x' }));
    expect([error.kind, error.reason, error.path, error.message]).toEqual([
      'outside_workspace',
      'outside_workspace',
      '../x',
      'path "../x" is outside the workspace',
    ]);
  });

  it('of write_file content over maxWriteBytes: nothing is written', async () => {
    expect(await run('write_file', { path: 'ten.txt', content: '0123456789' })).toBe(
      'wrote 10 bytes to ten.txt',
    );
    // 'é' is 2 bytes: 6 characters are 12 bytes.
    const error = await failure(run('write_file', { path: 'big.txt', content: 'éééééé' }));
    expect([error.kind, error.reason, error.path, error.message]).toEqual([
      'invalid_input',
      'too_large',
      'big.txt',
      '12 bytes for "big.txt" is more than write_file writes (maxWriteBytes 10)',
    ]);
    await expect(stat(path.join(root, 'big.txt'))).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it('of write_file content over the default cap, 10,000,000 bytes', async () => {
    expect(DEFAULT_MAX_WRITE_BYTES).toBe(10_000_000);
    const error = await failure(
      runDefault('write_file', { path: 'huge.txt', content: 'x'.repeat(10_000_001) }),
    );
    expect([error.reason, error.message]).toEqual([
      'too_large',
      '10000001 bytes for "huge.txt" is more than write_file writes (maxWriteBytes 10000000)',
    ]);
    await expect(stat(path.join(root, 'huge.txt'))).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it('of an edit_file result over maxWriteBytes: the file is unchanged', async () => {
    const error = await failure(
      run('edit_file', { path: 'small.txt', old_text: 'abc', new_text: 'abcdef', replace_all: true }),
    );
    expect([error.kind, error.reason, error.message]).toEqual([
      'invalid_input',
      'too_large',
      '14 bytes for "small.txt" is more than edit_file writes (maxWriteBytes 10)',
    ]);
    expect(await readFile(path.join(root, 'small.txt'), 'utf8')).toBe('abc abc\n');
  });
});

describe('writes in place', () => {
  it('keep an existing file (its inode and mode) for write_file and edit_file', async () => {
    const file = path.join(root, 'kept.txt');
    await writeFile(file, 'one two');
    await chmod(file, 0o600);
    const before = await stat(file);
    expect(await runDefault('write_file', { path: 'kept.txt', content: 'three' })).toBe(
      'wrote 5 bytes to kept.txt',
    );
    expect(await runDefault('edit_file', { path: 'kept.txt', old_text: 'three', new_text: 'four' })).toBe(
      'replaced 1 occurrence in kept.txt',
    );
    const after = await stat(file);
    expect([after.ino, after.mode & 0o777, await readFile(file, 'utf8')]).toEqual([
      before.ino,
      0o600,
      'four',
    ]);
  });

  it('create missing parent directories inside the root', async () => {
    expect(await runDefault('write_file', { path: 'a/b/c.txt', content: 'c' })).toBe(
      'wrote 1 bytes to a/b/c.txt',
    );
    expect(await readFile(path.join(root, 'a', 'b', 'c.txt'), 'utf8')).toBe('c');
  });
});
