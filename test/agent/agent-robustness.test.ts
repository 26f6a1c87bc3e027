/**
 * The agent loop against inputs that used to break it: a server's malformed input schema, long runs whose
 * vendor SDK leaves abort listeners behind, unparseable arguments, and approval hooks that return garbage.
 */
import { getEventListeners } from 'node:events';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { checkToolArguments } from '../../src/agent/arguments.js';
import { Agent, type AgentEvent, type ApprovalDecision, renderEvent } from '../../src/agent/index.js';
import { linkedSignal } from '../../src/agent/linked-signal.js';
import type { JsonSchema } from '../../src/core/json.js';
import { anthropic, openai } from '../../src/providers/index.js';
import { startFakeAnthropic } from '../fixtures/fake-anthropic.js';
import type { FakeModelServer } from '../fixtures/fake-model-server.js';
import { startFakeOpenAI } from '../fixtures/fake-openai.js';
import { useFakeModelServer } from '../fixtures/use-fake-model-server.js';
import { collectEvents, localTool, offeredToolNames } from './helpers.js';

const add = localTool('add', ({ a, b }) => Number(a) + Number(b), {
  type: 'object',
  properties: { a: { type: 'number' }, b: { type: 'number' } },
  required: ['a', 'b'],
});
// What a misbehaving server sent (reviewer's defect 5): `required` as a string.
const malformed = { type: 'object', properties: { a: { type: 'string' } }, required: 'a' } as unknown;
const broken = localTool('broken', () => 'never runs', malformed as JsonSchema, 'shaky');

describe('a tool whose input schema is malformed', () => {
  let fake: FakeModelServer;
  beforeAll(async () => {
    fake = await startFakeAnthropic();
  });
  afterAll(() => fake.close());

  it('is skipped with a warning, and the other calls of the turn still run', async () => {
    fake.script(
      {
        toolCalls: [
          { id: 'b1', name: 'broken', input: { a: 'x' } },
          { id: 'a1', name: 'add', input: { a: 1, b: 2 } },
        ],
      },
      { text: 'done' },
    );
    const agent = new Agent({
      model: anthropic({ model: 'claude-test', apiKey: 'k', baseURL: fake.baseURL, maxRetries: 0 }),
      tools: [broken, add],
    });
    const { events, error } = await collectEvents(agent.prompt('go'));
    expect(error).toBeUndefined();
    expect(events.filter((e) => e.type === 'warning')).toEqual([
      {
        type: 'warning',
        tool: 'broken',
        message:
          'tool "broken" from shaky skipped: its input schema cannot be used with anthropic: ' +
          '"required" at #/ must be an array of strings (got string)',
      },
    ]);
    expect(offeredToolNames(fake.requests[0])).toEqual(['add']);
    expect(fake.requests[1]?.messages).toContainEqual({
      role: 'user',
      content: [
        {
          type: 'tool_result',
          tool_use_id: 'b1',
          content: 'Unknown tool "broken". Available tools: add',
          is_error: true,
        },
        { type: 'tool_result', tool_use_id: 'a1', content: '3', is_error: false },
      ],
    });
  });

  it('does not make the argument check throw when such a schema reaches it anyway', () => {
    expect(checkToolArguments('{"a":"x"}', malformed as JsonSchema)).toEqual({ ok: true, input: { a: 'x' } });
    const badType = { type: 'object', properties: { a: { type: 7 } } } as unknown as JsonSchema;
    expect(checkToolArguments('{"a":"x"}', badType)).toEqual({ ok: true, input: { a: 'x' } });
  });
});

