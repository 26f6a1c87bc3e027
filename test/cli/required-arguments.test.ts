/**
 * One rule for required arguments in `agentwire call` and `agentwire run`: a required property left out is
 * refused before the server sees the call, unless its schema has a `default` (the server applies it, as
 * Playwright's `browser_take_screenshot` does for `scale`). A scripted server with such a tool logs what
 * it receives.
 */
import path from 'node:path';
import { quote } from 'shell-quote';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { startFakeAnthropic } from '../fixtures/fake-anthropic.js';
import { useFakeModelServer } from '../fixtures/use-fake-model-server.js';
import { readLog, SCRIPTED, tempDir } from '../helpers.js';
import { cli } from './run-cli.js';

const TOOLS = JSON.stringify([
  {
    name: 'echo',
    description: 'Echoes text',
    inputSchema: {
      type: 'object',
      properties: {
        text: { type: 'string' },
        scale: { type: 'string', enum: ['css', 'device'], default: 'css' },
      },
      required: ['text', 'scale'],
    },
  },
]);
const SERVER = quote([process.execPath, SCRIPTED]);

let dir: ReturnType<typeof tempDir>;
let log: string;
beforeEach(() => {
  dir = tempDir();
  log = path.join(dir.dir, 'log.jsonl');
});
afterEach(() => {
  dir.remove();
  vi.unstubAllEnvs();
});

const server = () => ['--stdio', SERVER, '--env', `FIXTURE_TOOLS=${TOOLS}`, '--env', `FIXTURE_LOG=${log}`];
const callsReceived = () =>
  readLog(log)
    .filter((message) => message.method === 'tools/call')
    .map((message) => message.params?.arguments);

describe('required arguments in agentwire call', () => {
  it('sends a call that leaves out a required argument with a default', async () => {
    expect(await cli(['call', ...server(), 'echo', 'text=hi'])).toEqual({
      code: 0,
      stdout: 'echo: hi\n',
      stderr: '',
    });
    expect(callsReceived()).toEqual([{ text: 'hi' }]);
  });

  it('refuses one that leaves out a required argument without a default, before the server sees it', async () => {
    expect(await cli(['call', ...server(), 'echo', 'scale=device'])).toEqual({
      code: 2,
      stdout: '',
      stderr: 'error: tool "echo" needs the argument(s) text\n',
    });
    expect(callsReceived()).toEqual([]);
  });
});

describe('required arguments in agentwire run', () => {
  const fake = useFakeModelServer(startFakeAnthropic);
  beforeEach(() => {
    vi.stubEnv('ANTHROPIC_API_KEY', 'sk-ant-test');
    vi.stubEnv('ANTHROPIC_BASE_URL', fake.baseURL);
    vi.stubEnv('AGENTWIRE_MODEL', 'anthropic:claude-test');
    vi.stubEnv('OPENAI_API_KEY', undefined);
    vi.stubEnv('OPENAI_BASE_URL', undefined);
  });

  it('runs a model call that leaves out a required argument with a default, and refuses one without', async () => {
    fake.script(
      { toolCalls: [{ id: 'toolu_1', name: 'echo', input: { text: 'hi' } }] },
      { toolCalls: [{ id: 'toolu_2', name: 'echo', input: { scale: 'css' } }] },
      { text: 'Done.' },
    );
    const run = await cli(['run', 'Echo.', ...server(), '--yes']);
    expect({ ...run, stdout: run.stdout.replace(/\(\d+ ms\)/g, '(N ms)') }).toEqual({
      code: 0,
      stdout: [
        '▸ echo [scripted-server] {"text":"hi"}',
        '  ✓ echo (N ms) echo: hi',
        '▸ echo [scripted-server] {"scale":"css"}',
        '  ✗ echo (N ms) Invalid arguments for tool "echo": missing required argument(s): text',
        'Done.',
        '',
      ].join('\n'),
      stderr: '',
    });
    expect(callsReceived()).toEqual([{ text: 'hi' }]);
  });
});
