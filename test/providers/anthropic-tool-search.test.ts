/**
 * Anthropic's own tool search (`anthropic({ toolSearch })`): the exact request bodies the SDK sends to the
 * fake Messages API, the search's server blocks kept in the assistant message and sent back, and an agent
 * with such a model offering every tool deferred instead of its own `search_tools`.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { Agent, type AgentEvent } from '../../src/agent/index.js';
import type { ModelEvent } from '../../src/providers/index.js';
import { anthropic } from '../../src/providers/index.js';
import { localTool } from '../agent/helpers.js';
import { startFakeAnthropic } from '../fixtures/fake-anthropic.js';
import type { FakeModelServer } from '../fixtures/fake-model-server.js';

async function collect(events: AsyncIterable<ModelEvent>): Promise<ModelEvent[]> {
  const out: ModelEvent[] = [];
  for await (const event of events) out.push(event);
  return out;
}

const weather = { name: 'get_weather', description: 'Weather for a city', inputSchema: { type: 'object' } };
const time = { name: 'get_time', description: 'Time in a city', inputSchema: { type: 'object' } };

describe('anthropic({ toolSearch }): provider-native deferred loading', () => {
  let fake: FakeModelServer;
  beforeAll(async () => {
    fake = await startFakeAnthropic();
  });
  afterAll(() => fake.close());
  beforeEach(() => {
    fake.requests.length = 0;
  });

  const model = (options: Partial<Parameters<typeof anthropic>[0]> = {}) =>
    anthropic({ model: 'claude-test', apiKey: 'k', baseURL: fake.baseURL, maxRetries: 0, ...options });

  it('sends the BM25 search tool first and every tool with defer_loading, except loadedTools', async () => {
    fake.script({ text: 'Hi.' });
    await collect(
      model({ toolSearch: 'bm25', loadedTools: ['get_time'] }).stream({
        messages: [{ role: 'user', content: 'Hi' }],
        tools: [weather, time],
      }),
    );
    expect(fake.requests.at(-1)).toEqual({
      model: 'claude-test',
      max_tokens: 4096,
      messages: [{ role: 'user', content: 'Hi' }],
      stream: true,
      tools: [
        { type: 'tool_search_tool_bm25_20251119', name: 'tool_search_tool_bm25' },
        {
          name: 'get_weather',
          description: 'Weather for a city',
          input_schema: { type: 'object' },
          defer_loading: true,
        },
        { name: 'get_time', description: 'Time in a city', input_schema: { type: 'object' } },
      ],
    });
  });

  it('regex: tool_search_tool_regex; without tools, no search tool; without the option, no defer_loading', async () => {
    fake.script({ text: 'a' }, { text: 'b' }, { text: 'c' });
    const messages = [{ role: 'user' as const, content: 'Hi' }];
    await collect(model({ toolSearch: 'regex' }).stream({ messages, tools: [weather] }));
    await collect(model({ toolSearch: 'regex' }).stream({ messages, tools: [] }));
    await collect(model().stream({ messages, tools: [weather] }));
    expect(fake.requests.map((body) => body.tools)).toEqual([
      [
        { type: 'tool_search_tool_regex_20251119', name: 'tool_search_tool_regex' },
        {
          name: 'get_weather',
          description: 'Weather for a city',
          input_schema: { type: 'object' },
          defer_loading: true,
        },
      ],
      undefined,
      [{ name: 'get_weather', description: 'Weather for a city', input_schema: { type: 'object' } }],
    ]);
    expect(model({ toolSearch: 'bm25' }).defersToolLoading).toBe(true);
    expect(model().defersToolLoading).toBe(false);
  });

  it('keeps the search blocks in the assistant message and sends them back unchanged', async () => {
    fake.script(
      {
        text: 'Searching.',
        toolSearch: { query: 'weather', found: ['get_weather'] },
        toolCalls: [{ id: 'toolu_w', name: 'get_weather', input: { city: 'Paris' } }],
      },
      { text: 'Rainy.' },
    );
    const m = model({ toolSearch: 'bm25' });
    const events = await collect(
      m.stream({ messages: [{ role: 'user', content: 'Weather?' }], tools: [weather] }),
    );
    const response = events.at(-1);
    if (response?.type !== 'response') throw new Error('no response');
    expect(response.stopReason).toBe('tool_use');
    expect(response.message.content).toEqual([
      { type: 'text', text: 'Searching.' },
      { type: 'tool_call', id: 'toolu_w', name: 'get_weather', arguments: '{"city":"Paris"}' },
    ]);
    const searchId = (response.message.providerContent?.blocks[1] as { id?: string } | undefined)?.id;
    const assistant = [
      { type: 'text', text: 'Searching.' },
      { type: 'server_tool_use', id: searchId, name: 'tool_search_tool_bm25', input: { query: 'weather' } },
      {
        type: 'tool_search_tool_result',
        tool_use_id: searchId,
        content: {
          type: 'tool_search_tool_search_result',
          tool_references: [{ type: 'tool_reference', tool_name: 'get_weather' }],
        },
      },
      { type: 'tool_use', id: 'toolu_w', name: 'get_weather', input: { city: 'Paris' } },
    ];
    expect(response.message.providerContent).toEqual({ provider: 'anthropic', blocks: assistant });
    await collect(
      m.stream({
        messages: [
          { role: 'user', content: 'Weather?' },
          response.message,
          {
            role: 'tool',
            results: [{ toolCallId: 'toolu_w', name: 'get_weather', content: 'rain', isError: false }],
          },
        ],
        tools: [weather],
      }),
    );
    expect(fake.requests.at(-1)?.messages).toEqual([
      { role: 'user', content: 'Weather?' },
      { role: 'assistant', content: assistant },
      {
        role: 'user',
        content: [{ type: 'tool_result', tool_use_id: 'toolu_w', content: 'rain', is_error: false }],
      },
    ]);
  });

  it('an agent with such a model offers all 70 tools deferred, not its own search_tools, and calls the one found', async () => {
    const tools = Array.from({ length: 70 }, (_, i) =>
      localTool(`tool_${i}`, () => `result ${i}`, { type: 'object', properties: {} }),
    );
    fake.script(
      {
        toolSearch: { query: 'tool 7', found: ['tool_7'] },
        toolCalls: [{ id: 'toolu_7', name: 'tool_7', input: {} }],
      },
      { text: 'Done.' },
    );
    const agent = new Agent({ model: model({ toolSearch: 'bm25' }), tools });
    const events: AgentEvent[] = [];
    for await (const event of agent.prompt('Use tool 7')) events.push(event);
    expect(events.filter((e) => e.type === 'warning')).toEqual([]);
    const [first, second] = fake.requests;
    const offered = first?.tools as { name: string; type?: string; defer_loading?: boolean }[];
    expect(offered).toHaveLength(71);
    expect(offered[0]).toEqual({ type: 'tool_search_tool_bm25_20251119', name: 'tool_search_tool_bm25' });
    expect(offered.slice(1).map((t) => [t.name, t.defer_loading])).toEqual(tools.map((t) => [t.name, true]));
    const end = events.find((e) => e.type === 'tool_end');
    expect(end).toMatchObject({ name: 'tool_7', result: 'result 7', isError: false });
    const sentBack = (second?.messages as { role: string; content: { type: string }[] }[] | undefined)?.[1];
    expect(sentBack?.content.map((block) => block.type)).toEqual([
      'server_tool_use',
      'tool_search_tool_result',
      'tool_use',
    ]);
    await agent.close();
  });
});