describe('abort listeners over a long run', () => {
  let fake: FakeModelServer;
  const warnings: Error[] = [];
  const onWarning = (warning: Error) => warnings.push(warning);
  beforeAll(async () => {
    fake = await startFakeOpenAI();
  });
  afterAll(() => fake.close());
  beforeEach(() => {
    warnings.length = 0;
    process.on('warning', onWarning);
  });
  afterEach(() => {
    process.off('warning', onWarning);
  });

  it('prints no MaxListenersExceededWarning over 12 turns, even with tools that never remove theirs', async () => {
    const turns = 12;
    // Like an MCP request or a vendor SDK: a listener added to the signal it is given, never removed.
    const leaky = localTool('leaky', (_input, context) => {
      context.signal?.addEventListener('abort', () => {}, { once: true });
      return 'ok';
    });
    for (let turn = 1; turn < turns; turn += 1) {
      fake.script({ toolCalls: [{ id: `l${turn}`, name: 'leaky' }] });
    }
    fake.script({ text: 'finished' });
    const controller = new AbortController();
    const agent = new Agent({
      model: openai({ model: 'gpt-test', apiKey: 'k', baseURL: fake.baseURL, maxRetries: 0 }),
      tools: [leaky],
      maxTurns: turns,
    });
    const result = await agent.execute('loop', { signal: controller.signal });
    // Warnings are emitted on the next tick; let them arrive before looking.
    await new Promise((resolve) => setImmediate(resolve));
    expect(result).toMatchObject({ text: 'finished', turns });
    expect(warnings.map((warning) => warning.name)).toEqual([]);
    expect(getEventListeners(controller.signal, 'abort')).toHaveLength(0);
  });

  it('links a request signal to the run signal until released, and no longer', () => {
    const run = new AbortController();
    const first = linkedSignal(run.signal);
    const second = linkedSignal(run.signal);
    expect(getEventListeners(run.signal, 'abort')).toHaveLength(2);
    first.release();
    first.release();
    expect(getEventListeners(run.signal, 'abort')).toHaveLength(1);
    run.abort(new Error('stop'));
    expect(first.signal.aborted).toBe(false);
    expect(second.signal.aborted).toBe(true);
    expect((second.signal.reason as Error).message).toBe('stop');
    expect(linkedSignal(run.signal).signal.aborted).toBe(true);
  });
});

describe('tool calls the loop must not trust', () => {
  const fake = useFakeModelServer(startFakeAnthropic);
  const model = () => anthropic({ model: 'claude-test', apiKey: 'k', baseURL: fake.baseURL, maxRetries: 0 });

  it('shows arguments that are not JSON as the model sent them, not as {}', async () => {
    fake.script({ toolCalls: [{ id: 'j1', name: 'add', rawArguments: '{"a": 1,' }] }, { text: 'ok' });
    const agent = new Agent({ model: model(), tools: [add] });
    const { events } = await collectEvents(agent.prompt('go'));
    const start = events.find(
      (e): e is Extract<AgentEvent, { type: 'tool_start' }> => e.type === 'tool_start',
    );
    expect(start).toMatchObject({ input: {}, rawArguments: '{"a": 1,' });
    expect(start && renderEvent(start)).toBe('▸ add [local] {"a": 1,\n');
  });

  it('shows parsed arguments that fail the schema check as they are', async () => {
    fake.script({ toolCalls: [{ id: 'j2', name: 'add', input: { a: 1 } }] }, { text: 'ok' });
    const agent = new Agent({ model: model(), tools: [add] });
    const { events } = await collectEvents(agent.prompt('go'));
    const start = events.find((e) => e.type === 'tool_start');
    expect(start && renderEvent(start)).toBe('▸ add [local] {"a":1}\n');
  });

  it("refuses an approval hook's rewrite that is not an arguments object, or fails the schema", async () => {
    let ran = 0;
    const counted = localTool(
      'add',
      ({ a, b }) => {
        ran += 1;
        return Number(a) + Number(b);
      },
      add.inputSchema,
    );
    const decisions: Record<string, unknown> = {
      r1: { action: 'rewrite', input: null },
      r2: { action: 'rewrite', input: { a: 1 } },
      r3: undefined,
      r4: { action: 'maybe' },
      r5: { action: 'rewrite', input: { a: 2, b: 3 } },
    };
    fake.script(
      { toolCalls: Object.keys(decisions).map((id) => ({ id, name: 'add', input: { a: 1, b: 1 } })) },
      { text: 'ok' },
    );
    const agent = new Agent({
      model: model(),
      tools: [counted],
      approve: ({ toolCallId }) => decisions[toolCallId] as ApprovalDecision,
    });
    await agent.execute('go');
    const refused = (id: string, content: string) => ({
      type: 'tool_result',
      tool_use_id: id,
      content,
      is_error: true,
    });
    expect(fake.requests[1]?.messages).toContainEqual({
      role: 'user',
      content: [
        refused(
          'r1',
          'Tool call "add" was denied: the approval hook\'s rewrite has no arguments object (input is null)',
        ),
        refused(
          'r2',
          'Invalid arguments for tool "add" after the approval hook\'s rewrite: missing required argument(s): b',
        ),
        refused(
          'r3',
          'Tool call "add" was denied: the approval hook returned undefined, not true, false or an action ' +
            '"allow", "deny" or "rewrite"',
        ),
        refused(
          'r4',
          'Tool call "add" was denied: the approval hook returned an object with action "maybe", not true, ' +
            'false or an action "allow", "deny" or "rewrite"',
        ),
        { type: 'tool_result', tool_use_id: 'r5', content: '5', is_error: false },
      ],
    });
    expect(ran).toBe(1);
  });
});
