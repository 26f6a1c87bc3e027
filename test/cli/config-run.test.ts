import path from 'node:path';
import { afterAll, afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { startFakeAnthropic } from '../fixtures/fake-anthropic.js';
import type { FakeModelServer } from '../fixtures/fake-model-server.js';
import { useFakeModelServer } from '../fixtures/use-fake-model-server.js';
import { children, tempDir } from '../helpers.js';

const emptyHome = tempDir('agentwire-empty-home-');
afterAll(() => emptyHome.remove());

import { cli, EVERYTHING } from './run-cli.js';

const CONFIGS = path.resolve('test/fixtures/configs');
const SERVERS = path.join(CONFIGS, 'cli-servers.json');
const ONE = path.join(CONFIGS, 'cli-one.json');
const EVERYTHING_MARKER = 'server-everything/dist/index.js';
const PROVIDER_VARS = ['ANTHROPIC_API_KEY', 'ANTHROPIC_BASE_URL', 'OPENAI_API_KEY', 'OPENAI_BASE_URL'];

/** Tool durations vary from run to run; everything else in a transcript is exact. */
const timeless = (text: string) => text.replace(/\(\d+ ms\)/g, '(N ms)');

/** The tool names the model was offered in its first request. */
function offered(fake: FakeModelServer): string[] {
  return ((fake.requests[0]?.tools ?? []) as { name: string }[]).map((tool) => tool.name);
}

const fake = useFakeModelServer(startFakeAnthropic);
beforeEach(() => {
  for (const name of PROVIDER_VARS) vi.stubEnv(name, undefined);
  vi.stubEnv('ANTHROPIC_API_KEY', 'sk-ant-test-secret');
  vi.stubEnv('ANTHROPIC_BASE_URL', fake.baseURL);
  vi.stubEnv('AGENTWIRE_MODEL', 'anthropic:claude-test');
  // No host configuration: `--server` without `--config` finds nothing.
  vi.stubEnv('HOME', emptyHome.dir);
  vi.stubEnv('XDG_CONFIG_HOME', path.join(emptyHome.dir, '.config'));
  vi.stubEnv('CODEX_HOME', path.join(emptyHome.dir, '.codex'));
});
afterEach(() => {
  vi.unstubAllEnvs();
  expect(children(EVERYTHING_MARKER)).toEqual([]);
});

describe('agentwire run with --config', () => {
  it("offers the entry's tools through its allowTools/blockTools, under the entry's name", async () => {
    fake.script(
      { toolCalls: [{ id: 'toolu_1', name: 'get-sum', input: { a: 2, b: 40 } }] },
      { text: 'It is 42.' },
    );
    const run = await cli(['run', 'Add 2 and 40.', '--config', SERVERS, '--server', 'everything']);
    expect({ ...run, stdout: timeless(run.stdout) }).toEqual({
      code: 0,
      stdout: [
        '▸ get-sum [everything] {"a":2,"b":40}',
        '  ✓ get-sum (N ms) The sum of 2 and 40 is 42.',
        'It is 42.',
        '',
      ].join('\n'),
      stderr: '',
    });
    expect(offered(fake)).toEqual([
      'echo',
      'get-annotated-message',
      'get-env',
      'get-resource-links',
      'get-resource-reference',
      'get-structured-content',
      'get-sum',
    ]);
  });

  it('with --prefix names each filtered tool of a --config server by its server once', async () => {
    fake.script(
      { toolCalls: [{ id: 'toolu_1', name: 'everything__get-sum', input: { a: 1, b: 2 } }] },
      { text: 'Three.' },
    );
    const run = await cli(['run', 'Add.', '--config', SERVERS, '--server', 'everything', '--prefix']);
    expect({ ...run, stdout: timeless(run.stdout) }).toEqual({
      code: 0,
      stdout: [
        '▸ everything__get-sum [everything] {"a":1,"b":2}',
        '  ✓ everything__get-sum (N ms) The sum of 1 and 2 is 3.',
        'Three.',
        '',
      ].join('\n'),
      stderr: '',
    });
    expect(offered(fake)).toEqual([
      'everything__echo',
      'everything__get-annotated-message',
      'everything__get-env',
      'everything__get-resource-links',
      'everything__get-resource-reference',
      'everything__get-structured-content',
      'everything__get-sum',
    ]);
  });

  it('takes every enabled server of the file beside a --stdio server, prefixing the names they share', async () => {
    fake.script(
      { toolCalls: [{ id: 'toolu_1', name: 'everything__echo', input: { message: 'via config' } }] },
      { toolCalls: [{ id: 'toolu_2', name: 'server-everything__echo', input: { message: 'via --stdio' } }] },
      { text: 'Both answered.' },
    );
    const run = await cli(['run', 'Echo twice.', '--config', ONE, '--stdio', EVERYTHING]);
    expect({ ...run, stdout: timeless(run.stdout) }).toEqual({
      code: 0,
      stdout: [
        '▸ everything__echo [everything] {"message":"via config"}',
        '  ✓ everything__echo (N ms) Echo: via config',
        '▸ server-everything__echo [server-everything] {"message":"via --stdio"}',
        '  ✓ server-everything__echo (N ms) Echo: via --stdio',
        'Both answered.',
        '',
      ].join('\n'),
      stderr: '',
    });
    // 14 tools each, trigger-sampling-request included: `run` answers sampling with its model, so
    // server-everything offers that tool too; simulate-research-query runs as a task.
    expect(offered(fake)).toHaveLength(28);
    expect(offered(fake)).toContain('server-everything__trigger-sampling-request');
  });

  it('exits 3 without asking the model when an entry cannot start, and stops the others', async () => {
    const run = await cli(['run', 'hi', '--config', SERVERS]);
    expect(run).toEqual({
      code: 3,
      stdout: '',
      stderr:
        'error: MCP server "broken": initialize failed: cannot start server "broken": ' +
        'command "agentwire-no-such-command" was not found on PATH\n',
    });
    expect(fake.requests).toEqual([]);
  });

  it.each([
    [
      // Without --config, --server looks in the hosts' configs: none exist under the empty home.
      ['run', 'hi', '--server', 'everything'],
      'error: no host configuration defines a server "everything"; list them with "agentwire configs", ' +
        'or give --config <file>\n',
    ],
    [
      ['run', 'hi', '--config', SERVERS, '--server', 'everything', '--server', 'everything'],
      'error: --server "everything" is given twice\n',
    ],
    [
      ['run', 'hi', '--config', SERVERS, '--env', 'TOKEN=s3cret'],
      'error: --env does not apply to --config servers: set "env" in the entry of the config file\n',
    ],
    [
      ['run', 'hi', '--config', SERVERS, '--cwd', '/tmp'],
      'error: --cwd does not apply to --config servers: set "cwd" in the entry of the config file\n',
    ],
    [
      ['run', 'hi', '--config', SERVERS, '--header', 'Authorization: Bearer s3cret'],
      'error: --header does not apply to --config servers: set "headers" in the entry of the config file\n',
    ],
    [
      ['run', 'hi', '--config', SERVERS, '--server', 'nope'],
      `error: config ${SERVERS}: has no server named "nope" (servers: "everything", "broken")\n`,
    ],
    [
      ['run', 'hi', '--config', path.join(CONFIGS, 'cli-disabled.json')],
      `error: config ${path.join(CONFIGS, 'cli-disabled.json')}: has no enabled server (disabled: "retired")\n`,
    ],
  ])('exits 2 for %j before starting anything', async (argv, stderr) => {
    expect(await cli(argv)).toEqual({ code: 2, stdout: '', stderr });
    expect(fake.requests).toEqual([]);
  });

  it('gives --env to the --stdio server only, not to the --config one beside it', async () => {
    fake.script(
      { toolCalls: [{ id: 'toolu_1', name: 'server-everything__get-env', input: {} }] },
      { toolCalls: [{ id: 'toolu_2', name: 'everything__get-env', input: {} }] },
      { text: 'Done.' },
    );
    const run = await cli([
      'run',
      'Show the environments.',
      '--config',
      ONE,
      '--stdio',
      EVERYTHING,
      '--env',
      'AGENTWIRE_MARK=from-flag',
    ]);
    expect(run.code).toBe(0);
    // What the model got back (the terminal line is shortened): each server's environment as JSON.
    const lastResult = (request: number) => {
      const messages = fake.requests[request]?.messages as { content: { content?: string }[] }[];
      return JSON.parse(messages.at(-1)?.content[0]?.content ?? '') as Record<string, string>;
    };
    expect(lastResult(1).AGENTWIRE_MARK).toBe('from-flag');
    expect(lastResult(2).AGENTWIRE_MARK).toBeUndefined();
  });
});
