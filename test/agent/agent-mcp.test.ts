import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { Agent, AgentAbortError, type AgentEvent } from '../../src/agent/index.js';
import { MCPClient } from '../../src/mcp/index.js';
import { anthropic } from '../../src/providers/index.js';
import { defaultTools } from '../../src/tools/index.js';
import { startFakeAnthropic } from '../fixtures/fake-anthropic.js';
import type { FakeModelServer } from '../fixtures/fake-model-server.js';
import { type EverythingServer, startEverything } from '../fixtures/http-everything.js';
import { collectEvents, messagesOf, offeredToolNames } from './helpers.js';

const everything = {
  command: process.execPath,
  args: ['node_modules/@modelcontextprotocol/server-everything/dist/index.js'],
};

describe('agent with a real MCP server (server-everything over stdio) and built-in tools', () => {
  let fake: FakeModelServer;
  let client: MCPClient;
  let workspace: string;
  beforeAll(async () => {
    fake = await startFakeAnthropic();
    client = MCPClient.fromStdio(everything, { name: 'everything' });
    await client.connect();
    workspace = await mkdtemp(path.join(tmpdir(), 'agentwire-agent-'));
    await writeFile(path.join(workspace, 'notes.txt'), 'remember the milk\n');
  });
  afterAll(async () => {
    await client.disconnect();
    await fake.close();
    await rm(workspace, { recursive: true, force: true });
  });
  beforeEach(() => {
    fake.requests.length = 0;
  });
  const model = () => anthropic({ model: 'claude-test', apiKey: 'k', baseURL: fake.baseURL, maxRetries: 0 });

  it('calls an MCP tool and a built-in tool, gets an error result from a failing tool, and recovers', async () => {
    fake.script(
      {
        text: 'Looking.',
        toolCalls: [
          { id: 'm1', name: 'get-sum', input: { a: 2, b: 40 } },
          { id: 'b1', name: 'read_file', input: { path: 'notes.txt' } },
        ],
      },
      { toolCalls: [{ id: 'b2', name: 'read_file', input: { path: 'missing.txt' } }] },
      { toolCalls: [{ id: 'm2', name: 'echo', input: { message: 'recovered' } }] },
      { text: 'The sum is 42 and you should remember the milk.' },
    );
    const agent = new Agent({ model: model(), tools: defaultTools({ root: workspace, withoutBash: true }) });
    await agent.addMcpServer(client);
    const { events, error } = await collectEvents(agent.prompt('Sum and notes?'));
    expect(error).toBeUndefined();
    const ends = events.filter((e): e is Extract<AgentEvent, { type: 'tool_end' }> => e.type === 'tool_end');
    // Calls of one turn run concurrently, so they may end in any order.
    const byId = [...ends].sort((x, y) => x.toolCallId.localeCompare(y.toolCallId));
    expect(byId.map((e) => [e.toolCallId, e.source, e.isError, e.result])).toEqual([
      ['b1', 'builtin', false, 'remember the milk\n'],
      ['b2', 'builtin', true, 'BuiltinToolError: "missing.txt" does not exist'],
      ['m1', 'everything', false, 'The sum of 2 and 40 is 42.'],
      ['m2', 'everything', false, 'Echo: recovered'],
    ]);
    expect(events.at(-1)).toMatchObject({
      type: 'agent_end',
      result: { text: 'The sum is 42 and you should remember the milk.', turns: 4 },
    });
    const offered = offeredToolNames(fake.requests[0]);
    expect(offered).toContain('get-sum');
    expect(offered).toContain('read_file');
    expect(fake.requests[2]?.messages).toContainEqual({
      role: 'user',
      content: [
        {
          type: 'tool_result',
          tool_use_id: 'b2',
          content: 'BuiltinToolError: "missing.txt" does not exist',
          is_error: true,
        },
      ],
    });
  });

  it('reports an MCP tool error (isError) to the model as an error result', async () => {
    fake.script(
      {
        toolCalls: [
          { id: 'e1', name: 'get-resource-reference', input: { resourceType: 'Text', resourceId: -5 } },
        ],
      },
      { text: 'That id was wrong.' },
    );
    const agent = new Agent({ model: model() });
    await agent.addMcpServer(client);
    const result = await agent.execute('Get resource -5');
    expect(result.text).toBe('That id was wrong.');
    const toolMessage = messagesOf(fake.requests[1])[2];
    expect(toolMessage).toEqual({
      role: 'user',
      content: [
        {
          type: 'tool_result',
          tool_use_id: 'e1',
          content:
            'MCPToolError: Tool "get-resource-reference" on MCP server "everything" failed: ' +
            'Invalid resourceId: -5. Must be a finite positive integer.',
          is_error: true,
        },
      ],
    });
  });

  it('aborts mid-tool: the run rejects promptly, the MCP call is cancelled, and the client stays usable', async () => {
    fake.script({
      toolCalls: [{ id: 'l1', name: 'trigger-long-running-operation', input: { duration: 30, steps: 30 } }],
    });
    const controller = new AbortController();
    const agent = new Agent({ model: model() });
    await agent.addMcpServer(client);
    const seen: AgentEvent[] = [];
    let abortedAt = 0;
    const error = await (async () => {
      for await (const event of agent.prompt('long', { signal: controller.signal })) {
        seen.push(event);
        if (event.type === 'tool_progress' && abortedAt === 0) {
          abortedAt = Date.now();
          controller.abort();
        }
      }
    })().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AgentAbortError);
    expect(Date.now() - abortedAt).toBeLessThan(3_000);
    expect(seen.find((e) => e.type === 'tool_progress')).toMatchObject({
      name: 'trigger-long-running-operation',
      source: 'everything',
      progress: { progress: 1, total: 30 },
    });
    expect(client.isConnected()).toBe(true);
    await expect(client.callTool('echo', { message: 'still here' })).resolves.toMatchObject({
      content: [{ type: 'text', text: 'Echo: still here' }],
    });
  });

  it('starts, uses and stops a stdio server of its own (withMcpServerStdio / close)', async () => {
    fake.script({ toolCalls: [{ id: 'w1', name: 'echo', input: { message: 'own' } }] }, { text: 'done' });
    const agent = new Agent({ model: model() });
    await agent.withMcpServerStdio(everything.command, everything.args, undefined, { name: 'mine' });
    const result = await agent.execute('echo own');
    expect(result.messages[2]).toEqual({
      role: 'tool',
      results: [{ toolCallId: 'w1', name: 'echo', content: 'Echo: own', isError: false }],
    });
    await agent.close();
    expect(agent.getTools().size).toBe(0);
  });
});

describe('agent with a real MCP server over Streamable HTTP', () => {
  let fake: FakeModelServer;
  let server: EverythingServer;
  beforeAll(async () => {
    fake = await startFakeAnthropic();
    server = await startEverything('streamableHttp');
  });
  afterAll(async () => {
    await server.stop();
    await fake.close();
  });

  it('connects with withMcpServerHttp, calls a tool with a server prefix, and disconnects on close()', async () => {
    fake.script(
      { toolCalls: [{ id: 'h1', name: 'web__get-sum', input: { a: 1, b: 2 } }] },
      { text: 'three' },
    );
    const agent = new Agent({
      model: anthropic({ model: 'claude-test', apiKey: 'k', baseURL: fake.baseURL, maxRetries: 0 }),
    });
    await agent.withMcpServerHttp(server.url, { name: 'web', prefix: true });
    const result = await agent.execute('1+2?');
    expect(result.messages[2]).toEqual({
      role: 'tool',
      results: [
        { toolCallId: 'h1', name: 'web__get-sum', content: 'The sum of 1 and 2 is 3.', isError: false },
      ],
    });
    await agent.close();
    expect(agent.getTools().size).toBe(0);
  });
});
