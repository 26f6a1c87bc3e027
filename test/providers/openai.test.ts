import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ModelEvent } from '../../src/providers/index.js';
import { ModelError, openai } from '../../src/providers/index.js';
import type { FakeModelServer } from '../fixtures/fake-model-server.js';
import { startFakeOpenAI } from '../fixtures/fake-openai.js';

async function collect(events: AsyncIterable<ModelEvent>): Promise<ModelEvent[]> {
  const out: ModelEvent[] = [];
  for await (const event of events) out.push(event);
  return out;
}

const tool = { name: 'get_weather', description: 'Weather for a city', inputSchema: { type: 'object' } };

describe('openai adapter', () => {
  let fake: FakeModelServer;
  beforeAll(async () => {
    fake = await startFakeOpenAI();
  });
  afterAll(() => fake.close());

  const model = () => openai({ model: 'gpt-test', apiKey: 'sk-test', baseURL: fake.baseURL, maxRetries: 0 });

  it('streams text deltas and then the whole message with usage', async () => {
    fake.script({ text: 'Hello there.' });
    const events = await collect(
      model().stream({ system: 'Be brief.', messages: [{ role: 'user', content: 'Hi' }], tools: [] }),
    );
    expect(events).toEqual([
      { type: 'text_delta', text: 'Hello ' },
      { type: 'text_delta', text: 'there.' },
      {
        type: 'response',
        message: { role: 'assistant', content: [{ type: 'text', text: 'Hello there.' }] },
        stopReason: 'end_turn',
        usage: { inputTokens: 25, outputTokens: 12 },
        info: { model: 'fake-gpt', id: expect.stringMatching(/^chatcmpl-fake-\d+$/) },
      },
    ]);
    expect(fake.requests.at(-1)).toEqual({
      model: 'gpt-test',
      messages: [
        { role: 'system', content: 'Be brief.' },
        { role: 'user', content: 'Hi' },
      ],
      stream: true,
      stream_options: { include_usage: true },
    });
    expect(fake.headers.at(-1)?.authorization).toBe('Bearer sk-test');
  });

  it('joins tool call fragments by index, in order', async () => {
    fake.script({
      toolCalls: [
        { id: 'call_a', name: 'get_weather', input: { city: 'Paris' } },
        { id: 'call_b', name: 'get_weather', input: { city: 'Oslo' } },
      ],
    });
    const events = await collect(
      model().stream({ messages: [{ role: 'user', content: 'Weather?' }], tools: [tool] }),
    );
    expect(events).toEqual([
      {
        type: 'response',
        message: {
          role: 'assistant',
          content: [
            { type: 'tool_call', id: 'call_a', name: 'get_weather', arguments: '{"city":"Paris"}' },
            { type: 'tool_call', id: 'call_b', name: 'get_weather', arguments: '{"city":"Oslo"}' },
          ],
        },
        stopReason: 'tool_use',
        usage: { inputTokens: 25, outputTokens: 12 },
        info: { model: 'fake-gpt', id: expect.stringMatching(/^chatcmpl-fake-\d+$/) },
      },
    ]);
    expect(fake.requests.at(-1)?.tools).toEqual([
      {
        type: 'function',
        function: { name: 'get_weather', description: 'Weather for a city', parameters: { type: 'object' } },
      },
    ]);
  });

  it('sends tool calls back as tool_calls and each result as a tool message, errors marked in the text', async () => {
    fake.script({ text: 'Done.' });
    await collect(
      model().stream({
        messages: [
          { role: 'user', content: 'Weather?' },
          {
            role: 'assistant',
            content: [
              { type: 'tool_call', id: 'call_a', name: 'get_weather', arguments: '{"city":"Paris"}' },
            ],
          },
          {
            role: 'tool',
            results: [{ toolCallId: 'call_a', name: 'get_weather', content: 'no such city', isError: true }],
          },
        ],
        tools: [tool],
      }),
    );
    expect(fake.requests.at(-1)?.messages).toEqual([
      { role: 'user', content: 'Weather?' },
      {
        role: 'assistant',
        content: null,
        tool_calls: [
          {
            id: 'call_a',
            type: 'function',
            function: { name: 'get_weather', arguments: '{"city":"Paris"}' },
          },
        ],
      },
      { role: 'tool', tool_call_id: 'call_a', content: 'Error: no such city' },
    ]);
  });

  it('works without an API key against an OpenAI-compatible local server', async () => {
    const saved = process.env.OPENAI_API_KEY;
    delete process.env.OPENAI_API_KEY;
    try {
      fake.script({ text: 'local' });
      const events = await collect(
        openai({ model: 'llama3.1', baseURL: fake.baseURL, maxRetries: 0 }).stream({
          messages: [{ role: 'user', content: 'Hi' }],
          tools: [],
        }),
      );
      expect(events.at(-1)).toMatchObject({ type: 'response', stopReason: 'end_turn' });
    } finally {
      if (saved !== undefined) process.env.OPENAI_API_KEY = saved;
    }
  });

  it('reports an HTTP error as a ModelError with the status', async () => {
    fake.script({ status: 429, body: { error: { message: 'rate limited', type: 'rate_limit_error' } } });
    const error = await collect(
      model().stream({ messages: [{ role: 'user', content: 'Hi' }], tools: [] }),
    ).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ModelError);
    expect((error as ModelError).status).toBe(429);
    expect((error as ModelError).message).not.toContain('sk-test');
  });

  it('aborts a stream in progress with an AbortError', async () => {
    fake.script({ hang: true, text: 'Thinking about it' });
    const controller = new AbortController();
    const seen: ModelEvent[] = [];
    const error = await (async () => {
      for await (const event of model().stream({
        messages: [{ role: 'user', content: 'Hi' }],
        tools: [],
        signal: controller.signal,
      })) {
        seen.push(event);
        if (seen.length === 1) controller.abort();
      }
    })().catch((e: unknown) => e);
    expect(seen[0]).toEqual({ type: 'text_delta', text: 'Thinking ' });
    expect((error as Error).name).toBe('AbortError');
  });
});
