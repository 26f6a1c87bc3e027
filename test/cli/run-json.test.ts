/**
 * `agentwire run --json`: the agent's events as JSON lines on stdout, through the built CLI with the fake
 * Anthropic server, one object per line in the order the agent emits them.
 */
import { quote } from 'shell-quote';
import { beforeAll, describe, expect, it } from 'vitest';
import { startFakeAnthropic } from '../fixtures/fake-anthropic.js';
import { useFakeModelServer } from '../fixtures/use-fake-model-server.js';
import { SCRIPTED } from '../helpers.js';
import { ensureBuilt, fakeAnthropicEnv, runBuilt } from './built-cli.js';

const fake = useFakeModelServer(startFakeAnthropic);
const SCRIPTED_SERVER = quote([process.execPath, SCRIPTED]);

beforeAll(() => {
  ensureBuilt();
}, 120_000);

const env = () => fakeAnthropicEnv(fake.baseURL);

/** The stdout lines, each parsed, with the one value that varies (a call's duration) fixed. */
function events(stdout: string): unknown[] {
  expect(stdout.endsWith('\n')).toBe(true);
  return stdout
    .slice(0, -1)
    .split('\n')
    .map((line) => {
      const event = JSON.parse(line) as Record<string, unknown>;
      return event.type === 'tool_end' ? { ...event, durationMs: 'N' } : event;
    });
}

const call = { toolCallId: 'toolu_1', name: 'echo', modelName: 'echo', source: 'scripted-server' };
const usage = { inputTokens: 25, outputTokens: 12 };
const firstTurn = {
  role: 'assistant',
  content: [
    { type: 'text', text: 'Let me echo.' },
    { type: 'tool_call', id: 'toolu_1', name: 'echo', arguments: '{"text":"hi"}' },
  ],
};

describe('agentwire run --json', () => {
  it('prints one JSON object per event, in order', async () => {
    fake.script(
      { text: 'Let me echo.', toolCalls: [{ id: 'toolu_1', name: 'echo', input: { text: 'hi' } }] },
      { text: 'Done.' },
    );
    const run = await runBuilt(['run', 'Echo hi.', '--json', '--yes', '--stdio', SCRIPTED_SERVER], {
      env: env(),
    });
    expect({ code: run.code, stderr: run.stderr, events: events(run.stdout) }).toEqual({
      code: 0,
      stderr: '',
      events: [
        { type: 'agent_start', prompt: 'Echo hi.' },
        { type: 'turn_start', turn: 1 },
        { type: 'text_delta', turn: 1, text: 'Let ' },
        { type: 'text_delta', turn: 1, text: 'me ' },
        { type: 'text_delta', turn: 1, text: 'echo.' },
        { type: 'tool_start', turn: 1, ...call, input: { text: 'hi' } },
        { type: 'tool_end', turn: 1, ...call, result: 'echo: hi', isError: false, durationMs: 'N' },
        { type: 'turn_end', turn: 1, message: firstTurn, stopReason: 'tool_use', usage },
        { type: 'turn_start', turn: 2 },
        { type: 'text_delta', turn: 2, text: 'Done.' },
        {
          type: 'turn_end',
          turn: 2,
          message: { role: 'assistant', content: [{ type: 'text', text: 'Done.' }] },
          stopReason: 'end_turn',
          usage,
        },
        {
          type: 'agent_end',
          result: {
            text: 'Done.',
            messages: [
              { role: 'user', content: 'Echo hi.' },
              firstTurn,
              {
                role: 'tool',
                results: [{ toolCallId: 'toolu_1', name: 'echo', content: 'echo: hi', isError: false }],
              },
              { role: 'assistant', content: [{ type: 'text', text: 'Done.' }] },
            ],
            turns: 2,
            stopReason: 'end_turn',
            usage: { inputTokens: 50, outputTokens: 24 },
          },
        },
      ],
    });
  }, 60_000);

  it('ends a failed run with an error event ({name, message, kind}) and the error line on stderr', async () => {
    fake.script({ toolCalls: [{ id: 'toolu_1', name: 'echo', input: { text: 'hi' } }] });
    const run = await runBuilt(
      ['run', 'Echo hi.', '--json', '--yes', '--max-turns', '1', '--stdio', SCRIPTED_SERVER],
      { env: env() },
    );
    const all = events(run.stdout);
    expect({
      code: run.code,
      stderr: run.stderr,
      types: all.map((event) => (event as { type: string }).type),
      last: all.at(-1),
    }).toEqual({
      code: 1,
      stderr: 'error: the model was still calling tools after 1 turn (--max-turns)\n',
      types: ['agent_start', 'turn_start', 'tool_start', 'tool_end', 'turn_end', 'error'],
      last: {
        type: 'error',
        error: {
          name: 'AgentError',
          message: 'the model was still calling tools after 1 turn (--max-turns)',
          kind: 'max_turns',
        },
      },
    });
  }, 60_000);
});
