/**
 * `agentwire run` asks before a tool that writes or executes, through the built CLI: on a real
 * pseudo-terminal (util-linux `script`) the user answers allow once / always / no; without a terminal such a
 * call is denied with a reason the model sees and a stderr line, unless `--yes` or `--allow-tool` allows it.
 */
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { quote } from 'shell-quote';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startFakeAnthropic } from '../fixtures/fake-anthropic.js';
import { needsProgram } from '../fixtures/system-programs.js';
import { useFakeModelServer } from '../fixtures/use-fake-model-server.js';
import { waitUntil } from '../helpers.js';
import { ensureBuilt, MAIN, plainEnv, runBuilt } from './built-cli.js';
import { EVERYTHING } from './run-cli.js';

const fake = useFakeModelServer(startFakeAnthropic);
let workspace: string;

beforeAll(() => {
  ensureBuilt();
}, 120_000);
beforeEach(async () => {
  workspace = await mkdtemp(path.join(tmpdir(), 'agentwire-perms-'));
});
afterEach(async () => {
  await rm(workspace, { recursive: true, force: true });
});

/** The child's environment: the fake model, no colour, none of the test runner's provider settings. */
function env(): NodeJS.ProcessEnv {
  const {
    OPENAI_API_KEY: _openai,
    OPENAI_BASE_URL: _base,
    AGENTWIRE_MODEL: _model,
    ...rest
  } = plainEnv({
    ANTHROPIC_API_KEY: 'sk-ant-test-secret',
    ANTHROPIC_BASE_URL: fake.baseURL,
    NO_COLOR: '1',
  });
  return { ...rest, AGENTWIRE_MODEL: 'anthropic:claude-test' };
}

const QUESTION_END = '  y = yes, once; a = always, for the rest of this run; n = no [y/a/N] ';
const timeless = (text: string) => text.replace(/\(\d+ ms\)/g, '(N ms)');
const refusal = (name: string) =>
  `"${name}" may write or execute, and there is no terminal to ask for permission: ` +
  `run again with --yes or --allow-tool ${name}`;

/** The `tool_result` the model was given for `id`, from the recorded requests. */
function resultFor(id: string): unknown {
  for (const request of fake.requests) {
    for (const message of request.messages as { content: unknown }[]) {
      if (!Array.isArray(message.content)) continue;
      const found = (message.content as { tool_use_id?: string }[]).find((part) => part.tool_use_id === id);
      if (found) return found;
    }
  }
  return undefined;
}

