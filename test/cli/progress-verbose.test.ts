/**
 * Progress and detail through the built CLI: `call` of a long tool draws a progress bar on a terminal (a
 * real pseudo-terminal, tmux) and nothing extra when piped; `-v/--verbose` shows the wire on stderr
 * (methods, ids, timing, the server's stderr lines) for every command that talks to servers.
 */
import { quote } from 'shell-quote';
import { beforeAll, describe, expect, it } from 'vitest';
import { startFakeAnthropic } from '../fixtures/fake-anthropic.js';
import { needsProgram } from '../fixtures/system-programs.js';
import { useFakeModelServer } from '../fixtures/use-fake-model-server.js';
import { SCRIPTED } from '../helpers.js';
import { ensureBuilt, fakeAnthropicEnv, helpLines, plainEnv, runBuilt } from './built-cli.js';
import { EVERYTHING } from './run-cli.js';
import { runInTerminal } from './terminal.js';

const fake = useFakeModelServer(startFakeAnthropic);
const hasTmux = needsProgram('tmux', import.meta.url);
const SCRIPTED_SERVER = quote([process.execPath, SCRIPTED]);
const LONG = ['call', '--stdio', EVERYTHING, 'trigger-long-running-operation', 'duration=1', 'steps=3'];
const DONE = 'Long running operation completed. Duration: 1 seconds, Steps: 3.';

beforeAll(() => {
  ensureBuilt();
}, 120_000);

/** What -v shows of one `call … echo` of the scripted server. */
const SCRIPTED_WIRE = [
  'wire: scripted-server → #probe-1 server/discover',
  'wire: scripted-server ← #probe-1 server/discover error -32601 (N ms)',
  'wire: scripted-server → #0 initialize',
  'wire: scripted-server ← #0 initialize result (N ms)',
  'wire: scripted-server → notifications/initialized',
  'wire: scripted-server → #1 tools/list',
  'wire: scripted-server ← #1 tools/list result (N ms)',
  'wire: scripted-server → #aw-1 tools/call',
  'wire: scripted-server ← #aw-1 tools/call result (N ms)',
  '',
].join('\n');

/** Durations vary from run to run; everything else is exact. */
const timeless = (text: string) => text.replace(/\(\d+ ms\)/g, '(N ms)');

describe('progress of a long call', () => {
  it.skipIf(!hasTmux)(
    'is a bar on a terminal, redrawn in place for each report and left at its last state',
    async () => {
      const run = await runInTerminal(LONG, { NO_COLOR: '1' }, 30_000, true);
      // Each drawing of the line: the cursor back to column 1, the line, the rest of it cleared.
      const esc = String.fromCharCode(27);
      const redraw = new RegExp(`${esc}\\[1G(.*?)${esc}\\[0K`, 'g');
      const drawn = [...run.output.matchAll(redraw)].map((match) => match[1]);
      const bar = (done: number) => `${'█'.repeat(done)}${'░'.repeat(40 - done)}`;
      expect({ code: run.code, screen: run.screen, drawn: [...new Set(drawn)] }).toEqual({
        code: 0,
        screen: `${bar(40)} 3/3\n${DONE}\n`,
        drawn: [`${bar(13)} 1/3`, `${bar(27)} 2/3`, `${bar(40)} 3/3`],
      });
    },
    60_000,
  );

  it('is not drawn when piped: the result alone', async () => {
    expect(await runBuilt(LONG, { env: plainEnv() })).toEqual({ code: 0, stdout: `${DONE}\n`, stderr: '' });
  }, 60_000);
});

