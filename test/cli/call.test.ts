import { existsSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { EVERYTHING as EVERYTHING_SCRIPT, ROOT, waitUntil } from '../helpers.js';
import { cli, EVERYTHING, serverCommand } from './run-cli.js';

const TEE_STDIO = path.join(ROOT, 'test', 'fixtures', 'tee-stdio.mjs');

describe('agentwire call against server-everything over stdio', () => {
  it('prints the echo text verbatim and exits 0', async () => {
    expect(await cli(['call', '--stdio', EVERYTHING, 'echo', '{"message":"hello, world"}'])).toEqual({
      code: 0,
      stdout: 'Echo: hello, world\n',
      stderr: '',
    });
  });

  it('prints the sum from get-sum', async () => {
    const run = await cli(['call', 'get-sum', '{"a":2,"b":40}', '--stdio', EVERYTHING]);
    expect(run).toEqual({ code: 0, stdout: 'The sum of 2 and 40 is 42.\n', stderr: '' });
  });

  it('renders the tiny image as a placeholder with its mime type and decoded size', async () => {
    const run = await cli(['call', '--stdio', EVERYTHING, 'get-tiny-image']);
    expect(run.code).toBe(0);
    expect(run.stdout).toBe(
      "Here's the image you requested:\n[image content: image/png, 3.9 KB]\nThe image above is the MCP logo.\n",
    );
  });

  it('prints the raw CallToolResult with --json, structuredContent included', async () => {
    const run = await cli([
      'call',
      '--json',
      '--stdio',
      EVERYTHING,
      'get-structured-content',
      '{"location":"Chicago"}',
    ]);
    expect(run.code).toBe(0);
    const weather = { temperature: 36, conditions: 'Light rain / drizzle', humidity: 82 };
    expect(JSON.parse(run.stdout)).toEqual({
      content: [{ type: 'text', text: JSON.stringify(weather) }],
      structuredContent: weather,
    });
    expect(run.stdout).toBe(`${JSON.stringify(JSON.parse(run.stdout), null, 2)}\n`);
  });

  it('refuses a JSON argument of the wrong type before the server sees it (exit 2), as b=two is', async () => {
    const run = await cli(['call', '--stdio', EVERYTHING, 'get-sum', '{"a":1,"b":"two"}']);
    expect(run).toEqual({
      code: 2,
      stdout: '',
      stderr: 'error: argument "b" of tool "get-sum" expects a number, got "two"\n',
    });
  });

  it('exits 2 naming the available tools when the tool does not exist', async () => {
    const run = await cli(['call', '--stdio', EVERYTHING, 'no-such-tool']);
    expect(run.code).toBe(2);
    expect(run.stderr).toBe(
      'error: server "server-everything" has no tool "no-such-tool" (available: echo, get-annotated-message, ' +
        'get-env, get-resource-links, get-resource-reference, get-structured-content, get-sum, get-tiny-image, ' +
        'gzip-file-as-resource, toggle-simulated-logging, toggle-subscriber-updates, ' +
        'trigger-long-running-operation, simulate-research-query)\n',
    );
  });

  it('exits 3 naming the timeout when a call outlives --timeout', async () => {
    const args = '{"duration":10,"steps":2}';
    const run = await cli([
      'call',
      // --timeout bounds the call only; connecting has its own --connect-timeout (default 60 s).
      '--timeout',
      '3000',
      '--stdio',
      EVERYTHING,
      'trigger-long-running-operation',
      args,
    ]);
    expect(run).toEqual({
      code: 3,
      stdout: '',
      stderr:
        'error: MCP server "server-everything": tools/call "trigger-long-running-operation" failed: ' +
        'timed out after 3000 ms\n',
    });
  });

  it('exits 130 and stops the server promptly when interrupted mid-call', async () => {
    // server-everything behind tee-stdio, which logs what it is sent: the interrupt comes once the
    // tools/call has reached the server, not after a delay a loaded machine may spend still connecting.
    const dir = mkdtempSync(path.join(tmpdir(), 'agentwire-call-'));
    onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
    const log = path.join(dir, 'sent.log');
    const config = path.join(dir, 'servers.json');
    const args = [TEE_STDIO, log, process.execPath, path.resolve(EVERYTHING_SCRIPT)];
    writeFileSync(
      config,
      JSON.stringify({ mcpServers: { 'server-everything': { command: process.execPath, args } } }),
    );
    const interrupt = new AbortController();
    const started = Date.now();
    const running = cli(
      ['call', '--config', config, 'trigger-long-running-operation', '{"duration":20,"steps":2}'],
      interrupt.signal,
    );
    try {
      await waitUntil(
        // Raw chunks as they came (a line may be cut short): look for the method, not for whole messages.
        () => existsSync(log) && readFileSync(log, 'utf8').includes('"method":"tools/call"'),
        20_000,
        'the tools/call to reach the server',
      );
    } finally {
      interrupt.abort(new Error('interrupted by SIGINT'));
    }
    const run = await running;
    expect(run.code).toBe(130);
    expect(run.stderr).toBe(
      'error: MCP server "server-everything": tools/call "trigger-long-running-operation" failed: ' +
        'aborted (interrupted by SIGINT)\n',
    );
    expect(Date.now() - started).toBeLessThan(10_000);
  });
});

describe('agentwire call usage errors (exit 2, nothing started)', () => {
  it.each([
    [
      ['call', '--stdio', 'node s.js', 'echo', '{message:1}'],
      // Node's own JSON.parse wording follows, which changes between Node versions.
      expect.stringMatching(
        /^error: the tool arguments are not valid JSON: Expected property name or '\}' in JSON at position 1\b.*\n$/,
      ),
    ],
    [
      ['call', '--stdio', 'node s.js', 'echo', '[1,2]'],
      'error: the tool arguments must be a JSON object such as \'{"message":"hi"}\', got an array\n',
    ],
    [
      ['call', 'echo'],
      'error: name a server with --stdio "<command line>", --url <url> or --config <file>\n',
    ],
    [
      ['call', '--stdio', 'node s.js', '--url', 'http://localhost/mcp', 'echo'],
      'error: give either --stdio or --url, not both\n',
    ],
    [
      ['call', '--stdio', 'node s.js | tee log', 'echo'],
      'error: --stdio: shell operator "|" is not supported; the command runs without a shell\n',
    ],
    [
      ['call', '--url', 'localhost:3001', 'echo'],
      'error: --url has no scheme: write http://… or https://… (e.g. http://localhost:3001/mcp)\n',
    ],
    [
      ['call', '--url', 'http://localhost/mcp', '--env', 'A=1', 'echo'],
      'error: --env applies to --stdio servers only\n',
    ],
    [
      ['call', '--stdio', 'node s.js', '--header', 'X-Key: 1', 'echo'],
      'error: --header applies to --url servers only\n',
    ],
    [
      ['call', '--stdio', 'node s.js', '--timeout', 'soon', 'echo'],
      "error: option '--timeout <ms>' argument 'soon' is invalid. Expected a positive whole number of milliseconds.\n(add --help for usage)\n",
    ],
    [['call', '--stdio', 'node s.js'], "error: missing required argument 'tool'\n(add --help for usage)\n"],
    [
      ['call', '--url', 'http://localhost/mcp', '--transport', 'ws', 'echo'],
      "error: option '--transport <mode>' argument 'ws' is invalid. Allowed choices are auto, streamable-http, sse.\n(add --help for usage)\n",
    ],
    [['frobnicate'], "error: unknown command 'frobnicate'\n(add --help for usage)\n"],
  ])('%j', async (argv, stderr) => {
    expect(await cli(argv)).toEqual({ code: 2, stdout: '', stderr });
  });

  it('never echoes an --env or --header value in a usage error', async () => {
    const env = await cli(['call', '--stdio', 'node s.js', '--env', 'hunter2-secret', 'echo']);
    const header = await cli([
      'call',
      '--url',
      'http://localhost/mcp',
      '--header',
      'Bearer hunter2-secret',
      'echo',
    ]);
    expect([env.code, env.stderr]).toEqual([2, 'error: --env expects KEY=VALUE with a non-empty KEY\n']);
    expect([header.code, header.stderr]).toEqual([2, 'error: --header expects "Name: value"\n']);
  });
});

describe('agentwire call connection failures (exit 3)', () => {
  it('names a command that is not on PATH', async () => {
    expect(await cli(['call', '--stdio', 'no-such-command-xyz --flag', 'echo'])).toEqual({
      code: 3,
      stdout: '',
      stderr:
        'error: MCP server "no-such-command-xyz": initialize failed: cannot start server "no-such-command-xyz": ' +
        'command "no-such-command-xyz" was not found on PATH\n',
    });
  });

  it("quotes the server's stderr once when it dies during the handshake, but never an --env value", async () => {
    const script = path.resolve('test/cli/fixtures/exit-with-stderr.mjs');
    const stdio = `'${process.execPath}' '${script}'`;
    const run = await cli(['call', '--stdio', stdio, '--env', 'MY_API_KEY=hunter2-secret', 'echo']);
    expect(run).toEqual({
      code: 3,
      stdout: '',
      stderr:
        'error: MCP server "exit-with-stderr": initialize failed: server "exit-with-stderr" exited with code 4; ' +
        'last stderr: starting up | fatal: MY_API_KEY is not set\n',
    });
  });

  it('names an HTTP server that refuses the connection, without the header value', async () => {
    const run = await cli([
      'call',
      '--url',
      'http://127.0.0.1:9/mcp',
      '--header',
      'Authorization: Bearer hunter2',
      'echo',
    ]);
    expect(run.code).toBe(3);
    expect(run.stdout).toBe('');
    // The first request of a connect in 'auto' is the server/discover probe (MCP spec 2026-07-28, "Server > Discover").
    expect(run.stderr).toMatch(/^error: MCP server "127\.0\.0\.1:9": server\/discover failed: .+\n$/);
    expect(run.stderr).not.toContain('hunter2');
  });
});

describe('agentwire call against server-filesystem over stdio', () => {
  let folder: string;
  beforeAll(() => {
    // The server resolves symlinks (macOS /tmp), so the test speaks in real paths too.
    folder = realpathSync(mkdtempSync(path.join(tmpdir(), 'agentwire-cli-')));
    writeFileSync(path.join(folder, 'note.txt'), 'first line\nsecond line\n');
  });
  afterAll(() => rmSync(folder, { recursive: true, force: true }));

  it('prints the text of a file the test wrote', async () => {
    const args = JSON.stringify({ path: path.join(folder, 'note.txt') });
    const run = await cli(['call', '--stdio', serverCommand('filesystem', folder), 'read_text_file', args]);
    expect(run).toEqual({ code: 0, stdout: 'first line\nsecond line\n', stderr: '' });
  });

  it("exits 1 with the server's message when the file is missing", async () => {
    const missing = path.join(folder, 'missing.txt');
    const args = JSON.stringify({ path: missing });
    const run = await cli(['call', '--stdio', serverCommand('filesystem', folder), 'read_text_file', args]);
    expect(run).toEqual({
      code: 1,
      stdout: '',
      stderr: `error: tool "read_text_file" reported an error: ENOENT: no such file or directory, open '${missing}'\n`,
    });
  });
});
