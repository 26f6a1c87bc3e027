import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Agent, AgentAbortError, AgentError } from '../../src/agent/index.js';
import { anthropic, openai } from '../../src/providers/index.js';
import { startFakeAnthropic } from '../fixtures/fake-anthropic.js';
import type { FakeModelServer } from '../fixtures/fake-model-server.js';
import { startFakeOpenAI } from '../fixtures/fake-openai.js';
import { useFakeModelServer } from '../fixtures/use-fake-model-server.js';
import { collectEvents, localTool } from './helpers.js';

const add = localTool('add', ({ a, b }) => Number(a) + Number(b), {
  type: 'object',
  properties: { a: { type: 'number' }, b: { type: 'number' } },
  required: ['a', 'b'],
});
const failing = localTool('explode', () => {
  throw new Error('the fuse was lit');
});

describe('agent loop (Anthropic wire format)', () => {
  const fake = useFakeModelServer(startFakeAnthropic);
  const model = () => anthropic({ model: 'claude-test', apiKey: 'k', baseURL: fake.baseURL, maxRetries: 0 });

  it('runs tools the model calls, reports a failing tool as an error result, and finishes', async () => {
    fake.script(
      {
        text: 'Let me compute.',
        toolCalls: [
          { id: 't1', name: 'add', input: { a: 2, b: 3 } },
          { id: 't2', name: 'explode' },
        ],
      },
      { text: 'The sum is 5; explode failed.' },
    );
    const agent = new Agent({ model: model(), systemPrompt: 'You add.', tools: [add, failing] });
    const result = await agent.execute('What is 2+3?');
    expect(result.text).toBe('The sum is 5; explode failed.');
    expect(result.turns).toBe(2);
    expect(result.stopReason).toBe('end_turn');
    expect(result.usage).toEqual({ inputTokens: 50, outputTokens: 24 });
    expect(fake.requests[1]?.messages).toEqual([
      { role: 'user', content: 'What is 2+3?' },
      {
        role: 'assistant',
        content: [
          { type: 'text', text: 'Let me compute.' },
          { type: 'tool_use', id: 't1', name: 'add', input: { a: 2, b: 3 } },
          { type: 'tool_use', id: 't2', name: 'explode', input: {} },
        ],
      },
      {
        role: 'user',
        content: [
          { type: 'tool_result', tool_use_id: 't1', content: '5', is_error: false },
          { type: 'tool_result', tool_use_id: 't2', content: 'the fuse was lit', is_error: true },
        ],
      },
    ]);
    expect(fake.requests[0]?.system).toBe('You add.');
    expect(fake.requests[0]?.tools).toEqual([
      { name: 'add', description: 'test tool add', input_schema: add.inputSchema },
      { name: 'explode', description: 'test tool explode', input_schema: { type: 'object', properties: {} } },
    ]);
  });

  it('streams the run as typed events in order', async () => {
    fake.script({ toolCalls: [{ id: 't1', name: 'add', input: { a: 1, b: 1 } }] }, { text: 'Two.' });
    const agent = new Agent({ model: model(), tools: [add] });
    const { events, error } = await collectEvents(agent.prompt('1+1?'));
    expect(error).toBeUndefined();
    expect(events.map((e) => e.type)).toEqual([
      'agent_start',
      'turn_start',
      'tool_start',
      'tool_end',
      'turn_end',
      'turn_start',
      'text_delta',
      'turn_end',
      'agent_end',
    ]);
    expect(events[2]).toEqual({
      type: 'tool_start',
      turn: 1,
      toolCallId: 't1',
      name: 'add',
      modelName: 'add',
      source: 'local',
      input: { a: 1, b: 1 },
    });
    expect(events[3]).toMatchObject({ type: 'tool_end', toolCallId: 't1', result: '2', isError: false });
  });

  it('reports unknown tools and invalid arguments back to the model and continues', async () => {
    fake.script(
      {
        toolCalls: [
          { id: 'u1', name: 'nope' },
          { id: 'u2', name: 'add', input: { a: 1 } },
          { id: 'u3', name: 'add', input: { a: 'one', b: 2 } },
          { id: 'u4', name: 'add', rawArguments: '{"a": 1,' },
        ],
      },
      { text: 'Sorry.' },
    );
    const agent = new Agent({ model: model(), tools: [add] });
    const result = await agent.execute('go');
    expect(result.text).toBe('Sorry.');
    expect(fake.requests[1]?.messages).toContainEqual({
      role: 'user',
      content: [
        {
          type: 'tool_result',
          tool_use_id: 'u1',
          content: 'Unknown tool "nope". Available tools: add',
          is_error: true,
        },
        {
          type: 'tool_result',
          tool_use_id: 'u2',
          content: 'Invalid arguments for tool "add": missing required argument(s): b',
          is_error: true,
        },
        {
          type: 'tool_result',
          tool_use_id: 'u3',
          content: 'Invalid arguments for tool "add": argument "a" should be a number, got string',
          is_error: true,
        },
        {
          type: 'tool_result',
          tool_use_id: 'u4',
          content: 'Invalid arguments for tool "add": arguments are not a JSON object: {"a": 1,',
          is_error: true,
        },
      ],
    });
  });

  it('runs the tool calls of one turn concurrently', async () => {
    // Each tool waits until both have started: sequential execution would never finish.
    let started = 0;
    let release: () => void = () => {};
    const bothStarted = new Promise<void>((resolve) => {
      release = resolve;
    });
    const barrier = (name: string) =>
      localTool(name, async () => {
        started += 1;
        if (started === 2) release();
        await bothStarted;
        return `${name} done`;
      });
    fake.script(
      {
        toolCalls: [
          { id: 'a', name: 'left' },
          { id: 'b', name: 'right' },
        ],
      },
      { text: 'ok' },
    );
    const agent = new Agent({ model: model(), tools: [barrier('left'), barrier('right')] });
    await expect(agent.execute('go')).resolves.toMatchObject({ text: 'ok', turns: 2 });
    expect(started).toBe(2);
  });

  it('lets the approval hook allow, deny with a reason, or rewrite the arguments', async () => {
    const seen: string[] = [];
    fake.script(
      {
        toolCalls: [
          { id: 'p1', name: 'add', input: { a: 1, b: 1 } },
          { id: 'p2', name: 'add', input: { a: 100, b: 100 } },
          { id: 'p3', name: 'add', input: { a: 5, b: 5 } },
        ],
      },
      { text: 'ok' },
    );
    const agent = new Agent({
      model: model(),
      tools: [add],
      approve: ({ toolCallId, name, source, input }) => {
        seen.push(`${toolCallId} ${name} ${source} ${JSON.stringify(input)}`);
        if (toolCallId === 'p2') return { action: 'deny', reason: 'numbers too large' };
        if (toolCallId === 'p3') return { action: 'rewrite', input: { a: 5, b: 6 } };
        return true;
      },
    });
    await agent.execute('go');
    expect(seen.sort()).toEqual([
      'p1 add local {"a":1,"b":1}',
      'p2 add local {"a":100,"b":100}',
      'p3 add local {"a":5,"b":5}',
    ]);
    expect(fake.requests[1]?.messages).toContainEqual({
      role: 'user',
      content: [
        { type: 'tool_result', tool_use_id: 'p1', content: '2', is_error: false },
        {
          type: 'tool_result',
          tool_use_id: 'p2',
          content: 'Tool call "add" was denied: numbers too large',
          is_error: true,
        },
        { type: 'tool_result', tool_use_id: 'p3', content: '11', is_error: false },
      ],
    });
  });

  it('keeps the conversation across runs, and forgets it on reset()', async () => {
    fake.script({ text: 'Hi Ada.' }, { text: 'You are Ada.' }, { text: 'No idea.' });
    const agent = new Agent({ model: model() });
    await agent.execute('I am Ada.');
    await agent.execute('Who am I?');
    expect(fake.requests[1]?.messages).toEqual([
      { role: 'user', content: 'I am Ada.' },
      { role: 'assistant', content: [{ type: 'text', text: 'Hi Ada.' }] },
      { role: 'user', content: 'Who am I?' },
    ]);
    agent.reset();
    expect(agent.messages).toEqual([]);
    await agent.execute('Who am I?');
    expect(fake.requests[2]?.messages).toEqual([{ role: 'user', content: 'Who am I?' }]);
  });

  it('fails with max_turns when the model keeps calling tools', async () => {
    fake.script(
      { toolCalls: [{ name: 'add', input: { a: 1, b: 1 } }] },
      { toolCalls: [{ name: 'add', input: { a: 1, b: 1 } }] },
    );
    const agent = new Agent({ model: model(), tools: [add], maxTurns: 2 });
    const error = await agent.execute('loop').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AgentError);
    expect((error as AgentError).kind).toBe('max_turns');
    expect((error as AgentError).message).toBe('the model was still calling tools after 2 turns (maxTurns)');
  });

  it('stops the model stream when the run is aborted', async () => {
    fake.script({ hang: true, text: 'Let me think' });
    const controller = new AbortController();
    const agent = new Agent({ model: model() });
    const events = agent.prompt('think', { signal: controller.signal });
    const seen: string[] = [];
    const error = await (async () => {
      for await (const event of events) {
        seen.push(event.type);
        if (event.type === 'text_delta') controller.abort();
      }
    })().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AgentAbortError);
    expect((error as Error).name).toBe('AbortError');
    expect(seen).toEqual(['agent_start', 'turn_start', 'text_delta', 'error']);
  });

  it('aborts a tool that ignores its signal promptly, and answers its call as cancelled in the history', async () => {
    const controller = new AbortController();
    let abortedAt = 0;
    // The tool starts, then the run is aborted while it hangs, ignoring its signal.
    const stuck = localTool('stuck', () => {
      setImmediate(() => {
        abortedAt = Date.now();
        controller.abort();
      });
      return new Promise(() => {});
    });
    fake.script({ toolCalls: [{ id: 's1', name: 'stuck' }] });
    const agent = new Agent({ model: model(), tools: [stuck] });
    await expect(agent.execute('go', { signal: controller.signal })).rejects.toBeInstanceOf(AgentAbortError);
    expect(Date.now() - abortedAt).toBeLessThan(2_000);
    expect(agent.messages.at(-1)).toEqual({
      role: 'tool',
      results: [
        {
          toolCallId: 's1',
          name: 'stuck',
          content: 'Tool call cancelled: the run was stopped before it finished.',
          isError: true,
        },
      ],
    });
  });

  it('refuses a second run while one is going', async () => {
    fake.script({ hang: true });
    const controller = new AbortController();
    const agent = new Agent({ model: model() });
    const first = agent.execute('one', { signal: controller.signal });
    const second = await agent.execute('two').catch((e: unknown) => e);
    expect((second as AgentError).kind).toBe('busy');
    controller.abort();
    await expect(first).rejects.toBeInstanceOf(AgentAbortError);
  });
});

