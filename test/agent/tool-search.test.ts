/**
 * Hundreds of tools: over 500 from real servers found through `search_tools` and called, through both
 * providers' real SDKs against the fake vendor APIs (exact request bodies); 200 tools against OpenAI's 128.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Agent, type AgentEvent } from '../../src/agent/index.js';
import { anthropic, openai } from '../../src/providers/index.js';
import { startFakeAnthropic } from '../fixtures/fake-anthropic.js';
import type { FakeModelServer, FakeReply } from '../fixtures/fake-model-server.js';
import { startFakeOpenAI } from '../fixtures/fake-openai.js';
import { type Fleet, startFleet } from './fleet.js';
import { collectEvents } from './helpers.js';

/** Tool names of a request body, either vendor's shape (`name`, or `function.name`). */
function toolNames(body: Record<string, unknown> | undefined): string[] {
  const tools = (body?.tools ?? []) as { name?: string; function?: { name: string } }[];
  return tools.map((t) => t.name ?? t.function?.name ?? '?');
}

const bytesOf = (value: unknown) => Buffer.byteLength(JSON.stringify(value ?? null));

/** OpenAI's answer to more than 128 tools, so a test fails on what the real API would refuse. */
const OPENAI_LIMIT_ERROR = {
  status: 400,
  body: {
    error: {
      message: "Invalid 'tools': array too long. Expected an array with maximum length 128.",
      type: 'invalid_request_error',
      param: 'tools',
      code: 'array_above_max_length',
    },
  },
};

let fleet: Fleet;
let anthropicApi: FakeModelServer;
let openaiApi: FakeModelServer;
beforeAll(async () => {
  [fleet, anthropicApi, openaiApi] = await Promise.all([
    startFleet(),
    startFakeAnthropic(),
    startFakeOpenAI(),
  ]);
}, 120_000);
afterAll(async () => {
  await Promise.all([fleet?.close(), anthropicApi?.close(), openaiApi?.close()]);
});

const claude = () =>
  anthropic({ model: 'claude-test', apiKey: 'k', baseURL: anthropicApi.baseURL, maxRetries: 0 });
const gpt = () => openai({ model: 'gpt-test', apiKey: 'k', baseURL: openaiApi.baseURL, maxRetries: 0 });

const warningsOf = (events: AgentEvent[]) => events.flatMap((e) => (e.type === 'warning' ? [e.message] : []));

const RESEARCH = /__simulate-research-query$/;

describe('a fleet of real servers', () => {
  it('has 544 tools from 43 servers, 33 of which need tasks', () => {
    const bySource = new Map<string, number>();
    for (const tool of fleet.tools)
      bySource.set(tool.source ?? '', (bySource.get(tool.source ?? '') ?? 0) + 1);
    expect(fleet.tools.length).toBe(544);
    expect(bySource.size).toBe(43);
    expect([bySource.get('ev01'), bySource.get('fs1'), bySource.get('mem1')]).toEqual([13, 14, 9]);
    expect(fleet.tools.filter((t) => RESEARCH.test(t.name)).length).toBe(33);
  });
});

const SEARCH_RESULT =
  'Loaded 2 tools; call them by name from your next step on:\n' +
  '- ev01__get-sum: Returns the sum of two numbers (parameters: a, b; required: a, b)\n' +
  '- ev02__get-sum: Returns the sum of two numbers (parameters: a, b; required: a, b)';

describe.each([
  ['anthropic', () => anthropicApi, claude, [667, 1155, 1155]],
  ['openai', () => openaiApi, gpt, [696, 1242, 1242]],
] as const)('544 tools through search_tools (%s)', (provider, api, model, toolBytes) => {
  it('offers one search tool, loads what it finds, calls it, and never sends more than 128 tools', async () => {
    const fake = api();
    fake.requests.length = 0;
    const limited = (reply: FakeReply) => (body: Record<string, unknown>) =>
      toolNames(body).length > 128 ? OPENAI_LIMIT_ERROR : reply;
    fake.script(
      limited({
        toolCalls: [{ id: 's1', name: 'search_tools', input: { query: 'sum of two numbers', limit: 2 } }],
      }),
      limited({ toolCalls: [{ id: 'c1', name: 'ev01__get-sum', input: { a: 2, b: 40 } }] }),
      limited({ text: 'It is 42.' }),
    );
    const agent = new Agent({ model: model(), tools: fleet.tools });
    const { events, error } = await collectEvents(agent.prompt('Add 2 and 40.'));
    expect(error).toBeUndefined();
    expect(fake.requests.map(toolNames)).toEqual([
      ['search_tools'],
      ['search_tools', 'ev01__get-sum', 'ev02__get-sum'],
      ['search_tools', 'ev01__get-sum', 'ev02__get-sum'],
    ]);
    expect(fake.requests.map((r) => bytesOf(r.tools))).toEqual(toolBytes);
    expect(warningsOf(events)).toEqual([
      // server-everything declares tasks, so its task-required tool is offered too (no warning).
      '544 tools are more than toolSearchThreshold (64): the model is offered search_tools and loads the ' +
        'tools it needs (deferred: ev01 (13), ev02 (13), ev03 (13), ev04 (13), ev05 (13), ev06 (13), ev07 ' +
        '(13), ev08 (13) and 35 more sources)',
    ]);
    const ends = events.flatMap((e) =>
      e.type === 'tool_end' ? [[e.modelName, e.source, e.isError, e.result]] : [],
    );
    expect(ends).toEqual([
      ['search_tools', 'agent', false, SEARCH_RESULT],
      ['ev01__get-sum', 'ev01', false, 'The sum of 2 and 40 is 42.'],
    ]);
    const results = JSON.stringify(fake.requests[2]?.messages);
    expect(results).toContain(JSON.stringify(SEARCH_RESULT));
    expect(results).toContain(JSON.stringify('The sum of 2 and 40 is 42.'));
    // Loaded tools stay offered in the next run; reset() forgets them with the conversation.
    fake.script(limited({ text: 'Still here.' }));
    await agent.execute('And now?');
    agent.reset();
    fake.script(limited({ text: 'Fresh.' }));
    await agent.execute('Hello');
    expect(fake.requests.slice(3).map(toolNames)).toEqual([
      ['search_tools', 'ev01__get-sum', 'ev02__get-sum'],
      ['search_tools'],
    ]);
    void provider;
  });
});

