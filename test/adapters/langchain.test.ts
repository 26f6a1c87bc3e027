/**
 * `agentwire/langchain` in LangChain's own loop: `createAgent` (langchain 1.x, on LangGraph) with the
 * adapter's tools, `@langchain/openai`'s `ChatOpenAI` pointed at a scripted local API, calling real MCP
 * servers.
 */
import { ChatOpenAI } from '@langchain/openai';
import { createAgent } from 'langchain';
import { describe, expect, it } from 'vitest';
import { createLangChainTools } from '../../src/adapters/langchain.js';
import { SUM_AND_FAIL_ANSWER, scriptSumAndFail, sleepCallId, sumTool, useAdapterHarness } from './harness.js';
import { cancelled, tinyImage } from './servers.js';

describe('agentwire/langchain with createAgent', () => {
  const { fake, env, request } = useAdapterHarness();
  const agent = () =>
    createAgent({
      model: new ChatOpenAI({
        model: 'fake-gpt',
        apiKey: 'test-key',
        configuration: { baseURL: fake.baseURL },
        maxRetries: 0,
      }),
      tools: createLangChainTools(env.servers).tools,
    });

  it('offers every tool with its JSON Schema and hands back results, an isError as an error ToolMessage', async () => {
    scriptSumAndFail(fake);
    const { messages } = await agent().invoke({ messages: [{ role: 'user', content: 'Add 2 and 40.' }] });
    expect(messages.at(-1)!.content).toBe(SUM_AND_FAIL_ANSWER);
    const first = request(0);
    const tool = sumTool(env);
    expect(first.tools!.find((t) => t.function.name === 'everything__get-sum')).toEqual({
      type: 'function',
      function: { name: 'everything__get-sum', description: tool.description, parameters: tool.inputSchema },
    });
    expect(first.tools!.length).toBe(env.servers.getTools().length);
    expect(request(1).messages.slice(-2)).toEqual([
      {
        role: 'tool',
        tool_call_id: 'call_sum',
        name: 'everything__get-sum',
        content: 'The sum of 2 and 40 is 42.',
      },
      {
        role: 'tool',
        tool_call_id: 'call_fail',
        name: 'scripted__fail',
        content: 'MCPToolError: Tool "fail" on MCP server "scripted" failed: disk full',
      },
    ]);
    const failed = messages.find(
      (m) => m.type === 'tool' && (m as { tool_call_id?: string }).tool_call_id === 'call_fail',
    );
    expect((failed as { status?: string }).status).toBe('error');
  });

  it('hands an image result to the model as an image block', async () => {
    fake.script(
      { toolCalls: [{ id: 'call_img', name: 'everything__get-tiny-image', input: {} }] },
      { text: 'A tiny image.' },
    );
    await agent().invoke({ messages: [{ role: 'user', content: 'Show me.' }] });
    const data = await tinyImage(env.servers);
    expect(request(1).messages.slice(-1)).toEqual([
      {
        role: 'tool',
        tool_call_id: 'call_img',
        name: 'everything__get-tiny-image',
        content: [
          { type: 'text', text: "Here's the image you requested:" },
          { type: 'image_url', image_url: { url: `data:image/png;base64,${data}` } },
          { type: 'text', text: 'The image above is the MCP logo.' },
        ],
      },
    ]);
  });

  it("the run's abort signal cancels the MCP call", async () => {
    fake.script({ toolCalls: [{ id: 'call_sleep', name: 'scripted__sleep', input: { ms: 60_000 } }] });
    const controller = new AbortController();
    const run = agent().invoke(
      { messages: [{ role: 'user', content: 'Wait.' }] },
      { signal: controller.signal },
    );
    await env.called('sleep');
    controller.abort(new Error('user stop'));
    await expect(run).rejects.toThrow();
    expect(await cancelled(env, 'sleep')).toEqual([
      { requestId: sleepCallId(env), reason: 'Error: user stop' },
    ]);
  });

  it('tools, read again after toolsChanged, are the list the server has now', async () => {
    const lc = createLangChainTools(env.servers);
    const added = { name: 'added', description: 'A new tool', inputSchema: { type: 'object' } };
    fake.script(
      { toolCalls: [{ id: 'call_set', name: 'scripted__set-tools', input: { tools: [added] } }] },
      { text: 'Done.' },
    );
    await agent().invoke({ messages: [{ role: 'user', content: 'Change.' }] });
    expect(lc.tools.map((t) => t.name).filter((name) => name.startsWith('scripted__'))).toEqual([
      'scripted__added',
    ]);
  });
});
