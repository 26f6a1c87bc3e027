/**
 * `agentwire/ai-sdk` in the AI SDK's own loop: `generateText` with the adapter's tools and `stopWhen`,
 * `@ai-sdk/openai`'s Chat Completions model pointed at a scripted local API, calling real MCP servers.
 */
import { createOpenAI } from '@ai-sdk/openai';
import { generateText, isStepCount } from 'ai';
import { describe, expect, it } from 'vitest';
import { createAISDKTools } from '../../src/adapters/ai-sdk.js';
import {
  SUM_AND_FAIL_ANSWER,
  scriptSumAndFail,
  sleepCallId,
  sumTool,
  tinyImageAsJson,
  useAdapterHarness,
} from '../../test/adapters/harness.js';
import { cancelled, tinyImage } from '../../test/adapters/servers.js';

describe('agentwire/ai-sdk with generateText', () => {
  const { fake, env, request } = useAdapterHarness();
  const model = () => createOpenAI({ baseURL: fake.baseURL, apiKey: 'test-key' }).chat('fake-gpt');

  it('offers every tool with its full JSON Schema and hands back results, an isError as a tool error', async () => {
    const { tools, close } = createAISDKTools(env.servers);
    scriptSumAndFail(fake);
    const result = await generateText({
      model: model(),
      tools,
      prompt: 'Add 2 and 40.',
      stopWhen: isStepCount(5),
    });
    close();
    expect(result.text).toBe(SUM_AND_FAIL_ANSWER);
    const first = request(0);
    const sum = first.tools!.find((t) => t.function.name === 'everything__get-sum')!;
    const tool = sumTool(env);
    expect(sum).toEqual({
      type: 'function',
      function: { name: 'everything__get-sum', description: tool.description, parameters: tool.inputSchema },
    });
    expect(first.tools!.length).toBe(env.servers.getTools().length);
    expect(request(1).messages.slice(-2)).toEqual([
      { role: 'tool', tool_call_id: 'call_sum', content: 'The sum of 2 and 40 is 42.' },
      {
        role: 'tool',
        tool_call_id: 'call_fail',
        content: JSON.stringify({
          error: 'MCPToolError: Tool "fail" on MCP server "scripted" failed: disk full',
        }),
      },
    ]);
    const [step] = result.steps;
    expect(step!.content.filter((part) => part.type === 'tool-error').map((part) => part.toolName)).toEqual([
      'scripted__fail',
    ]);
  });

  it('hands an image result to the model as media', async () => {
    const { tools, close } = createAISDKTools(env.servers);
    fake.script(
      { toolCalls: [{ id: 'call_img', name: 'everything__get-tiny-image', input: {} }] },
      { text: 'A tiny image.' },
    );
    await generateText({ model: model(), tools, prompt: 'Show me.', stopWhen: isStepCount(5) });
    close();
    const data = await tinyImage(env.servers);
    expect(request(1).messages.slice(-1)).toEqual([
      {
        role: 'tool',
        tool_call_id: 'call_img',
        // Chat Completions takes no image in a tool message: @ai-sdk/openai sends the parts as JSON.
        content: tinyImageAsJson(data),
      },
    ]);
  });

  it("reflects toolsChanged at the next step, and the AI SDK's abort signal cancels the MCP call", async () => {
    const { tools, close } = createAISDKTools(env.servers);
    const added = { name: 'added', description: 'A new tool', inputSchema: { type: 'object' } };
    fake.script(
      {
        toolCalls: [
          {
            id: 'call_set',
            name: 'scripted__set-tools',
            input: { tools: [added, { name: 'sleep', inputSchema: { type: 'object' } }] },
          },
        ],
      },
      { toolCalls: [{ id: 'call_sleep', name: 'scripted__sleep', input: { ms: 60_000 } }] },
    );
    const controller = new AbortController();
    const run = generateText({
      model: model(),
      tools,
      prompt: 'Go.',
      stopWhen: isStepCount(5),
      abortSignal: controller.signal,
    });
    await env.called('sleep');
    controller.abort(new Error('user stop'));
    await expect(run).rejects.toThrow();
    close();
    const names = request(1).tools!.map((t) => t.function.name);
    expect(names).toContain('scripted__added');
    expect(names).not.toContain('scripted__fail');
    expect(Object.keys(tools)).toContain('scripted__added');
    expect(await cancelled(env, 'sleep')).toEqual([
      { requestId: sleepCallId(env), reason: 'Error: user stop' },
    ]);
  });
});