/** Runs `agentwire <args>` on a pseudo-terminal, typing each of `answers` once its question is shown. */
async function runOnTerminal(
  args: string[],
  answers: (string | { answer: string; afterMs: number })[],
): Promise<{ code: number | null; output: string }> {
  const command = quote([process.execPath, MAIN, ...args]);
  const child = spawn('script', ['-qfec', command, '/dev/null'], {
    stdio: ['pipe', 'pipe', 'pipe'],
    env: { ...env(), TERM: 'dumb' },
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  const exited = new Promise<number | null>((resolve) => child.on('close', resolve));
  try {
    for (const [index, entry] of answers.entries()) {
      await waitUntil(() => output.split(QUESTION_END).length > index + 1, 20_000, `question ${index + 1}`);
      const { answer, afterMs } = typeof entry === 'string' ? { answer: entry, afterMs: 0 } : entry;
      if (afterMs > 0) await new Promise((resolve) => setTimeout(resolve, afterMs));
      child.stdin.write(`${answer}\r`);
    }
    return { code: await exited, output };
  } finally {
    child.stdin.end();
    if (child.exitCode === null) child.kill('SIGKILL');
  }
}

describe.skipIf(!needsProgram('script', import.meta.url))('agentwire run on a terminal', () => {
  it('asks before write_file and bash: always allows the tool for the run, once allows one call, no denies', async () => {
    fake.script(
      { toolCalls: [{ id: 'toolu_1', name: 'write_file', input: { path: 'a.txt', content: 'one' } }] },
      // One call a turn: a call allowed at once may finish while another waits for its answer.
      { toolCalls: [{ id: 'toolu_2', name: 'write_file', input: { path: 'b.txt', content: 'two' } }] },
      { toolCalls: [{ id: 'toolu_3', name: 'bash', input: { command: 'echo hi > c.txt' } }] },
      { toolCalls: [{ id: 'toolu_4', name: 'bash', input: { command: 'echo ok' } }] },
      { text: 'Done.' },
    );
    const { code, output } = await runOnTerminal(
      ['run', 'Write files.', '--tools', 'default', '--root', workspace],
      ['a', 'n', 'y'],
    );
    expect({ code, output: timeless(output) }).toEqual({
      code: 0,
      output: [
        '▸ write_file [builtin] {"path":"a.txt","content":"one"}',
        'allow write_file [builtin] {"path":"a.txt","content":"one"}?',
        `${QUESTION_END}a`,
        '  ✓ write_file (N ms) wrote 3 bytes to a.txt',
        '▸ write_file [builtin] {"path":"b.txt","content":"two"}',
        '  ✓ write_file (N ms) wrote 3 bytes to b.txt',
        '▸ bash [builtin] {"command":"echo hi > c.txt"}',
        'allow bash [builtin] {"command":"echo hi > c.txt"}?',
        `${QUESTION_END}n`,
        '  ✗ bash (N ms) Tool call "bash" was denied: the user did not allow it',
        '▸ bash [builtin] {"command":"echo ok"}',
        'allow bash [builtin] {"command":"echo ok"}?',
        `${QUESTION_END}y`,
        '  ✓ bash (N ms) ok ⏎ ',
        'Done.',
        '',
      ].join('\r\n'),
    });
    expect(readFileSync(path.join(workspace, 'a.txt'), 'utf8')).toBe('one');
    expect(readFileSync(path.join(workspace, 'b.txt'), 'utf8')).toBe('two');
    expect(existsSync(path.join(workspace, 'c.txt'))).toBe(false);
    expect(resultFor('toolu_3')).toEqual({
      type: 'tool_result',
      tool_use_id: 'toolu_3',
      content: 'Tool call "bash" was denied: the user did not allow it',
      is_error: true,
    });
  }, 60_000);

  it('holds the lines of a call allowed by --allow-tool that ends while a question is open until it is answered', async () => {
    fake.script(
      {
        toolCalls: [
          { id: 'toolu_1', name: 'bash', input: { command: 'sleep 0.3; echo slept' } },
          { id: 'toolu_2', name: 'write_file', input: { path: 'a.txt', content: 'one' } },
        ],
      },
      { text: 'Done.' },
    );
    const { code, output } = await runOnTerminal(
      ['run', 'Both.', '--tools', 'default', '--root', workspace, '--allow-tool', 'bash'],
      // Answered well after bash has ended.
      [{ answer: 'y', afterMs: 1_000 }],
    );
    expect({ code, output: timeless(output) }).toEqual({
      code: 0,
      output: [
        '▸ bash [builtin] {"command":"sleep 0.3; echo slept"}',
        '▸ write_file [builtin] {"path":"a.txt","content":"one"}',
        'allow write_file [builtin] {"path":"a.txt","content":"one"}?',
        `${QUESTION_END}y`,
        '  ✓ bash (N ms) slept ⏎ ',
        '  ✓ write_file (N ms) wrote 3 bytes to a.txt',
        'Done.',
        '',
      ].join('\r\n'),
    });
  }, 60_000);
  it('asks about two calls of one turn one at a time: the second question comes after the first answer', async () => {
    fake.script(
      {
        toolCalls: [
          { id: 'toolu_1', name: 'bash', input: { command: 'sleep 0.5; echo one' } },
          { id: 'toolu_2', name: 'write_file', input: { path: 'a.txt', content: 'two' } },
        ],
      },
      { text: 'Done.' },
    );
    const { code, output } = await runOnTerminal(
      ['run', 'Both.', '--tools', 'default', '--root', workspace],
      // The second answer comes after bash has ended: its lines wait for the open question.
      ['y', { answer: 'n', afterMs: 1_500 }],
    );
    expect({ code, output: timeless(output) }).toEqual({
      code: 0,
      output: [
        '▸ bash [builtin] {"command":"sleep 0.5; echo one"}',
        '▸ write_file [builtin] {"path":"a.txt","content":"two"}',
        'allow bash [builtin] {"command":"sleep 0.5; echo one"}?',
        `${QUESTION_END}y`,
        'allow write_file [builtin] {"path":"a.txt","content":"two"}?',
        `${QUESTION_END}n`,
        '  ✓ bash (N ms) one ⏎ ',
        '  ✗ write_file (N ms) Tool call "write_file" was denied: the user did not allow it',
        'Done.',
        '',
      ].join('\r\n'),
    });
    expect(existsSync(path.join(workspace, 'a.txt'))).toBe(false);
  }, 60_000);
});

describe('agentwire run without a terminal', () => {
  it('denies write_file and an MCP tool not annotated read-only, with a reason for the model and a stderr line; read-only tools run', async () => {
    fake.script(
      { toolCalls: [{ id: 'toolu_1', name: 'echo', input: { message: 'hi' } }] },
      { toolCalls: [{ id: 'toolu_2', name: 'read_file', input: { path: 'missing.txt' } }] },
      { toolCalls: [{ id: 'toolu_3', name: 'toggle-simulated-logging', input: {} }] },
      { toolCalls: [{ id: 'toolu_4', name: 'write_file', input: { path: 'a.txt', content: 'one' } }] },
      { text: 'Not allowed.' },
    );
    const run = await runBuilt(
      ['run', 'Go.', '--stdio', EVERYTHING, '--tools', 'default', '--root', workspace],
      {
        env: env(),
      },
    );
    expect({ ...run, stdout: timeless(run.stdout) }).toEqual({
      code: 0,
      stdout: [
        '▸ echo [server-everything] {"message":"hi"}',
        '  ✓ echo (N ms) Echo: hi',
        '▸ read_file [builtin] {"path":"missing.txt"}',
        '  ✗ read_file (N ms) BuiltinToolError: "missing.txt" does not exist',
        '▸ toggle-simulated-logging [server-everything] {}',
        // The tool line is cut to the printer's width; the model and stderr get the whole reason.
        '  ✗ toggle-simulated-logging (N ms) Tool call "toggle-simulated-logging" was denied: "toggle-simulated-logging" ' +
          'may write or execute, and there is no terminal to ask for permission: run again with --yes or --allow-tool toggle-simulated-…',
        '▸ write_file [builtin] {"path":"a.txt","content":"one"}',
        `  ✗ write_file (N ms) Tool call "write_file" was denied: ${refusal('write_file')}`,
        'Not allowed.',
        '',
      ].join('\n'),
      stderr: `refused: ${refusal('toggle-simulated-logging')}\n` + `refused: ${refusal('write_file')}\n`,
    });
    expect(resultFor('toolu_4')).toEqual({
      type: 'tool_result',
      tool_use_id: 'toolu_4',
      content: `Tool call "write_file" was denied: ${refusal('write_file')}`,
      is_error: true,
    });
    expect(existsSync(path.join(workspace, 'a.txt'))).toBe(false);
  }, 60_000);

  it('runs the tools --allow-tool patterns match (repeatable) and still denies the others', async () => {
    fake.script(
      { toolCalls: [{ id: 'toolu_1', name: 'write_file', input: { path: 'a.txt', content: 'one' } }] },
      {
        toolCalls: [
          { id: 'toolu_2', name: 'edit_file', input: { path: 'a.txt', old_text: 'one', new_text: 'two' } },
        ],
      },
      { toolCalls: [{ id: 'toolu_3', name: 'bash', input: { command: 'echo hi' } }] },
      { text: 'Done.' },
    );
    const run = await runBuilt(
      [
        'run',
        'Go.',
        '--tools',
        'default',
        '--root',
        workspace,
        '--allow-tool',
        'write_*',
        '--allow-tool',
        'edit_fil?',
      ],
      { env: env() },
    );
    expect({ ...run, stdout: timeless(run.stdout) }).toEqual({
      code: 0,
      stdout: [
        '▸ write_file [builtin] {"path":"a.txt","content":"one"}',
        '  ✓ write_file (N ms) wrote 3 bytes to a.txt',
        '▸ edit_file [builtin] {"path":"a.txt","old_text":"one","new_text":"two"}',
        '  ✓ edit_file (N ms) replaced 1 occurrence in a.txt',
        '▸ bash [builtin] {"command":"echo hi"}',
        `  ✗ bash (N ms) Tool call "bash" was denied: ${refusal('bash')}`,
        'Done.',
        '',
      ].join('\n'),
      stderr: `refused: ${refusal('bash')}\n`,
    });
    expect(readFileSync(path.join(workspace, 'a.txt'), 'utf8')).toBe('two');
  }, 60_000);

  it('runs every tool with --yes', async () => {
    fake.script(
      { toolCalls: [{ id: 'toolu_1', name: 'bash', input: { command: 'echo hi' } }] },
      { text: 'Done.' },
    );
    const run = await runBuilt(['run', 'Go.', '--tools', 'default', '--root', workspace, '--yes'], {
      env: env(),
    });
    expect({ ...run, stdout: timeless(run.stdout) }).toEqual({
      code: 0,
      stdout: ['▸ bash [builtin] {"command":"echo hi"}', '  ✓ bash (N ms) hi ⏎ ', 'Done.', ''].join('\n'),
      stderr: '',
    });
  }, 60_000);
});
