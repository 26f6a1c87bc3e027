// biome-ignore-all lint/suspicious/noTemplateCurlyInString: the strings are configuration-file ${…} references.
/**
 * A config file with one good entry and two invalid ones: the good one stays usable, `servers` lists the
 * invalid ones as failed, naming an invalid entry gives its exact error, and `run` reports every failure.
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { children, tempDir } from '../helpers.js';
import { cli } from './run-cli.js';

const EVERYTHING_SCRIPT = path.resolve('node_modules/@modelcontextprotocol/server-everything/dist/index.js');
const PROVIDER_VARS = ['ANTHROPIC_API_KEY', 'ANTHROPIC_BASE_URL', 'OPENAI_API_KEY', 'OPENAI_BASE_URL'];

const temp = tempDir('agentwire-config-invalid-');
function writeConfig(name: string, servers: Record<string, unknown>): string {
  const file = path.join(temp.dir, name);
  writeFileSync(file, JSON.stringify({ mcpServers: servers }));
  return file;
}

const MIXED = writeConfig('mixed.json', {
  everything: { command: process.execPath, args: [EVERYTHING_SCRIPT] },
  unset: { command: 'x', env: { TOKEN: '${AGENTWIRE_TEST_UNSET_TOKEN}' } },
  userinfo: { url: 'https://ann:s3cret@mcp.example.com/mcp' },
});
const UNSET_ERROR =
  `config ${MIXED}: server "unset": "env.TOKEN" uses \${AGENTWIRE_TEST_UNSET_TOKEN}, ` +
  'which is not set in the environment';
const USERINFO_ERROR =
  `config ${MIXED}: server "userinfo": "url" must not contain credentials (user:password@); ` +
  'send them in a header such as Authorization';

afterAll(() => temp.remove());
beforeEach(() => {
  vi.stubEnv('AGENTWIRE_TEST_UNSET_TOKEN', undefined);
});
afterEach(() => {
  vi.unstubAllEnvs();
  // Every command disconnects before it returns: no server may outlive it.
  expect(children(EVERYTHING_SCRIPT)).toEqual([]);
});

describe('a key agentwire does not read', () => {
  it('is named on stderr with the nearest known key, once, and the entry still connects', async () => {
    const file = writeConfig('misspelt.json', {
      everything: { command: process.execPath, args: [EVERYTHING_SCRIPT], blocktools: ['get-env'] },
    });
    const run = await cli(['servers', '--config', file]);
    expect(run).toEqual({
      code: 0,
      stdout: 'everything  stdio  connected  13 tools\n',
      stderr: `warning: config ${file}: server "everything": unknown key "blocktools" ignored (did you mean "blockTools"?)\n`,
    });
  });

  it('is named on stderr by the commands that use the entry: call, and not for an entry they leave alone', async () => {
    const file = writeConfig('misspelt-two.json', {
      everything: { command: process.execPath, args: [EVERYTHING_SCRIPT], blocktools: ['get-env'] },
      other: { command: process.execPath, args: [EVERYTHING_SCRIPT], alowTools: ['echo'] },
    });
    const run = await cli(['call', '--config', file, '--server', 'everything', 'echo', '{"message":"ok"}']);
    expect(run).toEqual({
      code: 0,
      stdout: 'Echo: ok\n',
      stderr: `warning: config ${file}: server "everything": unknown key "blocktools" ignored (did you mean "blockTools"?)\n`,
    });
  });
  it.each([['status'], ['logout']])(
    'is named on stderr by `auth %s`, for the entry it names only',
    async (subcommand) => {
      vi.stubEnv('AGENTWIRE_AUTH_FILE', path.join(temp.dir, 'oauth.json'));
      const file = writeConfig('misspelt-auth.json', {
        remote: { url: 'https://mcp.example.com/mcp', header: { 'X-Team': 'a' } },
        other: { url: 'https://other.example.com/mcp', alowTools: ['echo'] },
      });
      expect(await cli(['auth', subcommand, 'remote', '--config', file])).toEqual({
        code: 0,
        stdout: 'not logged in to https://mcp.example.com/mcp\n',
        stderr: `warning: config ${file}: server "remote": unknown key "header" ignored (did you mean "headers"?)\n`,
      });
    },
  );
});

describe('a config file with invalid entries', () => {
  it('lists the invalid entries as failed next to the good one with `servers`, and exits 3', async () => {
    const run = await cli(['servers', '--config', MIXED]);
    expect(run).toEqual({
      code: 3,
      stdout: [
        'everything  stdio  connected  13 tools',
        `unset       -      failed     ${UNSET_ERROR}`,
        `userinfo    -      failed     ${USERINFO_ERROR}`,
        '',
      ].join('\n'),
      stderr: 'error: 2 of 3 enabled servers failed (2 invalid entries)\n',
    });
    expect(run.stdout).not.toContain('s3cret');
  });

  it('gives the invalid rows kind "config" with --json', async () => {
    const run = await cli(['servers', '--config', MIXED, '--json']);
    expect(JSON.parse(run.stdout).servers.slice(1)).toEqual([
      { name: 'unset', state: 'failed', error: { kind: 'config', message: UNSET_ERROR } },
      { name: 'userinfo', state: 'failed', error: { kind: 'config', message: USERINFO_ERROR } },
    ]);
  });

  it('still calls a tool of the good entry named by --server', async () => {
    const run = await cli(['call', '--config', MIXED, '--server', 'everything', 'echo', '{"message":"ok"}']);
    expect(run).toEqual({ code: 0, stdout: 'Echo: ok\n', stderr: '' });
  });

  it.each([
    ['unset', UNSET_ERROR],
    ['userinfo', USERINFO_ERROR],
  ])('exits 2 with the exact error of the invalid entry %s when it is named', async (name, error) => {
    expect(await cli(['tools', '--config', MIXED, '--server', name])).toEqual({
      code: 2,
      stdout: '',
      stderr: `error: ${error}\n`,
    });
  });

  it('counts the invalid entries when --server is left out of a single-server command', async () => {
    expect(await cli(['tools', '--config', MIXED])).toEqual({
      code: 2,
      stdout: '',
      stderr:
        `error: config ${MIXED}: has 3 servers; pick one with --server ` +
        '(servers: "everything", "unset", "userinfo")\n',
    });
  });

  it('fails `run` without --server with every invalid entry, one line each, before starting anything', async () => {
    expect(await cli(['run', 'hi', '--config', MIXED])).toEqual({
      code: 2,
      stdout: '',
      stderr: `error: ${UNSET_ERROR}\nerror: ${USERINFO_ERROR}\n`,
    });
  });

  it('fails `run` with every invalid entry named by --server', async () => {
    const argv = ['run', 'hi', '--config', MIXED, '--server', 'userinfo', '--server', 'unset'];
    expect(await cli(argv)).toEqual({
      code: 2,
      stdout: '',
      stderr: `error: ${USERINFO_ERROR}\nerror: ${UNSET_ERROR}\n`,
    });
  });
});

describe('agentwire run --config with two servers that cannot start', () => {
  beforeEach(() => {
    for (const name of PROVIDER_VARS) vi.stubEnv(name, undefined);
    vi.stubEnv('ANTHROPIC_API_KEY', 'sk-ant-test-secret');
    // Never reached: the run fails while connecting, before the model is asked.
    vi.stubEnv('ANTHROPIC_BASE_URL', 'http://127.0.0.1:9');
    vi.stubEnv('AGENTWIRE_MODEL', 'anthropic:claude-test');
  });

  it('reports both failures, not only the first, and exits 3', async () => {
    const file = writeConfig('two-broken.json', {
      first: { command: 'agentwire-no-such-command-1' },
      second: { command: 'agentwire-no-such-command-2' },
    });
    expect(await cli(['run', 'hi', '--config', file])).toEqual({
      code: 3,
      stdout: '',
      stderr:
        'error: MCP server "first": initialize failed: cannot start server "first": ' +
        'command "agentwire-no-such-command-1" was not found on PATH\n' +
        'error: MCP server "second": initialize failed: cannot start server "second": ' +
        'command "agentwire-no-such-command-2" was not found on PATH\n',
    });
  });
});
