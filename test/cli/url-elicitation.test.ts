/**
 * URL-mode elicitation in the CLI: on a terminal the user is shown the URL and asked (a real pseudo-terminal,
 * through util-linux `script`); without one the call fails with an error naming the server and the URL.
 */
import { execFileSync, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { quote } from 'shell-quote';
import { beforeAll, describe, expect, it } from 'vitest';
import { needsProgram } from '../fixtures/system-programs.js';
import { ROOT, readLog, tempDir, waitUntil } from '../helpers.js';
import { runBuilt } from './built-cli.js';
import { cli } from './run-cli.js';

const MAIN = path.join(ROOT, 'dist', 'cli', 'main.js');
const FIXTURE = path.join(ROOT, 'test', 'fixtures', 'url-elicitation-server.mjs');
const SERVER = quote([process.execPath, FIXTURE]);
const FIXTURE_2026 = path.join(ROOT, 'test', 'fixtures', 'era2026', 'stdio-server.mjs');

/** The `clientCapabilities` a message sent: `initialize`'s (2025), else its `_meta` envelope's (2026-07-28). */
const capabilitiesOf = (message: { params?: Record<string, unknown> }) =>
  message.params?.capabilities ??
  (message.params?._meta as Record<string, unknown> | undefined)?.[
    'io.modelcontextprotocol/clientCapabilities'
  ];

beforeAll(() => {
  // `npm test` builds before the suite; a bare `vitest run` may not have.
  if (!existsSync(MAIN)) execFileSync('npx', ['tsc', '-p', 'tsconfig.build.json'], { cwd: ROOT });
}, 120_000);

const hasScript = needsProgram('script', import.meta.url);

const QUESTION =
  'MCP server "url-elicitation-server" asks you to open a URL:\r\n' +
  '  Connect your github account.\r\n' +
  '  https://auth.example.test/connect/github (host auth.example.test)\r\n' +
  'Open it in your browser and finish there, then continue? [y/N] ';

/** Runs `agentwire call … connect` under a pseudo-terminal, answering `answer` once asked. */
async function callOnTerminal(answer: string): Promise<{ code: number | null; output: string }> {
  const command = quote([
    process.execPath,
    MAIN,
    'call',
    '--stdio',
    SERVER,
    'connect',
    '{"account":"github"}',
  ]);
  const child = spawn('script', ['-qfec', command, '/dev/null'], {
    stdio: ['pipe', 'pipe', 'pipe'],
    env: { ...process.env, TERM: 'dumb' },
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  const exited = new Promise<number | null>((resolve) => child.on('close', resolve));
  try {
    await waitUntil(() => output.includes('[y/N] '), 20_000, 'the consent question');
    child.stdin.write(`${answer}\r`);
    return { code: await exited, output };
  } finally {
    child.stdin.end();
    if (child.exitCode === null) child.kill('SIGKILL');
  }
}

describe('agentwire call with a server that needs URL elicitation', () => {
  it.skipIf(!hasScript)(
    'on a terminal, shows the URL and retries the call after a yes',
    async () => {
      const { code, output } = await callOnTerminal('y');
      expect(code).toBe(0);
      // The pseudo-terminal echoes the answer and turns \n into \r\n.
      expect(output).toBe(`${QUESTION}y\r\nconnected github\r\n`);
    },
    30_000,
  );

  it.skipIf(!hasScript)(
    'on a terminal, a no ends the call with the -32042 error',
    async () => {
      const { code, output } = await callOnTerminal('n');
      expect(code).toBe(3);
      expect(output).toBe(
        `${QUESTION}n\r\n` +
          'error: MCP server "url-elicitation-server": tools/call "connect" failed: URL elicitation required ' +
          '(-32042): open https://auth.example.test/connect/github\r\n' +
          'the server needs you to open that URL: open it in a browser, then run the command again\r\n',
      );
    },
    30_000,
  );

  it('without a terminal, fails at once naming the server and the URL', async () => {
    const result = await cli(['call', '--stdio', SERVER, 'connect', '{"account":"github"}']);
    expect(result).toEqual({
      code: 3,
      stdout: '',
      stderr:
        'error: MCP server "url-elicitation-server": tools/call "connect" failed: URL elicitation required ' +
        '(-32042): open https://auth.example.test/connect/github\n' +
        'the server needs you to open that URL: open it in a browser, then run the command again\n',
    });
  });

  it('without a terminal, a 2025-era initialize declares no URL elicitation, as before', async () => {
    const temp = tempDir('agentwire-url-');
    try {
      const log = path.join(temp.dir, 'log.jsonl');
      const env = ['--env', `FIXTURE_LOG=${log}`];
      expect(await cli(['call', ...env, '--stdio', SERVER, 'echo', 'text=hi'])).toEqual({
        code: 0,
        stdout: 'echo: hi\n',
        stderr: '',
      });
      const sent = readLog(log);
      expect(sent.map((message) => [message.method, capabilitiesOf(message)])).toEqual([
        ['server/discover', {}],
        ['initialize', {}],
        ['notifications/initialized', undefined],
        ['tools/list', undefined],
        ['tools/call', undefined],
      ]);
    } finally {
      temp.remove();
    }
  });

  it('without a terminal, a 2026-07-28 URL elicitation fails at once naming the URL, never opened', async () => {
    const temp = tempDir('agentwire-url-');
    try {
      const record = path.join(temp.dir, 'stdin.jsonl');
      const server = quote([
        process.execPath,
        FIXTURE_2026,
        '--modern-only',
        '--url-elicitation',
        '--record',
        record,
      ]);
      // The built executable, stdin a pipe: no terminal.
      expect(await runBuilt(['call', '--stdio', server, 'open_url', '{"step":"checkout"}'])).toEqual({
        code: 3,
        stdout: '',
        stderr:
          'error: MCP server "stdio-server": tools/call "open_url" failed: the client\'s elicitation/create ' +
          'handler failed\n' +
          'the server asks you to open https://pay.example.test/checkout: run the command on a terminal to be ' +
          'asked for consent\n',
      });
      // Declared in the request's envelope (MCP spec 2026-07-28, "Client > Elicitation > Capabilities"); the
      // discovery probe declares what a 2025-era initialize would.
      const sent = readLog(record).filter((message) => message.method !== 'subscriptions/listen');
      expect(sent.map((message) => [message.method, capabilitiesOf(message)])).toEqual([
        ['server/discover', {}],
        ['tools/list', { elicitation: { url: {} } }],
        ['tools/call', { elicitation: { url: {} } }],
      ]);
    } finally {
      temp.remove();
    }
  });
});
