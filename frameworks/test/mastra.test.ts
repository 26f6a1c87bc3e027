/**
 * `agentwire/mastra` in Mastra's own loop: `Agent.generate` with the adapter's tools and `maxSteps`, the
 * model through Mastra's model router (`openai/…`, Chat Completions) pointed at a scripted local API, calling
 * real MCP servers.
 */
import { Agent } from '@mastra/core/agent';
import { describe, expect, it } from 'vitest';
import { createMastraTools } from '../../src/adapters/mastra.js';
import {
  SUM_AND_FAIL_ANSWER,
  scriptSumAndFail,
  sleepCallId,
  sumTool,
  tinyImageAsJson,
  useAdapterHarness,
} from '../../test/adapters/harness.js';
import { cancelled, tinyImage } from '../../test/adapters/servers.js';

describe('agentwire/mastra with Agent.generate', () => {
  const { fake, env, request } = useAdapterHarness();
  const agent = (tools: ReturnType<typeof createMastraTools>['tools']) =>
    new Agent({
      id: 'helper',
      name: 'helper',
      instructions: 'Help.',
      model: { id: 'openai/fake-gpt', url: fake.baseURL, apiKey: 'test-key', api: 'chat' },
      tools,
    });

  it('offers every tool with its full JSON Schema and hands back results, an isError as a failed call', async () => {
    const { tools, close } = createMastraTools(env.servers);
    scriptSumAndFail(fake);
    const result = await agent(tools).generate('Add 2 and 40.', { maxSteps: 5 });
    close();
    expect(result.text).toBe(SUM_AND_FAIL_ANSWER);
    const first = request(0);
    const tool = sumTool(env);
    expect(first.tools!.find((t) => t.function.name === 'everything__get-sum')).toEqual({
      type: 'function',
      // Mastra's own schema layer closes the object (`additionalProperties: false`).
      function: {
        name: 'everything__get-sum',
        description: tool.description,
        parameters: { ...tool.inputSchema, additionalProperties: false },
      },
    });
    // Mastra hands the model the failed call's error message.
    expect(request(1).messages.slice(-2)).toEqual([
      { role: 'tool', tool_call_id: 'call_sum', content: 'The sum of 2 and 40 is 42.' },
      {
        role: 'tool',
        tool_call_id: 'call_fail',
        content: 'Tool "fail" on MCP server "scripted" failed: disk full',
      },
    ]);
  });

  it('hands an image result to the model, and the abort signal cancels the MCP call', async () => {
    const { tools, close } = createMastraTools(env.servers);
    fake.script(
      { toolCalls: [{ id: 'call_img', name: 'everything__get-tiny-image', input: {} }] },
      { toolCalls: [{ id: 'call_sleep', name: 'scripted__sleep', input: { ms: 60_000 } }] },
    );
    const controller = new AbortController();
    const run = agent(tools).generate('Show me, then wait.', { maxSteps: 5, abortSignal: controller.signal });
    await env.called('sleep');
    controller.abort(new Error('user stop'));
    await run.catch(() => undefined);
    close();
    const data = await tinyImage(env.servers);
    // As with the AI SDK: Chat Completions takes no image in a tool message, so the parts go as JSON.
    expect(request(1).messages.slice(-1)).toEqual([
      {
        role: 'tool',
        tool_call_id: 'call_img',
        content: tinyImageAsJson(data),
      },
    ]);
    expect(await cancelled(env, 'sleep')).toEqual([
      { requestId: sleepCallId(env), reason: 'Error: user stop' },
    ]);
  });

  it('gives each run the tools as they are then (toolsChanged)', async () => {
    const { tools, close } = createMastraTools(env.servers);
    const added = { name: 'added', description: 'A new tool', inputSchema: { type: 'object' } };
    fake.script(
      { toolCalls: [{ id: 'call_set', name: 'scripted__set-tools', input: { tools: [added] } }] },
      { text: 'Changed.' },
      { text: 'Hello.' },
    );
    await agent(tools).generate('Change.', { maxSteps: 5 });
    await agent(tools).generate('Hello.', { maxSteps: 5 });
    close();
    const names = request(2).tools!.map((t) => t.function.name);
    expect(names.filter((name) => name.startsWith('scripted__'))).toEqual(['scripted__added']);
  });
});
