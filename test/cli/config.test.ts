import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parse as parseShell } from 'shell-quote';
import { afterAll, afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { children, tempDir } from '../helpers.js';
import { cli, EVERYTHING } from './run-cli.js';

const CONFIGS = path.resolve('test/fixtures/configs');
const SERVERS = path.join(CONFIGS, 'cli-servers.json');
const ONE = path.join(CONFIGS, 'cli-one.json');
const EVERYTHING_MARKER = 'server-everything/dist/index.js';

/** The tools cli-servers.json lets through of server-everything's 13 (`echo`, `get-*` but `get-tiny-image`). */
const ALLOWED = [
  'echo',
  'get-annotated-message',
  'get-env',
  'get-resource-links',
  'get-resource-reference',
  'get-structured-content',
  'get-sum',
];

afterEach(() => {
  expect(children(EVERYTHING_MARKER)).toEqual([]);
});

describe('agentwire call and tools with --config', () => {
  it('calls a tool of the entry named by --server (server-everything over stdio)', async () => {
    const run = await cli([
      'call',
      '--config',
      SERVERS,
      '--server',
      'everything',
      'get-sum',
      '{"a":2,"b":40}',
    ]);
    expect(run).toEqual({ code: 0, stdout: 'The sum of 2 and 40 is 42.\n', stderr: '' });
  });

  it('takes the only enabled server when --server is left out (VS Code format, workspaceFolder)', async () => {
    const run = await cli(['call', 'echo', '{"message":"from the config"}', '--config', ONE]);
    expect(run).toEqual({ code: 0, stdout: 'Echo: from the config\n', stderr: '' });
  });

  it("lists only the tools the entry's allowTools/blockTools let through", async () => {
    const run = await cli(['tools', '--config', SERVERS, '--server', 'everything', '--json']);
    expect(run.code).toBe(0);
    expect((JSON.parse(run.stdout) as { name: string }[]).map((tool) => tool.name)).toEqual(ALLOWED);
  });

  it('lists every tool of an entry without filters', async () => {
    const run = await cli(['tools', '--config', ONE, '--json']);
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout)).toHaveLength(13);
  });

  it('refuses to call a tool the filters leave out, naming the filters and the tools there are', async () => {
    const run = await cli(['call', '--config', SERVERS, '--server', 'everything', 'get-tiny-image']);
    expect(run).toEqual({
      code: 2,
      stdout: '',
      stderr:
        'error: tool "get-tiny-image" of server "everything" is left out by its allowTools/blockTools in the ' +
        `config (available: ${ALLOWED.join(', ')})\n`,
    });
  });

  it('bounds connecting with --connect-timeout as for --stdio', async () => {
    const run = await cli(['tools', '--config', ONE, '--connect-timeout', '1']);
    expect(run).toEqual({
      code: 3,
      stdout: '',
      // What the server wrote before the timeout follows, when it got that far in 1 ms.
      stderr: expect.stringMatching(
        /^error: MCP server "everything": initialize failed: timed out after 1 ms\n(server stderr \(last lines\):\n {2}Starting default \(STDIO\) server\.\.\.\n)?$/,
      ),
    });
  });

  it('exits 3 with the spawn error of an entry whose command does not exist', async () => {
    const run = await cli(['tools', '--config', SERVERS, '--server', 'broken']);
    expect(run).toEqual({
      code: 3,
      stdout: '',
      stderr:
        'error: MCP server "broken": initialize failed: cannot start server "broken": ' +
        'command "agentwire-no-such-command" was not found on PATH\n',
    });
  });
});

