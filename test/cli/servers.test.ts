import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { type EverythingServer, startEverything } from '../fixtures/http-everything.js';
import { children, waitUntil } from '../helpers.js';
import { cli } from './run-cli.js';

const CONFIGS = path.resolve('test/fixtures/configs');
const SERVERS = path.join(CONFIGS, 'cli-servers.json');
const EVERYTHING_MARKER = 'server-everything/dist/index.js';
/** cli-silent.json's server: a process that never answers `initialize`. */
const SILENT_MARKER = 'agentwire-silent-server';

const NOT_FOUND =
  'MCP server "broken": initialize failed: cannot start server "broken": ' +
  'command "agentwire-no-such-command" was not found on PATH';

describe('agentwire servers --config', () => {
  afterEach(() => {
    // Every command disconnects before it returns: no server may outlive it.
    expect(children(EVERYTHING_MARKER)).toEqual([]);
    expect(children(SILENT_MARKER)).toEqual([]);
  });

  it('lists a connected, a failed and a disabled server, and exits 3 because one failed', async () => {
    const run = await cli(['servers', '--config', SERVERS]);
    expect(run).toEqual({
      code: 3,
      stdout: [
        'everything  stdio  connected  7 of 13 tools',
        `broken      stdio  failed     ${NOT_FOUND}`,
        'retired     -      disabled',
        '',
      ].join('\n'),
      stderr: 'error: 1 of 2 enabled servers failed to connect\n',
    });
  });

  it('prints the same rows as JSON with --json', async () => {
    const run = await cli(['servers', '--config', SERVERS, '--json']);
    expect(run.code).toBe(3);
    expect(run.stderr).toBe('error: 1 of 2 enabled servers failed to connect\n');
    expect(JSON.parse(run.stdout)).toEqual({
      config: SERVERS,
      servers: [
        {
          name: 'everything',
          transport: 'stdio',
          state: 'connected',
          toolCount: 7,
          totalToolCount: 13,
          filtered: true,
        },
        { name: 'broken', transport: 'stdio', state: 'failed', error: { kind: 'spawn', message: NOT_FOUND } },
        { name: 'retired', state: 'disabled' },
      ],
    });
    expect(run.stdout).toBe(`${JSON.stringify(JSON.parse(run.stdout), null, 2)}\n`);
  });

  it('exits 0 when every enabled server connects, counting an unfiltered server by its total alone', async () => {
    const run = await cli(['servers', '--config', path.join(CONFIGS, 'cli-one.json')]);
    expect(run).toEqual({
      code: 0,
      stdout: 'everything  stdio  connected  13 tools\nretired     -      disabled\n',
      stderr: '',
    });
  });

  it('exits 0 with only the disabled rows when nothing is enabled', async () => {
    const run = await cli(['servers', '--config', path.join(CONFIGS, 'cli-disabled.json'), '--json']);
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout)).toEqual({
      config: path.join(CONFIGS, 'cli-disabled.json'),
      servers: [{ name: 'retired', state: 'disabled' }],
    });
  });

  it('reports the server that does not answer in time as failed, without waiting for it', async () => {
    const started = Date.now();
    const run = await cli(['servers', '--config', SERVERS, '--timeout', '1', '--json']);
    expect(run.code).toBe(3);
    const rows = JSON.parse(run.stdout).servers as {
      name: string;
      state: string;
      error?: { kind: string };
    }[];
    expect(rows.map((row) => [row.name, row.state, row.error?.kind])).toEqual([
      ['everything', 'failed', 'timeout'],
      ['broken', 'failed', 'spawn'],
      ['retired', 'disabled', undefined],
    ]);
    expect(run.stderr).toBe('error: 2 of 2 enabled servers failed to connect\n');
    expect(Date.now() - started).toBeLessThan(10_000);
  });

  it.each([
    [['servers'], "error: required option '--config <file>' not specified\n(add --help for usage)\n"],
    [
      ['servers', '--config', path.join(CONFIGS, 'missing.json')],
      `error: config ${path.join(CONFIGS, 'missing.json')}: cannot be read (ENOENT)\n`,
    ],
  ])('exits 2 for %j with the one-line reason', async (argv, stderr) => {
    expect(await cli(argv)).toEqual({ code: 2, stdout: '', stderr });
  });

  it('lists a malformed entry as a failed row with its config error, and exits 3', async () => {
    const file = path.join(CONFIGS, 'cli-bad-entry.json');
    expect(await cli(['servers', '--config', file])).toEqual({
      code: 3,
      stdout: `remote  -  failed  config ${file}: server "remote": "url" must be a string\n`,
      stderr: 'error: 1 of 1 enabled servers failed (1 invalid entry)\n',
    });
  });

  it('names the unset variable, never a value, and starts nothing', async () => {
    const file = path.join(CONFIGS, 'cli-unset-variable.json');
    expect(await cli(['servers', '--config', file])).toEqual({
      code: 3,
      stdout:
        `github  -  failed  config ${file}: server "github": "headers.Authorization" uses ` +
        // biome-ignore lint/suspicious/noTemplateCurlyInString: the config's reference, not a JS placeholder.
        '${AGENTWIRE_TEST_UNSET_TOKEN}, which is not set in the environment\n',
      stderr: 'error: 1 of 1 enabled servers failed (1 invalid entry)\n',
    });
  });

  it('exits 130 without connecting when interrupted before it starts', async () => {
    const interrupt = new AbortController();
    interrupt.abort(new Error('interrupted by SIGINT'));
    const run = await cli(['servers', '--config', SERVERS], interrupt.signal);
    expect(run).toEqual({ code: 130, stdout: '', stderr: 'error: interrupted before connecting\n' });
  });

  it('stops a server that never answers when interrupted while connecting, and exits 130', async () => {
    const interrupt = new AbortController();
    const running = cli(['servers', '--config', path.join(CONFIGS, 'cli-silent.json')], interrupt.signal);
    // Interrupted once the server is spawned: it never answers `initialize`, so the command is connecting.
    try {
      await waitUntil(() => children(SILENT_MARKER).length === 1, 20_000, 'the silent server to start');
    } finally {
      interrupt.abort(new Error('interrupted by SIGINT'));
    }
    const run = await running;
    expect(run).toEqual({ code: 130, stdout: '', stderr: 'error: interrupted while connecting\n' });
  });
});

