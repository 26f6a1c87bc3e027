/**
 * Colour in a terminal, through the built executable in a real pseudo-terminal (tmux): tool names and the
 * `error:` label coloured on a TTY; `NO_COLOR` turns colour off; `FORCE_COLOR` turns it on when piped;
 * piped output is plain by default.
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startFakeAnthropic } from '../fixtures/fake-anthropic.js';
import { needsProgram } from '../fixtures/system-programs.js';
import { useFakeModelServer } from '../fixtures/use-fake-model-server.js';
import { SCRIPTED, tempDir } from '../helpers.js';
import { ensureBuilt, plainEnv, runBuilt } from './built-cli.js';
import { runInTerminal } from './terminal.js';

beforeAll(ensureBuilt, 120_000);

const hasTmux = needsProgram('tmux', import.meta.url);

const BOLD_CYAN = (text: string) => `\u001b[1m\u001b[36m${text}\u001b[39m\u001b[22m`;
const BOLD_RED = (text: string) => `\u001b[1m\u001b[31m${text}\u001b[39m\u001b[22m`;
const TOOLS = JSON.stringify([
  {
    name: 'echo',
    description: 'Echoes text',
    inputSchema: { type: 'object', properties: { text: { type: 'string' } } },
  },
  { name: 'sleep', description: 'Waits', inputSchema: { type: 'object' } },
]);
const tools = ['tools', '--stdio', `${process.execPath} ${SCRIPTED}`, '--env', `FIXTURE_TOOLS=${TOOLS}`];
const listing = (name: (text: string) => string, eol: string) =>
  [
    `${name('echo')}: Echoes text`,
    '  text (string)',
    `${name('sleep')}: Waits`,
    '  (no parameters)',
    '',
  ].join(eol);
const plain = (text: string) => text;

describe('colour in a terminal', () => {
  it.skipIf(!hasTmux)('colours tool names on a TTY', async () => {
    expect(await runInTerminal(tools)).toEqual({ code: 0, output: listing(BOLD_CYAN, '\r\n') });
  });

  it.skipIf(!hasTmux)('colours the error label on a TTY', async () => {
    expect(await runInTerminal(['tools'])).toEqual({
      code: 2,
      output: `${BOLD_RED('error:')} name a server with --stdio "<command line>", --url <url> or --config <file>\r\n`,
    });
  });

  it.skipIf(!hasTmux)('is off with NO_COLOR, even with FORCE_COLOR', async () => {
    // Node 22 and later warn on their own that NO_COLOR is ignored when FORCE_COLOR is set (for Node's
    // colours, not agentwire's); NODE_NO_WARNINGS keeps that line out of what this test compares.
    const env = { NO_COLOR: '1', FORCE_COLOR: '1', NODE_NO_WARNINGS: '1' };
    expect(await runInTerminal(tools, env)).toEqual({
      code: 0,
      output: listing(plain, '\r\n'),
    });
  });

  it('is off when piped, and on with FORCE_COLOR', async () => {
    expect(await runBuilt(tools)).toEqual({ code: 0, stdout: listing(plain, '\n'), stderr: '' });
    expect(await runBuilt(tools, { env: plainEnv({ FORCE_COLOR: '1' }) })).toEqual({
      code: 0,
      stdout: listing(BOLD_CYAN, '\n'),
      stderr: '',
    });
    expect(await runBuilt(['tools'], { env: plainEnv({ FORCE_COLOR: '1' }) })).toEqual({
      code: 2,
      stdout: '',
      stderr: `${BOLD_RED('error:')} name a server with --stdio "<command line>", --url <url> or --config <file>\n`,
    });
  });
});

describe.skipIf(!hasTmux)('colour of a run in a terminal', () => {
  const fake = useFakeModelServer(startFakeAnthropic);
  let dir: ReturnType<typeof tempDir>;
  beforeEach(() => {
    dir = tempDir();
    writeFileSync(path.join(dir.dir, 'notes.txt'), 'remember the milk');
  });
  afterEach(() => dir.remove());

  it("colours each tool call's name and its ✓ / ✗", async () => {
    fake.script(
      // One call a turn: calls of one turn end in whichever order they finish.
      { toolCalls: [{ id: 'toolu_1', name: 'read_file', input: { path: 'notes.txt' } }] },
      { toolCalls: [{ id: 'toolu_2', name: 'read_file', input: { path: 'missing.txt' } }] },
      { text: 'Done.' },
    );
    const run = await runInTerminal(['run', 'Read.', '--tools', 'default', '--root', dir.dir], {
      ANTHROPIC_API_KEY: 'sk-ant-test',
      ANTHROPIC_BASE_URL: fake.baseURL,
    });
    const name = BOLD_CYAN('read_file');
    expect({ ...run, output: run.output.replace(/\(\d+ ms\)/g, '(N ms)') }).toEqual({
      code: 0,
      output: [
        `▸ ${name} [builtin] {"path":"notes.txt"}`,
        `  \u001b[32m✓\u001b[39m ${name} (N ms) remember the milk`,
        `▸ ${name} [builtin] {"path":"missing.txt"}`,
        `  \u001b[31m✗\u001b[39m ${name} (N ms) BuiltinToolError: "missing.txt" does not exist`,
        'Done.',
        '',
      ].join('\r\n'),
    });
  });
});
