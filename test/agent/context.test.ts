/**
 * What reaches the model of a turn, through both providers' real wire formats (the fake vendor servers):
 * tool results held to the budget, a JSON-RPC error's data, a tool announced by list_changed, server
 * instructions, model timeouts, and the history after a failed run.
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { Agent, type AgentOptions } from '../../src/agent/index.js';
import { MCPClient } from '../../src/mcp/index.js';
import { anthropic, type Model, ModelError, openai } from '../../src/providers/index.js';
import { startFakeAnthropic } from '../fixtures/fake-anthropic.js';
import type { FakeModelServer } from '../fixtures/fake-model-server.js';
import { startFakeOpenAI } from '../fixtures/fake-openai.js';
import { useFakeModelServer } from '../fixtures/use-fake-model-server.js';
import { FILESYSTEM, ROOT, tempDir, waitUntil } from '../helpers.js';
import { offeredToolNames } from './helpers.js';

const CONTEXT_SERVER = path.join(ROOT, 'test', 'agent', 'fixtures', 'context-server.mjs');

interface Provider {
  name: 'anthropic' | 'openai';
  start: () => Promise<FakeModelServer>;
  model: (baseURL: string) => Model;
  /** The tool results of a request body, in order, as the vendor sees them. */
  toolResults: (
    body: Record<string, unknown> | undefined,
  ) => { id: string; content: string; isError?: boolean }[];
  /** The system prompt of a request body. */
  system: (body: Record<string, unknown> | undefined) => unknown;
  /** The tool names offered in a request body. */
  offered: (body: Record<string, unknown> | undefined) => string[];
  /** The conversation of a request body, without the system prompt. */
  conversation: (body: Record<string, unknown> | undefined) => unknown[];
}

type Body = Record<string, unknown> | undefined;
const list = (body: Body): Record<string, unknown>[] =>
  Array.isArray(body?.messages) ? (body.messages as Record<string, unknown>[]) : [];

const PROVIDERS: Provider[] = [
  {
    name: 'anthropic',
    start: startFakeAnthropic,
    model: (baseURL) => anthropic({ model: 'claude-test', apiKey: 'k', baseURL, maxRetries: 0 }),
    toolResults: (body) =>
      list(body).flatMap((m) =>
        Array.isArray(m.content)
          ? (m.content as Record<string, unknown>[])
              .filter((b) => b.type === 'tool_result')
              .map((b) => ({
                id: String(b.tool_use_id),
                content: String(b.content),
                isError: b.is_error === true,
              }))
          : [],
      ),
    system: (body) => body?.system,
    offered: offeredToolNames,
    conversation: list,
  },
  {
    name: 'openai',
    start: startFakeOpenAI,
    model: (baseURL) => openai({ model: 'gpt-test', apiKey: 'k', baseURL, maxRetries: 0 }),
    toolResults: (body) =>
      list(body)
        .filter((m) => m.role === 'tool')
        .map((m) => ({ id: String(m.tool_call_id), content: String(m.content) })),
    system: (body) => list(body).find((m) => m.role === 'system')?.content,
    offered: (body) =>
      Array.isArray(body?.tools)
        ? body.tools.map((t: { function: { name: string } }) => t.function.name)
        : [],
    conversation: (body) => list(body).filter((m) => m.role !== 'system'),
  },
];

/** `line 000001\n` … as the fixture's `big` tool sends them. */
function bigText(bytes: number): string {
  let out = '';
  for (let n = 1; out.length < bytes; n += 1) out += `line ${String(n).padStart(6, '0')}\n`;
  return out.slice(0, bytes);
}