describe('--verbose', () => {
  it('call: every message of the connection with its id, and the time each request took', async () => {
    const run = await runBuilt(['call', '-v', '--stdio', SCRIPTED_SERVER, 'echo', 'text=hi'], {
      env: plainEnv(),
    });
    expect({ ...run, stderr: timeless(run.stderr) }).toEqual({
      code: 0,
      stdout: 'echo: hi\n',
      stderr: [
        'wire: scripted-server → #probe-1 server/discover',
        'wire: scripted-server ← #probe-1 server/discover error -32601 (N ms)',
        'wire: scripted-server → #0 initialize',
        'wire: scripted-server ← #0 initialize result (N ms)',
        'wire: scripted-server → notifications/initialized',
        'wire: scripted-server → #1 tools/list',
        'wire: scripted-server ← #1 tools/list result (N ms)',
        'wire: scripted-server → #aw-1 tools/call',
        'wire: scripted-server ← #aw-1 tools/call result (N ms)',
        '',
      ].join('\n'),
    });
  }, 60_000);

  it('works before the command too (agentwire -v call …), and is refused where no server is talked to', async () => {
    const run = await runBuilt(['-v', 'call', '--stdio', SCRIPTED_SERVER, 'echo', 'text=hi'], {
      env: plainEnv(),
    });
    expect({ ...run, stderr: timeless(run.stderr) }).toEqual({
      code: 0,
      stdout: 'echo: hi\n',
      stderr: SCRIPTED_WIRE,
    });
    expect(await runBuilt(['--verbose', 'auth', 'status'], { env: plainEnv() })).toEqual({
      code: 2,
      stdout: '',
      stderr: 'error: -v/--verbose does not apply to "auth status" (it has no wire trace)\n',
    });
  }, 60_000);

  it('shows the lines a stdio server writes to its stderr', async () => {
    const run = await runBuilt(['call', '--verbose', ...LONG.slice(1)], { env: plainEnv() });
    const lines = run.stderr.split('\n');
    expect({
      code: run.code,
      stdout: run.stdout,
      stderrLines: lines.filter((line) => line.includes(' stderr: ')),
    }).toEqual({
      code: 0,
      stdout: `${DONE}\n`,
      stderrLines: ['wire: server-everything stderr: Starting default (STDIO) server...'],
    });
  }, 60_000);

  it("run: the wire of each server beside the run's own output", async () => {
    fake.script({ toolCalls: [{ id: 'toolu_1', name: 'echo', input: { text: 'hi' } }] }, { text: 'Done.' });
    const env = fakeAnthropicEnv(fake.baseURL);
    const run = await runBuilt(['run', 'Echo.', '-v', '--yes', '--stdio', SCRIPTED_SERVER], { env });
    expect({ ...run, stdout: timeless(run.stdout), stderr: timeless(run.stderr) }).toEqual({
      code: 0,
      stdout: '▸ echo [scripted-server] {"text":"hi"}\n  ✓ echo (N ms) echo: hi\nDone.\n',
      stderr: [
        'wire: scripted-server → #probe-1 server/discover',
        'wire: scripted-server ← #probe-1 server/discover error -32601 (N ms)',
        'wire: scripted-server → #0 initialize',
        'wire: scripted-server ← #0 initialize result (N ms)',
        'wire: scripted-server → notifications/initialized',
        'wire: scripted-server → #1 tools/list',
        'wire: scripted-server ← #1 tools/list result (N ms)',
        'wire: scripted-server → #aw-1 tools/call',
        'wire: scripted-server ← #aw-1 tools/call result (N ms)',
        '',
      ].join('\n'),
    });
  }, 60_000);

  it('is in the --help of every command that talks to servers', async () => {
    const commands = ['tools', 'call', 'run', 'resources list', 'prompts get', 'complete', 'servers'];
    const lines: string[] = [];
    for (const command of commands) {
      const help = await runBuilt([...command.split(' '), '--help'], { env: plainEnv() });
      lines.push(
        ...helpLines(help.stdout)
          .filter((line) => line.includes('--verbose'))
          .map((l) => `${command}:${l.trim()}`),
      );
    }
    const shown = '-v, --verbose show the wire on stderr: methods, ids, timing';
    expect(lines.map((line) => line.replace(/\s+/g, ' '))).toEqual(
      commands.map((command) => `${command}:${shown}`),
    );
  }, 60_000);
});