describe('agent loop (OpenAI wire format)', () => {
  let fake: FakeModelServer;
  beforeAll(async () => {
    fake = await startFakeOpenAI();
  });
  afterAll(() => fake.close());

  it('runs tools, reports a failure, and finishes', async () => {
    fake.script(
      {
        toolCalls: [
          { id: 'c1', name: 'add', input: { a: 2, b: 2 } },
          { id: 'c2', name: 'explode' },
        ],
      },
      { text: 'Four.' },
    );
    const agent = new Agent({
      model: openai({ model: 'gpt-test', apiKey: 'k', baseURL: fake.baseURL, maxRetries: 0 }),
      systemPrompt: 'sys',
      tools: [add, failing],
    });
    const result = await agent.execute('2+2?');
    expect(result).toMatchObject({ text: 'Four.', turns: 2, usage: { inputTokens: 50, outputTokens: 24 } });
    expect(fake.requests[1]?.messages).toEqual([
      { role: 'system', content: 'sys' },
      { role: 'user', content: '2+2?' },
      {
        role: 'assistant',
        content: null,
        tool_calls: [
          { id: 'c1', type: 'function', function: { name: 'add', arguments: '{"a":2,"b":2}' } },
          { id: 'c2', type: 'function', function: { name: 'explode', arguments: '{}' } },
        ],
      },
      { role: 'tool', tool_call_id: 'c1', content: '4' },
      { role: 'tool', tool_call_id: 'c2', content: 'Error: the fuse was lit' },
    ]);
  });
});
