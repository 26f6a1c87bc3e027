/**
 * The rough edges of the command line, through the built executable: a closed pipe, the help, the
 * model's base URL, the one-line explanations of common mistakes, `--cwd`, a dead server's stderr once.
 */

import { writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../fixtures/http-everything.js';
import { tempDir } from '../helpers.js';
import { ensureBuilt, plainEnv, runBuilt, startCli } from './built-cli.js';
import { EVERYTHING } from './run-cli.js';

beforeAll(ensureBuilt, 120_000);

describe('a reader that goes away', () => {
  it('ends quietly with exit 0 when stdout is closed early (| head)', async () => {
    const cli = startCli(['call', '--stdio', EVERYTHING, 'echo', '-'], {
      input: JSON.stringify({ message: 'x\n'.repeat(3_000_000) }),
    });
    // `head -c 10`: read a little, then close the pipe.
    await new Promise<void>((resolve) => cli.child.stdout?.once('data', () => resolve()));
    cli.child.stdout?.destroy();
    expect(await cli.exited).toBe(0);
    expect(cli.stderr()).toBe('');
  }, 60_000);
});

describe('agentwire --help', () => {
  it('ends with the exit codes, the model variables and examples', async () => {
    const run = await runBuilt(['--help']);
    expect(run.code).toBe(0);
    expect(run.stdout.slice(run.stdout.indexOf('\nExit codes:'))).toBe(
      [
        '',
        'Exit codes:',
        '  0    ok',
        '  1    the tool reported an error (isError), or run gave up after --max-turns',
        '  2    the command line is wrong (usage), or no model is configured for run',
        '  3    a server could not be reached, or a request to it failed or timed out',
        '  130  interrupted (Ctrl-C, SIGTERM, SIGHUP)',
        '',
        'Model of run (environment; keys are never taken on the command line):',
        '  ANTHROPIC_API_KEY, ANTHROPIC_BASE_URL',
        '      use Anthropic',
        '  OPENAI_API_KEY, OPENAI_BASE_URL',
        '      use OpenAI or a compatible server (a base URL alone will do)',
        '  AGENTWIRE_MODEL',
        '      anthropic:<model-id>, openai:<model-id>, or a bare <model-id>',
        '',
        'Colour: on a terminal only; NO_COLOR=1 turns it off, FORCE_COLOR=1 turns it on',
        'when piped.',
        '',
        'Examples:',
        '  agentwire tools --stdio "npx -y @modelcontextprotocol/server-everything"',
        '  agentwire call --stdio "npx -y @modelcontextprotocol/server-everything" \\',
        '    get-sum a=2 b=40',
        `  echo '{"message":"hi"}' |`,
        '    agentwire call --url http://localhost:3001/mcp echo -',
        '  agentwire resources read --config ~/mcp.json --server files file:///etc/hosts',
        '  agentwire run --config ~/mcp.json "What changed in the repo today?"',
        '',
      ].join('\n'),
    );
  });

  it.each([['run'], ['call'], ['tools'], ['resources', 'read'], ['complete']])(
    'agentwire %s --help shows no "(default: [])"',
    async (...command) => {
      const run = await runBuilt([...command, '--help']);
      expect(run.code).toBe(0);
      expect(run.stdout).toContain('--env <KEY=VALUE>');
      expect(run.stdout).not.toContain('default: []');
    },
  );
});

describe("run's model base URL", () => {
  const openai = (baseUrl: string) =>
    plainEnv({
      OPENAI_BASE_URL: baseUrl,
      OPENAI_API_KEY: 'sk-test',
      ANTHROPIC_API_KEY: '',
      AGENTWIRE_MODEL: '',
    });

  it('refuses a malformed one as a usage error, before any server starts', async () => {
    const run = await runBuilt(['run', 'hi', '--stdio', 'agentwire-no-such-command'], {
      env: openai('127.0.0.1:9/v1'),
    });
    expect(run).toEqual({
      code: 2,
      stdout: '',
      stderr: 'error: OPENAI_BASE_URL is not an absolute http(s) URL (e.g. http://localhost:11434/v1)\n',
    });
  });

  it('names the URL that refused the connection, and warns of a run without tools', async () => {
    const url = `http://127.0.0.1:${await freePort()}/v1`;
    const run = await runBuilt(['run', 'hi'], { env: openai(url) });
    expect(run).toEqual({
      code: 3,
      stdout: '',
      stderr:
        'warning: the model has no tools: add servers (--stdio, --url, --config) or --tools default\n' +
        `error: openai request failed: Connection error. (model URL ${url})\n`,
    });
  }, 60_000);
});

describe('one-line explanations', () => {
  let web: Server;
  let port: number;
  beforeAll(async () => {
    web = createServer((_request, response) => {
      response.writeHead(404, { 'content-type': 'text/html' });
      response.end(
        '<!DOCTYPE html>\n<html><head><title>404 Not Found</title></head>\n<body>Not Found</body></html>\n',
      );
    });
    await new Promise<void>((resolve) => web.listen(0, '127.0.0.1', resolve));
    port = (web.address() as AddressInfo).port;
  });
  afterAll(() => new Promise<void>((resolve) => web.close(() => resolve())));

  it('an HTML error page where the MCP endpoint should be', async () => {
    expect(await runBuilt(['tools', '--url', `http://127.0.0.1:${port}/`])).toEqual({
      code: 3,
      stdout: '',
      stderr:
        `error: MCP server "127.0.0.1:${port}": initialize failed: the server answered HTTP 404 with an HTML ` +
        'page, not MCP: is the URL its MCP endpoint (often …/mcp)?\n',
    });
  });

  it('https to a plain-HTTP port', async () => {
    expect(await runBuilt(['tools', '--url', `https://127.0.0.1:${port}/mcp`])).toEqual({
      code: 3,
      stdout: '',
      stderr:
        `error: MCP server "127.0.0.1:${port}": server/discover failed: the server does not speak TLS on ` +
        'that port: is it a plain http:// server?\n',
    });
  });

  it('a URL without its scheme (exit 2)', async () => {
    expect(await runBuilt(['tools', '--url', 'localhost:3001/mcp'])).toEqual({
      code: 2,
      stdout: '',
      stderr: 'error: --url has no scheme: write http://… or https://… (e.g. http://localhost:3001/mcp)\n',
    });
  });

  it("a whole command line in a config entry's command", async () => {
    const dir = tempDir();
    try {
      const file = path.join(dir.dir, 'mcp.json');
      const command = 'agentwire-no-such-command -y some-server';
      writeFileSync(file, JSON.stringify({ mcpServers: { files: { command } } }));
      const run = await runBuilt(['tools', '--config', file]);
      expect(run.code).toBe(3);
      expect(run.stderr).toBe(
        'error: MCP server "files": initialize failed: cannot start server "files": command ' +
          `"${command}" was not found on PATH\n` +
          'hint: "command" holds a whole command line: put "agentwire-no-such-command" in "command" and ' +
          '["-y","some-server"] in "args"\n',
      );
    } finally {
      dir.remove();
    }
  });
});

describe('servers started wrongly', () => {
  it('refuses a --cwd that does not exist as a usage error (exit 2)', async () => {
    expect(await runBuilt(['tools', '--stdio', EVERYTHING, '--cwd', '/agentwire/no/such/dir'])).toEqual({
      code: 2,
      stdout: '',
      stderr: 'error: --cwd: "/agentwire/no/such/dir" is not a directory\n',
    });
  });

  it("quotes a dead server's stderr once", async () => {
    const script = path.resolve('test/cli/fixtures/exit-with-stderr.mjs');
    expect(await runBuilt(['tools', '--stdio', `${process.execPath} ${script}`])).toEqual({
      code: 3,
      stdout: '',
      stderr:
        'error: MCP server "exit-with-stderr": initialize failed: server "exit-with-stderr" exited with code 4; ' +
        'last stderr: starting up | fatal: MY_API_KEY is not set\n',
    });
  });
});