describe('every definition, without search', () => {
  it('sends all 544 definitions to Anthropic (no tool count bound)', async () => {
    anthropicApi.requests.length = 0;
    anthropicApi.script({ text: 'ok' });
    const agent = new Agent({
      model: claude(),
      tools: fleet.tools,
      toolSearchThreshold: Number.POSITIVE_INFINITY,
    });
    await agent.execute('hi');
    const names = toolNames(anthropicApi.requests[0]);
    expect(names.length).toBe(544);
    expect(names).toEqual(fleet.tools.map((t) => t.name));
    // 544 definitions: 199 196 bytes of JSON in every request, against 667 for the search tool alone.
    expect(bytesOf(anthropicApi.requests[0]?.tools)).toBe(199_196);
  });

  it('sends OpenAI the first 128 of 200 tools and names the 72 left out', async () => {
    const usable = fleet.tools.filter((t) => !RESEARCH.test(t.name)).slice(0, 200);
    const names = usable.map((t) => t.name);
    openaiApi.requests.length = 0;
    openaiApi.script(
      (body) =>
        toolNames(body).length > 128
          ? OPENAI_LIMIT_ERROR
          : { toolCalls: [{ id: 'c1', name: 'ev10__get-sum', input: { a: 1, b: 2 } }] },
      (body) => (toolNames(body).length > 128 ? OPENAI_LIMIT_ERROR : { text: 'done' }),
    );
    const agent = new Agent({ model: gpt(), tools: usable, toolSearchThreshold: Number.POSITIVE_INFINITY });
    const { events, error } = await collectEvents(agent.prompt('go'));
    expect(error).toBeUndefined();
    expect(openaiApi.requests.map(toolNames)).toEqual([names.slice(0, 128), names.slice(0, 128)]);
    expect([names.indexOf('ev10__get-sum'), names[127]]).toEqual([114, 'ev11__get-tiny-image']);
    expect(warningsOf(events)).toEqual([
      `72 of 200 tools not offered: openai takes at most 128 tools per request (maxToolsPerRequest; a lower ` +
        `toolSearchThreshold lets the model search them all); left out: ${names.slice(128).join(', ')}`,
    ]);
    expect(events.flatMap((e) => (e.type === 'tool_end' ? [e.result] : []))).toEqual([
      'The sum of 1 and 2 is 3.',
    ]);
  });
});

describe('a request bound below what the model loads', () => {
  it('unloads the least recently loaded tools and says which', async () => {
    anthropicApi.requests.length = 0;
    anthropicApi.script(
      { toolCalls: [{ id: 's1', name: 'search_tools', input: { query: 'sum of two numbers', limit: 2 } }] },
      { toolCalls: [{ id: 's2', name: 'search_tools', input: { query: 'fs1 read text file' } }] },
      { text: 'done' },
    );
    const agent = new Agent({ model: claude(), tools: fleet.tools, maxToolsPerRequest: 4 });
    const { events } = await collectEvents(agent.prompt('go'));
    expect(anthropicApi.requests.map(toolNames)).toEqual([
      ['search_tools'],
      ['search_tools', 'ev01__get-sum', 'ev02__get-sum'],
      ['search_tools', 'fs1__read_text_file', 'fs2__read_text_file', 'fs3__read_text_file'],
    ]);
    const results = events.flatMap((e) => (e.type === 'tool_end' ? [e.result] : []));
    expect(results[0]).toBe(SEARCH_RESULT);
    const readFile = fleet.tools.find((t) => t.name === 'fs1__read_text_file');
    const line = `${readFile?.description.split('\n')[0]?.slice(0, 300)}… (parameters: path, tail, head; required: path)`;
    expect(results[1]).toBe(
      'Loaded 3 tools; call them by name from your next step on:\n' +
        ['fs1', 'fs2', 'fs3'].map((s) => `- ${s}__read_text_file: ${line}`).join('\n') +
        '\nUnloaded to stay within 4 tools per request (search again to get them back): ev01__get-sum, ev02__get-sum',
    );
  });
});
