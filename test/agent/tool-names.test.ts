import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Agent, AgentError } from '../../src/agent/index.js';
import { mapToolNames, PROVIDER_TOOL_NAME, toProviderToolName } from '../../src/agent/tool-names.js';
import { anthropic } from '../../src/providers/index.js';
import { startFakeAnthropic } from '../fixtures/fake-anthropic.js';
import type { FakeModelServer } from '../fixtures/fake-model-server.js';
import { localTool, offeredToolNames } from './helpers.js';

describe('tool name mapping', () => {
  it('keeps valid names and maps dots, slashes and other characters to underscores', () => {
    expect(toProviderToolName('get-sum')).toBe('get-sum');
    expect(toProviderToolName('fs.read/file')).toBe('fs_read_file');
    expect(toProviderToolName('überTool')).toBe('_berTool');
  });

  it('cuts names over 64 characters to 55 plus a hash of the whole name, deterministically', () => {
    const long = `${'a'.repeat(70)}`;
    const other = `${'a'.repeat(69)}b`;
    expect(toProviderToolName(long)).toBe(toProviderToolName(long));
    expect(toProviderToolName(long)).toHaveLength(64);
    expect(toProviderToolName(long).slice(0, 56)).toBe(`${'a'.repeat(55)}_`);
    expect(toProviderToolName(long)).not.toBe(toProviderToolName(other));
    expect(toProviderToolName(long)).toMatch(PROVIDER_TOOL_NAME);
  });

  it('tells apart names that map to the same one, whatever their order, and stays reversible', () => {
    const forward = mapToolNames(['a.b', 'a_b', 'a/b']);
    const backward = mapToolNames(['a/b', 'a_b', 'a.b']);
    expect(forward.get('a_b')).toBe('a_b');
    expect(forward.get('a.b')).toMatch(/^a_b_[0-9a-f]{8}$/);
    expect(forward.get('a/b')).toMatch(/^a_b_[0-9a-f]{8}$/);
    expect(new Set(forward.values()).size).toBe(3);
    expect([...forward]).toEqual(expect.arrayContaining([...backward]));
    for (const name of forward.values()) expect(name).toMatch(PROVIDER_TOOL_NAME);
  });
});

describe('tool names in a run', () => {
  let fake: FakeModelServer;
  beforeAll(async () => {
    fake = await startFakeAnthropic();
  });
  afterAll(() => fake.close());
  const model = () => anthropic({ model: 'claude-test', apiKey: 'k', baseURL: fake.baseURL, maxRetries: 0 });

  it('offers a mapped name and runs the original tool when the model calls it (round trip)', async () => {
    const calls: string[] = [];
    const dotted = localTool('files.read', (input) => {
      calls.push(JSON.stringify(input));
      return 'contents';
    });
    fake.script({ toolCalls: [{ id: 'r1', name: 'files_read', input: { path: 'x' } }] }, { text: 'ok' });
    const agent = new Agent({ model: model(), tools: [dotted] });
    const { messages } = await agent.execute('read');
    expect(offeredToolNames(fake.requests.at(-2))).toEqual(['files_read']);
    expect(calls).toEqual(['{"path":"x"}']);
    expect(messages[2]).toEqual({
      role: 'tool',
      results: [{ toolCallId: 'r1', name: 'files_read', content: 'contents', isError: false }],
    });
  });

  it('prefixes clashing names with their source and never shadows one with another', () => {
    const a = localTool('search', () => 'a', undefined, 'github');
    const b = localTool('search', () => 'b', undefined, 'builtin');
    const agent = new Agent({ model: model(), tools: [a, b] });
    const tools = agent.getTools();
    expect([...tools.keys()]).toEqual(['github__search', 'builtin__search']);
    expect(tools.get('github__search')).toBe(a);
    expect(tools.get('builtin__search')).toBe(b);
  });

  it('prefixes every sourced tool with toolNamePrefix "always"', () => {
    const agent = new Agent({
      model: model(),
      toolNamePrefix: 'always',
      tools: [localTool('echo', () => '', undefined, 'my.server'), localTool('mine', () => '')],
    });
    expect([...agent.getTools().keys()]).toEqual(['my_server__echo', 'mine']);
  });

  it('refuses a clash with toolNamePrefix "none", naming both tools', () => {
    const agent = new Agent({
      model: model(),
      toolNamePrefix: 'none',
      tools: [localTool('echo', () => '', undefined, 'one')],
    });
    let error: unknown;
    try {
      agent.addTools(localTool('echo', () => '', undefined, 'two'));
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(AgentError);
    expect((error as AgentError).kind).toBe('tool_name_collision');
    expect((error as AgentError).message).toBe(
      'tool "echo" from two skipped: its name "echo" is already taken by "echo" from one (use a server prefix or toolNamePrefix)',
    );
    expect([...agent.getTools().keys()]).toEqual(['echo']);
  });

  it('skips a tool whose schema the provider cannot take, with one warning, and keeps the others', async () => {
    const warnings: string[] = [];
    const bad = localTool('scalar', () => '', { type: 'string' });
    const good = localTool('fine', () => 'ok');
    fake.script({ text: 'a' }, { text: 'b' });
    const agent = new Agent({
      model: model(),
      tools: [bad, good],
      onWarning: (w) => warnings.push(w.message),
    });
    await agent.execute('one');
    await agent.execute('two');
    expect(offeredToolNames(fake.requests.at(-1))).toEqual(['fine']);
    expect(warnings).toEqual([
      'tool "scalar" from local skipped: its input schema cannot be used with anthropic: root schema has type "string"; tools take an object',
    ]);
  });
});