describe.each(PROVIDERS)('the model context ($name wire format)', (provider) => {
  const fake = useFakeModelServer(provider.start);
  const clients: MCPClient[] = [];
  afterEach(async () => {
    await Promise.all(clients.splice(0).map((c) => c.disconnect()));
  });

  async function agentWithServer(options: Partial<AgentOptions> = {}, env: Record<string, string> = {}) {
    const client = MCPClient.fromStdio(
      { command: process.execPath, args: [CONTEXT_SERVER], env },
      { name: 'ctx' },
    );
    clients.push(client);
    const agent = new Agent({ model: provider.model(fake.baseURL), ...options });
    await agent.addMcpServer(client);
    return agent;
  }

  /** The error prefix the OpenAI adapter puts on failed results (Chat Completions has no error flag). */
  const errorText = (text: string) => (provider.name === 'openai' ? `Error: ${text}` : text);

  it('holds a large result to the budget: the start, the end, and a notice of what was cut', async () => {
    fake.script({ toolCalls: [{ id: 'c1', name: 'big', input: { bytes: 110_000 } }] }, { text: 'done' });
    const agent = await agentWithServer({ maxToolResultBytesByTool: { big: 2_000 } });
    await agent.execute('read it');
    const [result] = provider.toolResults(fake.requests[1]);
    const full = bigText(110_000);
    // 12-byte lines: 1 416 bytes are lines 1 to 118, the last 356 bytes lines 9 138 to 9 167. `bytes` is a
    // size, not a part of the output, so there is no argument to name.
    const notice =
      '[agentwire cut 108,228 of 110,000 bytes here (lines 119 to 9,137 of 9,167). The result is over the ' +
      '2,000 byte budget for tool results. big has no argument to ask for a part; narrow the request if you ' +
      'need the cut part.]';
    expect(result?.id).toBe('c1');
    expect(result?.content).toBe(`${full.slice(0, 1_416)}${notice}\n${full.slice(110_000 - 356)}`);
    expect(Buffer.byteLength(result?.content ?? '')).toBeLessThanOrEqual(2_000);
  });

  it('passes a JSON-RPC error with its data to the model', async () => {
    fake.script({ toolCalls: [{ id: 'e1', name: 'bad', input: {} }] }, { text: 'ok' });
    const agent = await agentWithServer();
    await agent.execute('try it');
    expect(provider.toolResults(fake.requests[1])).toEqual([
      {
        id: 'e1',
        content: errorText(
          'MCPCallError: MCP server "ctx": tools/call "bad" failed: server returned JSON-RPC error -32602: bad args (data: {"field":"x","hint":"use y"})',
        ),
        ...(provider.name === 'anthropic' ? { isError: true } : {}),
      },
    ]);
  });

  it('offers a tool announced by tools/list_changed on the very next turn', async () => {
    fake.script(
      { toolCalls: [{ id: 'a1', name: 'add-tool', input: {} }] },
      { toolCalls: [{ id: 'n1', name: 'new-tool', input: {} }] },
      { text: 'done' },
    );
    const agent = await agentWithServer();
    await agent.execute('add a tool and use it');
    expect(provider.offered(fake.requests[0])).toEqual(['bad', 'add-tool', 'big', 'image']);
    expect(provider.offered(fake.requests[1])).toEqual(['bad', 'add-tool', 'big', 'image', 'new-tool']);
    expect(provider.toolResults(fake.requests[2]).map((r) => r.content)).toEqual([
      'added new-tool',
      'new tool ran',
    ]);
  });

  it("puts the servers' instructions in the system prompt, after the user's", async () => {
    fake.script({ text: 'ok' });
    const agent = await agentWithServer(
      { systemPrompt: 'Be brief.' },
      { CONTEXT_INSTRUCTIONS: 'Call big with small sizes.' },
    );
    await agent.execute('hi');
    expect(provider.system(fake.requests[0])).toBe(
      'Be brief.\n\nInstructions from MCP server "ctx":\nCall big with small sizes.',
    );
  });

  it('never sends base64 as text, nor a structuredContent that mirrors the blocks', async () => {
    fake.script({ toolCalls: [{ id: 'i1', name: 'image', input: {} }] }, { text: 'ok' });
    const agent = await agentWithServer();
    await agent.execute('show it');
    expect(provider.toolResults(fake.requests[1]).map((r) => r.content)).toEqual([
      '[image content: image/png, 2.9 KB]',
    ]);
  });

  it('times out a stalled stream (idle) and an endless one (request), naming the provider', async () => {
    fake.script({ hang: true, text: 'thinking' }, { hang: true, text: 'still' });
    const abortedBefore = fake.abortedStreams;
    const idle = new Agent({ model: provider.model(fake.baseURL), modelIdleTimeoutMs: 300 });
    const idleError = await idle.execute('think').catch((e: unknown) => e);
    expect(idleError).toBeInstanceOf(ModelError);
    expect(idleError).toMatchObject({
      kind: 'timeout',
      provider: provider.name,
      timeout: 'idle',
      timeoutMs: 300,
      message: `${provider.name} request timed out: the stream sent nothing for 300 ms (idleTimeoutMs)`,
    });
    const total = new Agent({ model: provider.model(fake.baseURL), modelRequestTimeoutMs: 400 });
    const totalError = await total.execute('think').catch((e: unknown) => e);
    expect(totalError).toMatchObject({
      kind: 'timeout',
      provider: provider.name,
      timeout: 'request',
      timeoutMs: 400,
      message: `${provider.name} request timed out: the request took longer than 400 ms (requestTimeoutMs)`,
    });
    // Both streams were given up on: the fake saw each client go away.
    await waitUntil(() => fake.abortedStreams >= abortedBefore + 2, 5_000, 'both streams closed');
  });

  it('leaves the history as it was after a failed run: the next run has no two user messages in a row', async () => {
    fake.script(
      { text: 'Hi Ada.' },
      { status: 400, body: { error: { message: 'no' } } },
      { text: 'You are Ada.' },
    );
    const agent = new Agent({ model: provider.model(fake.baseURL) });
    await agent.execute('I am Ada.');
    const before = [...agent.messages];
    await expect(agent.execute('fails')).rejects.toBeInstanceOf(ModelError);
    expect(agent.messages).toEqual(before);
    await agent.execute('Who am I?');
    const user = (text: string) => ({ role: 'user', content: text });
    const said =
      provider.name === 'anthropic'
        ? { role: 'assistant', content: [{ type: 'text', text: 'Hi Ada.' }] }
        : { role: 'assistant', content: 'Hi Ada.' };
    expect(provider.conversation(fake.requests[2])).toEqual([user('I am Ada.'), said, user('Who am I?')]);
  });
});

