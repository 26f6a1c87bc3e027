import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ModelEvent, ModelRequest } from '../../src/providers/index.js';
import { anthropic, ModelError } from '../../src/providers/index.js';
import { startFakeAnthropic } from '../fixtures/fake-anthropic.js';
import type { FakeModelServer } from '../fixtures/fake-model-server.js';

async function collect(events: AsyncIterable<ModelEvent>): Promise<ModelEvent[]> {
  const out: ModelEvent[] = [];
  for await (const event of events) out.push(event);
  return out;
}

const tool = { name: 'get_weather', description: 'Weather for a city', inputSchema: { type: 'object' } };

describe('anthropic adapter', () => {
  let fake: FakeModelServer;
  beforeAll(async () => {
    fake = await startFakeAnthropic();
  });
  afterAll(() => fake.close());

  const model = () =>
    anthropic({ model: 'claude-test', apiKey: 'sk-test', baseURL: fake.baseURL, maxRetries: 0 });

  it('streams text deltas and then the whole message with usage', async () => {
    fake.script({ text: 'Hello there, friend.' });
    const events = await collect(
      model().stream({ system: 'Be brief.', messages: [{ role: 'user', content: 'Hi' }], tools: [] }),
    );
    expect(events).toEqual([
      { type: 'text_delta', text: 'Hello ' },
      { type: 'text_delta', text: 'there, ' },
      { type: 'text_delta', text: 'friend.' },
      {
        type: 'response',
        message: { role: 'assistant', content: [{ type: 'text', text: 'Hello there, friend.' }] },
        stopReason: 'end_turn',
        usage: { inputTokens: 25, outputTokens: 12 },
        info: { model: 'fake-claude', id: expect.stringMatching(/^msg_fake_\d+$/) },
      },
    ]);
    expect(fake.requests.at(-1)).toEqual({
      model: 'claude-test',
      max_tokens: 4096,
      messages: [{ role: 'user', content: 'Hi' }],
      stream: true,
      system: 'Be brief.',
    });
    expect(fake.headers.at(-1)?.authorization).toBe('Bearer sk-test');
  });

  it('joins streamed tool_use input fragments into one tool call', async () => {
    fake.script({
      text: 'Checking.',
      toolCalls: [{ id: 'toolu_1', name: 'get_weather', input: { city: 'Paris, France' } }],
    });
    const events = await collect(
      model().stream({ messages: [{ role: 'user', content: 'Weather?' }], tools: [tool] }),
    );
    expect(events.at(-1)).toEqual({
      type: 'response',
      message: {
        role: 'assistant',
        content: [
          { type: 'text', text: 'Checking.' },
          { type: 'tool_call', id: 'toolu_1', name: 'get_weather', arguments: '{"city":"Paris, France"}' },
        ],
      },
      stopReason: 'tool_use',
      usage: { inputTokens: 25, outputTokens: 12 },
      info: { model: 'fake-claude', id: expect.stringMatching(/^msg_fake_\d+$/) },
    });
    expect(fake.requests.at(-1)?.tools).toEqual([
      { name: 'get_weather', description: 'Weather for a city', input_schema: { type: 'object' } },
    ]);
  });

  it('sends tool results as tool_result blocks with is_error', async () => {
    fake.script({ text: 'Done.' });
    const request: ModelRequest = {
      messages: [
        { role: 'user', content: 'Weather?' },
        {
          role: 'assistant',
          content: [
            { type: 'text', text: '' },
            { type: 'tool_call', id: 'toolu_1', name: 'get_weather', arguments: '{"city":"Paris"}' },
            { type: 'tool_call', id: 'toolu_2', name: 'get_weather', arguments: '{"city":"Oslo"}' },
          ],
        },
        {
          role: 'tool',
          results: [
            { toolCallId: 'toolu_1', name: 'get_weather', content: 'sunny', isError: false },
            { toolCallId: 'toolu_2', name: 'get_weather', content: 'unknown city', isError: true },
          ],
        },
      ],
      tools: [tool],
    };
    await collect(model().stream(request));
    expect(fake.requests.at(-1)?.messages).toEqual([
      { role: 'user', content: 'Weather?' },
      {
        role: 'assistant',
        content: [
          { type: 'tool_use', id: 'toolu_1', name: 'get_weather', input: { city: 'Paris' } },
          { type: 'tool_use', id: 'toolu_2', name: 'get_weather', input: { city: 'Oslo' } },
        ],
      },
      {
        role: 'user',
        content: [
          { type: 'tool_result', tool_use_id: 'toolu_1', content: 'sunny', is_error: false },
          { type: 'tool_result', tool_use_id: 'toolu_2', content: 'unknown city', is_error: true },
        ],
      },
    ]);
  });

  it('reports an HTTP error as a ModelError with the status, without the API key', async () => {
    fake.script({
      status: 401,
      body: { type: 'error', error: { type: 'authentication_error', message: 'invalid x-api-key' } },
    });
    const error = await collect(
      model().stream({ messages: [{ role: 'user', content: 'Hi' }], tools: [] }),
    ).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ModelError);
    expect((error as ModelError).kind).toBe('request_failed');
    expect((error as ModelError).status).toBe(401);
    expect((error as ModelError).message).toMatch(/^anthropic request failed \(HTTP 401\)/);
    expect((error as ModelError).message).not.toContain('sk-test');
  });

  it('aborts a stream in progress with an AbortError', async () => {
    fake.script({ hang: true, text: 'Thinking about it' });
    const controller = new AbortController();
    const iterator = model().stream({
      messages: [{ role: 'user', content: 'Hi' }],
      tools: [],
      signal: controller.signal,
    });
    const seen: ModelEvent[] = [];
    const error = await (async () => {
      for await (const event of iterator) {
        seen.push(event);
        if (seen.length === 1) controller.abort();
      }
    })().catch((e: unknown) => e);
    expect(seen[0]).toEqual({ type: 'text_delta', text: 'Thinking ' });
    expect((error as Error).name).toBe('AbortError');
  });
});
