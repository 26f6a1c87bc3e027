import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Agent, type AgentEvent, type McpServerHandle } from '../../src/agent/index.js';
import type { Tool } from '../../src/core/tool.js';
import { anthropic, ModelError } from '../../src/providers/index.js';
import { startFakeAnthropic } from '../fixtures/fake-anthropic.js';
import type { FakeModelServer } from '../fixtures/fake-model-server.js';
import { useFakeModelServer } from '../fixtures/use-fake-model-server.js';
import { localTool, offeredToolNames } from './helpers.js';

/** A stand-in MCP client whose tool list the test changes, as a `toolsChanged` refresh would. */
function stubServer(name: string, tools: Tool[]): McpServerHandle & { tools: Tool[]; connects: number } {
  let connected = false;
  const stub = {
    name,
    tools,
    connects: 0,
    connect: async () => {
      stub.connects += 1;
      connected = true;
    },
    disconnect: async () => {
      connected = false;
    },
    isConnected: () => connected,
    getTools: () => (connected ? stub.tools : []),
  };
  return stub as unknown as McpServerHandle & { tools: Tool[]; connects: number };
}

describe('MCP servers attached to an agent', () => {
  const fake = useFakeModelServer(startFakeAnthropic);
  const model = () => anthropic({ model: 'claude-test', apiKey: 'k', baseURL: fake.baseURL, maxRetries: 0 });

  it('connects a server that is not connected, once', async () => {
    const server = stubServer('srv', [localTool('ping', () => 'pong', undefined, 'srv')]);
    const agent = new Agent({ model: model() });
    await agent.addMcpServer(server);
    await agent.addMcpServer(server);
    expect(server.connects).toBe(1);
    expect([...agent.getTools().keys()]).toEqual(['ping']);
  });

  it("offers the server's new tool list on the next turn after it changes", async () => {
    const server = stubServer('srv', [localTool('v1', () => 'one', undefined, 'srv')]);
    const agent = new Agent({ model: model() });
    await agent.addMcpServer(server);
    fake.script(
      (body) => {
        // The list changes while the model is answering, as a notifications/tools/list_changed would.
        server.tools = [localTool('v2', () => 'two', undefined, 'srv')];
        return { toolCalls: [{ id: 'x', name: offeredToolNames(body)[0] ?? 'none' }] };
      },
      { text: 'ok' },
    );
    await agent.execute('go');
    expect(offeredToolNames(fake.requests[0])).toEqual(['v1']);
    expect(offeredToolNames(fake.requests[1])).toEqual(['v2']);
    // A call is resolved against the tools the model was offered in its turn.
    expect(agent.messages[2]).toEqual({
      role: 'tool',
      results: [{ toolCallId: 'x', name: 'v1', content: 'one', isError: false }],
    });
  });

  it("prefixes a server's tools with its name or a given prefix", async () => {
    const agent = new Agent({ model: model() });
    await agent.addMcpServer(stubServer('git.hub', [localTool('search', () => '', undefined, 'git.hub')]), {
      prefix: true,
    });
    await agent.addMcpServer(stubServer('db', [localTool('search', () => '', undefined, 'db')]), {
      prefix: 'sql',
    });
    expect([...agent.getTools().keys()]).toEqual(['git_hub__search', 'sql__search']);
  });

  it('detaches a server with removeMcpServer', async () => {
    const server = stubServer('srv', [localTool('ping', () => 'pong', undefined, 'srv')]);
    const agent = new Agent({ model: model() });
    await agent.addMcpServer(server);
    agent.removeMcpServer(server);
    expect(agent.getTools().size).toBe(0);
  });
});

describe('run failures', () => {
  let fake: FakeModelServer;
  beforeAll(async () => {
    fake = await startFakeAnthropic();
  });
  afterAll(() => fake.close());
  const model = () => anthropic({ model: 'claude-test', apiKey: 'k', baseURL: fake.baseURL, maxRetries: 0 });

  it('ends the event stream with an error event and rejects with the ModelError when the provider fails', async () => {
    fake.script({
      status: 500,
      body: { type: 'error', error: { type: 'api_error', message: 'overloaded' } },
    });
    const agent = new Agent({ model: model() });
    const seen: AgentEvent[] = [];
    const error = await (async () => {
      for await (const event of agent.prompt('hi')) seen.push(event);
    })().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ModelError);
    expect((error as ModelError).status).toBe(500);
    expect(seen.map((e) => e.type)).toEqual(['agent_start', 'turn_start', 'error']);
    expect(seen[2]).toEqual({ type: 'error', error });
  });

  it('aborts the run when the consumer leaves the event stream early', async () => {
    let toolSignal: AbortSignal | undefined;
    const waits = localTool('waits', (_input, context) => {
      toolSignal = context.signal;
      return new Promise(() => {});
    });
    fake.script({ toolCalls: [{ id: 'w', name: 'waits' }] });
    const agent = new Agent({ model: model(), tools: [waits] });
    for await (const event of agent.prompt('go')) {
      if (event.type === 'tool_start') break;
    }
    expect(toolSignal?.aborted).toBe(true);
    await expect(agent.execute('again')).rejects.toBeInstanceOf(ModelError); // no scripted reply: a fresh run starts
  });
});