describe('agentwire servers --config with remote servers', () => {
  let http: EverythingServer;
  beforeAll(async () => {
    http = await startEverything('streamableHttp');
  });
  afterAll(async () => {
    await http.stop();
  });
  afterEach(() => {
    vi.unstubAllEnvs();
    // The HTTP server started for this block is the only server-everything left.
    expect(children(EVERYTHING_MARKER)).toEqual([http.pid]);
  });

  it('connects an http entry whose URL and header come from the environment, and never prints the token', async () => {
    vi.stubEnv('AGENTWIRE_TEST_MCP_URL', http.url);
    vi.stubEnv('AGENTWIRE_TEST_TOKEN', 'tok-s3cret-value');
    const run = await cli(['servers', '--config', path.join(CONFIGS, 'cli-http.json'), '--json']);
    expect(run.code).toBe(3);
    expect(run.stderr).toBe('error: 1 of 2 enabled servers failed to connect\n');
    const rows = JSON.parse(run.stdout).servers as Record<string, unknown>[];
    expect(rows[0]).toEqual({
      name: 'remote',
      transport: 'http',
      state: 'connected',
      toolCount: 11,
      totalToolCount: 13,
      filtered: true,
    });
    expect(rows[1]).toMatchObject({ name: 'legacy', transport: 'sse', state: 'failed' });
    expect(run.stdout + run.stderr).not.toContain('tok-s3cret-value');
  });
});