describe.each(PROVIDERS)('history after an aborted run ($name wire format)', (provider) => {
  const fake = useFakeModelServer(provider.start);

  it('takes back a prompt the model never answered', async () => {
    fake.script({ text: 'Hi Ada.' }, { hang: true, text: 'Let me' }, { text: 'You are Ada.' });
    const agent = new Agent({ model: provider.model(fake.baseURL) });
    await agent.execute('I am Ada.');
    const before = [...agent.messages];
    const controller = new AbortController();
    const hanging = fake.hanging();
    const run = agent.execute('think', { signal: controller.signal });
    await hanging;
    controller.abort();
    await expect(run).rejects.toMatchObject({ name: 'AbortError', kind: 'aborted' });
    expect(agent.messages).toEqual(before);
  });
});

describe.each(PROVIDERS)('server-filesystem results within the budget ($name wire format)', (provider) => {
  const fake = useFakeModelServer(provider.start);
  const workspace = tempDir('agentwire-context-');
  let client: MCPClient;
  beforeAll(async () => {
    // 6.4 MB of text and a 110 KB "PNG" (server-filesystem goes by the extension).
    writeFileSync(path.join(workspace.dir, 'big.txt'), bigText(6_400_000));
    writeFileSync(path.join(workspace.dir, 'picture.png'), Buffer.alloc(110_000, 3));
    client = MCPClient.fromStdio(
      { command: process.execPath, args: [FILESYSTEM, workspace.dir] },
      { name: 'fs' },
    );
    await client.connect();
  });
  afterAll(async () => {
    await client.disconnect();
    workspace.remove();
  });

  it('read_text_file of a 6.4 MB file reaches the model within the default budget, naming head and tail', async () => {
    const file = path.join(workspace.dir, 'big.txt');
    fake.script({ toolCalls: [{ id: 'r1', name: 'read_text_file', input: { path: file } }] }, { text: 'ok' });
    const agent = new Agent({ model: provider.model(fake.baseURL) });
    await agent.addMcpServer(client);
    await agent.execute('read big.txt');
    const [result] = provider.toolResults(fake.requests[1]);
    const content = result?.content ?? '';
    expect(Buffer.byteLength(content)).toBeLessThanOrEqual(100_000);
    // 12-byte lines: the start keeps lines 1 to 6 649 (79 788 bytes), the end 531 672 to the last, partial one.
    const full = bigText(6_400_000);
    const notice =
      '[agentwire cut 6,300,264 of 6,400,000 bytes here (lines 6,650 to 531,671 of 533,334). The result is over the 100,000 byte ' +
      'budget for tool results. To read the cut part, call read_text_file again with its "tail", "head" ' +
      'arguments to ask for a part.]';
    expect(content).toBe(`${full.slice(0, 79_788)}${notice}\n${full.slice(6_400_000 - 19_948)}`);
    // The whole request stays small enough for any vendor API.
    expect(Buffer.byteLength(JSON.stringify(fake.requests[1]))).toBeLessThan(120_000);
  });

  it('read_media_file of a 110 KB PNG reaches the model as its placeholder alone', async () => {
    const file = path.join(workspace.dir, 'picture.png');
    fake.script(
      { toolCalls: [{ id: 'm1', name: 'read_media_file', input: { path: file } }] },
      { text: 'ok' },
    );
    const agent = new Agent({ model: provider.model(fake.baseURL) });
    await agent.addMcpServer(client);
    await agent.execute('show picture.png');
    expect(provider.toolResults(fake.requests[1]).map((r) => r.content)).toEqual([
      '[image content: image/png, 107.4 KB]',
    ]);
  });
});