describe('usage errors of --config and --server (exit 2, nothing started)', () => {
  const home = tempDir('agentwire-empty-home-');
  beforeEach(() => {
    vi.stubEnv('HOME', home.dir);
    vi.stubEnv('XDG_CONFIG_HOME', path.join(home.dir, '.config'));
    vi.stubEnv('CODEX_HOME', path.join(home.dir, '.codex'));
  });
  afterEach(() => {
    vi.unstubAllEnvs();
  });
  afterAll(() => home.remove());

  it.each([
    [
      // Without --config, --server looks in the hosts' configs: none exist under the empty home.
      ['tools', '--server', 'everything'],
      'error: no host configuration defines a server "everything"; list them with "agentwire configs", ' +
        'or give --config <file>\n',
    ],
    [
      ['tools', '--config', SERVERS, '--stdio', EVERYTHING],
      'error: give either --config or --stdio/--url, not both\n',
    ],
    [
      ['call', 'echo', '--config', SERVERS, '--url', 'http://localhost:3001/mcp'],
      'error: give either --config or --stdio/--url, not both\n',
    ],
    [
      ['tools', '--config', ONE, '--env', 'TOKEN=s3cret'],
      'error: --env does not apply to the --config server: set "env" in the entry of the config file\n',
    ],
    [
      ['tools', '--config', ONE, '--cwd', '/tmp'],
      'error: --cwd does not apply to the --config server: set "cwd" in the entry of the config file\n',
    ],
    [
      ['tools', '--config', ONE, '--header', 'Authorization: Bearer s3cret'],
      'error: --header does not apply to the --config server: set "headers" in the entry of the config file\n',
    ],
    [
      ['tools', '--config', ONE, '--transport', 'sse'],
      'error: --transport does not apply to the --config server: set "type" in the entry of the config file\n',
    ],
    [
      ['call', 'echo', '--config', SERVERS, '--server', 'everything', '--server', 'broken'],
      'error: give one --server: this command talks to a single server\n',
    ],
    [
      ['tools', '--config', SERVERS],
      `error: config ${SERVERS}: has 2 servers; pick one with --server (servers: "everything", "broken")\n`,
    ],
    [
      ['tools', '--config', SERVERS, '--server', 'nope'],
      `error: config ${SERVERS}: has no server named "nope" (servers: "everything", "broken")\n`,
    ],
    [
      ['call', 'echo', '--config', SERVERS, '--server', 'retired'],
      `error: config ${SERVERS}: server "retired" is disabled ("disabled": true)\n`,
    ],
    [
      ['tools', '--config', path.join(CONFIGS, 'cli-disabled.json')],
      `error: config ${path.join(CONFIGS, 'cli-disabled.json')}: has no enabled server (disabled: "retired")\n`,
    ],
    [
      ['tools', '--config', path.join(CONFIGS, 'missing.json')],
      `error: config ${path.join(CONFIGS, 'missing.json')}: cannot be read (ENOENT)\n`,
    ],
    [
      ['call', 'echo', '--config', path.join(CONFIGS, 'array.json')],
      `error: config ${path.join(CONFIGS, 'array.json')}: must be a JSON object\n`,
    ],
    [
      ['tools', '--config', path.join(CONFIGS, 'cli-unset-variable.json')],
      `error: config ${path.join(CONFIGS, 'cli-unset-variable.json')}: server "github": ` +
        // biome-ignore lint/suspicious/noTemplateCurlyInString: the config's reference, not a JS placeholder.
        '"headers.Authorization" uses ${AGENTWIRE_TEST_UNSET_TOKEN}, which is not set in the environment\n',
    ],
  ])('%j', async (argv, stderr) => {
    expect(await cli(argv)).toEqual({ code: 2, stdout: '', stderr });
  });

  it('checks the tool arguments before reading the config', async () => {
    const run = await cli(['call', 'echo', '[1]', '--config', path.join(CONFIGS, 'missing.json')]);
    expect(run).toEqual({
      code: 2,
      stdout: '',
      stderr: `error: the tool arguments must be a JSON object such as '{"message":"hi"}', got an array\n`,
    });
  });
});

describe('the configuration example of docs/configuration.md', () => {
  const page = readFileSync('docs/configuration.md', 'utf8');
  const section = page.slice(page.indexOf('\n## The file\n'));
  const block = (language: string) => {
    const open = section.indexOf(`\n\`\`\`${language}\n`) + language.length + 5;
    return section.slice(open, section.indexOf('\n```\n', open) + 1);
  };

  it('shows examples/mcp.json verbatim', () => {
    expect(block('json')).toBe(readFileSync('examples/mcp.json', 'utf8'));
  });

  it('prints what the page shows, for its command lines verbatim', async () => {
    const lines = block('sh').trimEnd().split('\n');
    expect(lines).toHaveLength(2);
    let stdout = '';
    for (const line of lines) {
      const words = parseShell(line).filter((word) => typeof word === 'string');
      expect(words[0]).toBe('agentwire');
      const run = await cli(words.slice(1));
      expect(run).toMatchObject({ code: 0, stderr: '' });
      stdout += run.stdout;
    }
    expect(stdout).toBe(block('text'));
  });
});
