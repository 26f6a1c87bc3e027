import { mkdir, mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Tool } from '../../src/core/tool.js';
import { BuiltinToolError, defaultTools } from '../../src/tools/index.js';

let base: string;
let root: string;
let outside: string;
let tools: Map<string, Tool>;

function run(name: string, input: Record<string, unknown>, signal?: AbortSignal): Promise<unknown> {
  const tool = tools.get(name);
  if (!tool) throw new Error(`no tool ${name}`);
  return tool.execute(input, signal ? { signal } : {});
}

async function failure(promise: Promise<unknown>): Promise<BuiltinToolError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!(error instanceof BuiltinToolError))
    throw new Error(`expected a BuiltinToolError, got ${String(error)}`);
  return error;
}

beforeAll(async () => {
  base = await mkdtemp(path.join(tmpdir(), 'agentwire-tools-'));
  root = path.join(base, 'ws');
  outside = path.join(base, 'outside');
  await mkdir(path.join(root, 'src', 'deep'), { recursive: true });
  await mkdir(outside);
  await writeFile(path.join(outside, 'secret.txt'), 'top secret\n');
  await writeFile(path.join(root, 'src', 'a.ts'), 'const a = 1;\nconst b = 2;\nexport { a, b };\n');
  await writeFile(path.join(root, 'src', 'deep', 'c.ts'), 'export const c = 3;\n');
  await writeFile(path.join(root, 'big.txt'), 'x'.repeat(5_000));
  await symlink(outside, path.join(root, 'escape'));
  await symlink(path.join(outside, 'secret.txt'), path.join(root, 'secret-link.txt'));
  tools = new Map(
    defaultTools({ root, maxOutputBytes: 1_000, bashTimeoutMs: 2_000 }).map((t) => [t.name, t]),
  );
});

afterAll(() => rm(base, { recursive: true, force: true }));

describe('built-in tools', () => {
  it('are the six of the Rust seed, all marked builtin', () => {
    expect([...tools.values()].map((t) => [t.name, t.source])).toEqual([
      ['bash', 'builtin'],
      ['read_file', 'builtin'],
      ['write_file', 'builtin'],
      ['edit_file', 'builtin'],
      ['list_files', 'builtin'],
      ['search', 'builtin'],
    ]);
  });

  it('read_file reads a file, or a range of its lines', async () => {
    expect(await run('read_file', { path: 'src/a.ts' })).toBe(
      'const a = 1;\nconst b = 2;\nexport { a, b };\n',
    );
    expect(await run('read_file', { path: 'src/a.ts', offset: 2, limit: 1 })).toBe('const b = 2;');
  });

  it('caps output and says how much was left out', async () => {
    expect(await run('read_file', { path: 'big.txt' })).toBe(
      `${'x'.repeat(1_000)}\n[output truncated: 4000 of 5000 bytes left out]`,
    );
  });

  it('refuses paths outside the workspace: .., absolute, and through symlinks', async () => {
    for (const p of [
      '../outside/secret.txt',
      path.join(outside, 'secret.txt'),
      'escape/secret.txt',
      'secret-link.txt',
    ]) {
      const error = await failure(run('read_file', { path: p }));
      expect([error.kind, error.message]).toEqual([
        'outside_workspace',
        `path "${p}" is outside the workspace`,
      ]);
    }
    const write = await failure(run('write_file', { path: 'escape/new.txt', content: 'x' }));
    expect(write.kind).toBe('outside_workspace');
    const list = await failure(run('list_files', { path: 'escape' }));
    expect(list.kind).toBe('outside_workspace');
  });

  it('reports a missing file as not_found', async () => {
    const error = await failure(run('read_file', { path: 'nope.txt' }));
    expect([error.kind, error.message]).toEqual(['not_found', '"nope.txt" does not exist']);
  });

  it('write_file creates parent directories', async () => {
    expect(await run('write_file', { path: 'out/new/file.txt', content: 'héllo' })).toBe(
      'wrote 6 bytes to out/new/file.txt',
    );
    expect(await readFile(path.join(root, 'out', 'new', 'file.txt'), 'utf8')).toBe('héllo');
  });

  it('edit_file replaces text that occurs once, and refuses missing or ambiguous text', async () => {
    await writeFile(path.join(root, 'edit.txt'), 'one two two\n');
    expect(await run('edit_file', { path: 'edit.txt', old_text: 'one', new_text: '1' })).toBe(
      'replaced 1 occurrence in edit.txt',
    );
    const ambiguous = await failure(run('edit_file', { path: 'edit.txt', old_text: 'two', new_text: '2' }));
    expect(ambiguous.kind).toBe('ambiguous_match');
    const missing = await failure(run('edit_file', { path: 'edit.txt', old_text: 'three', new_text: '3' }));
    expect([missing.kind, missing.message]).toEqual(['no_match', '"old_text" does not occur in edit.txt']);
    expect(
      await run('edit_file', { path: 'edit.txt', old_text: 'two', new_text: '2', replace_all: true }),
    ).toBe('replaced 2 occurrences in edit.txt');
    expect(await readFile(path.join(root, 'edit.txt'), 'utf8')).toBe('1 2 2\n');
  });

  it('list_files lists sorted entries to a depth, symlinks listed but not entered', async () => {
    expect(await run('list_files', { path: 'src' })).toBe('src/a.ts\nsrc/deep/\nsrc/deep/c.ts');
    expect(await run('list_files', { path: 'src', depth: 1 })).toBe('src/a.ts\nsrc/deep/');
  });

  it('search finds matching lines as file:line: text, skipping symlinks', async () => {
    expect(await run('search', { pattern: 'export', path: 'src' })).toBe(
      'src/a.ts:3: export { a, b };\nsrc/deep/c.ts:1: export const c = 3;',
    );
    expect(await run('search', { pattern: 'secret' })).toBe('no matches');
    const bad = await failure(run('search', { pattern: '(' }));
    expect(bad.kind).toBe('invalid_input');
  });

  it('bash runs in the workspace root and reports a non-zero exit as a failure with its output', async () => {
    expect(await run('bash', { command: 'pwd && echo err >&2' })).toBe(`${await realRoot()}\nerr\n`);
    const error = await failure(run('bash', { command: 'echo before; exit 3' }));
    expect([error.kind, error.message]).toEqual(['io', 'command failed (exit code 3):\nbefore\n']);
  });

  it('bash caps its output and counts what it left out', async () => {
    const output = await run('bash', { command: 'head -c 3000 /dev/zero | tr "\\0" y' });
    expect(output).toBe(`${'y'.repeat(1_000)}\n[output truncated: 2000 of 3000 bytes left out]`);
  });

  it('bash kills the command when it times out', async () => {
    const started = Date.now();
    const error = await failure(run('bash', { command: 'echo start; sleep 30', timeout_ms: 1_000 }));
    expect([error.kind, error.message]).toEqual([
      'timeout',
      'command timed out after 1000 ms; output so far:\nstart\n',
    ]);
    expect(Date.now() - started).toBeLessThan(5_000);
  });

  it('bash stops when its signal fires', async () => {
    const controller = new AbortController();
    const pending = run('bash', { command: 'sleep 30' }, controller.signal);
    setTimeout(() => controller.abort(), 100);
    const error = await failure(pending);
    expect(error.kind).toBe('aborted');
  });
});

async function realRoot(): Promise<string> {
  const { realpath } = await import('node:fs/promises');
  return realpath(root);
}
