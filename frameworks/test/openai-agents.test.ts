/**
 * `agentwire/openai-agents` in the SDK's own loop: an `Agent` with the adapter as its MCP server, run by
 * the SDK's `Runner` with its OpenAI provider (Chat Completions) pointed at a scripted local API, calling
 * real MCP servers.
 */
import { Agent, OpenAIProvider, Runner } from '@openai/agents';
import { describe, expect, it } from 'vitest';
import { agentwireMCPServer } from '../../src/adapters/openai-agents.js';
import {
  SUM_AND_FAIL_ANSWER,
  scriptSumAndFail,
  sleepCallId,
  sumTool,
  useAdapterHarness,
} from '../../test/adapters/harness.js';
import { cancelled, tinyImage } from '../../test/adapters/servers.js';

describe('agentwire/openai-agents with run()', () => {
  const { fake, env, request } = useAdapterHarness();
  const runner = () =>
    new Runner({
      modelProvider: new OpenAIProvider({ apiKey: 'test-key', baseURL: fake.baseURL, useResponses: false }),
      tracingDisabled: true,
    });
  const agent = () =>
    new Agent({
      name: 'helper',
      instructions: 'Help.',
      model: 'fake-gpt',
      mcpServers: [agentwireMCPServer(env.servers)],
    });

  it('offers every tool with its JSON Schema and hands back results, an isError as the SDK’s tool failure', async () => {
    scriptSumAndFail(fake, '_');
    const result = await runner().run(agent(), 'Add 2 and 40.');
    expect(result.finalOutput).toBe(SUM_AND_FAIL_ANSWER);
    const first = request(0);
    const tool = sumTool(env);
    // The SDK's own conversion: `-` becomes `_` in function names, and an open object says so.
    expect(first.tools!.find((t) => t.function.name === 'everything__get_sum')).toEqual({
      type: 'function',
      function: {
        name: 'everything__get_sum',
        description: tool.description,
        parameters: { ...tool.inputSchema, additionalProperties: true },
        strict: false,
      },
    });
    expect(first.tools!.length).toBe(env.servers.getTools().length);
    expect(request(1).messages.slice(-2)).toEqual([
      { role: 'tool', tool_call_id: 'call_sum', content: 'The sum of 2 and 40 is 42.' },
      {
        role: 'tool',
        tool_call_id: 'call_fail',
        content: 'MCPToolError: Tool "fail" on MCP server "scripted" failed: disk full',
      },
    ]);
  });

  it('hands an image result to the SDK as an input_image', async () => {
    fake.script(
      { toolCalls: [{ id: 'call_img', name: 'everything__get_tiny_image', input: {} }] },
      { text: 'A tiny image.' },
    );
    const result = await runner().run(agent(), 'Show me.');
    const data = await tinyImage(env.servers);
    const output = result.newItems.find((item) => item.type === 'tool_call_output_item')!.rawItem as {
      output: unknown;
    };
    expect(output.output).toEqual([
      { type: 'input_text', text: "Here's the image you requested:" },
      { type: 'input_image', image: `data:image/png;base64,${data}` },
      { type: 'input_text', text: 'The image above is the MCP logo.' },
    ]);
    // The SDK's Chat Completions model sends a tool message's text only (the Responses API takes the image).
    expect(request(1).messages.slice(-1)).toEqual([
      {
        role: 'tool',
        tool_call_id: 'call_img',
        content: "Here's the image you requested:The image above is the MCP logo.",
      },
    ]);
  });

  it('reflects toolsChanged at the next turn, and the run’s abort signal cancels the MCP call', async () => {
    const added = { name: 'added', description: 'A new tool', inputSchema: { type: 'object' } };
    const sleep = { name: 'sleep', inputSchema: { type: 'object', properties: { ms: { type: 'number' } } } };
    fake.script(
      { toolCalls: [{ id: 'call_set', name: 'scripted__set_tools', input: { tools: [added, sleep] } }] },
      { toolCalls: [{ id: 'call_sleep', name: 'scripted__sleep', input: { ms: 60_000 } }] },
    );
    const controller = new AbortController();
    const run = runner().run(agent(), 'Go.', { signal: controller.signal });
    await env.called('sleep');
    controller.abort(new Error('user stop'));
    await expect(run).rejects.toThrow();
    const names = request(1).tools!.map((t) => t.function.name);
    expect(names).toContain('scripted__added');
    expect(names).not.toContain('scripted__fail');
    expect(await cancelled(env, 'sleep')).toEqual([
      { requestId: sleepCallId(env), reason: 'Error: user stop' },
    ]);
  });
});
