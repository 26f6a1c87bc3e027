/**
 * A tool name carries its server's name at most once, whichever layer adds it: `MCPServers.getTools({
 * prefix: true })`, the agent's `toolNamePrefix` policy, or `addMcpServer(server, { prefix })`. Each test is
 * one way the two layers could stack (`my_scripted__my_scripted__echo`).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Agent, type McpServerHandle } from '../../src/agent/index.js';
import { parseServerConfig } from '../../src/mcp/config/load.js';
import { MCPPrefixedTool, MCPServers } from '../../src/mcp/servers/servers.js';
import { anthropic } from '../../src/providers/index.js';
import { SCRIPTED } from '../helpers.js';
import { localTool } from './helpers.js';

/** Never called: `agent.getTools()` only asks the adapter to normalise schemas. */
const model = () =>
  anthropic({ model: 'claude-test', apiKey: 'k', baseURL: 'http://127.0.0.1:9', maxRetries: 0 });

describe('a server prefix is added once', () => {
  let servers: MCPServers;
  beforeAll(async () => {
    const entry = { command: process.execPath, args: [SCRIPTED], allowTools: ['echo', 'fail'] };
    servers = MCPServers.fromConfig(parseServerConfig({ mcpServers: { 'my.scripted': entry } }));
    expect((await servers.connectAll()).map((result) => result.ok)).toEqual([true]);
  });
  afterAll(() => servers.disconnectAll());

  /** `servers` as one server handle offering its tools under their prefixed names. */
  const handleOf = (name: string) =>
    // The handle type promises `MCPTool`s; a JavaScript caller (or a loose cast) can hand prefixed ones.
    ({
      name,
      connect: async () => {},
      disconnect: () => servers.disconnectAll(),
      isConnected: () => true,
      getTools: () => servers.getTools({ prefix: true }),
    }) as unknown as McpServerHandle;

  it('spells a name the same whether MCPServers or the agent prefixes it', () => {
    const byAgent = new Agent({ model: model(), toolNamePrefix: 'always', tools: servers.getTools() });
    const byServers = servers.getTools({ prefix: true }).map((tool) => tool.name);
    expect(byServers).toEqual(['my_scripted__echo', 'my_scripted__fail']);
    expect([...byAgent.getTools().keys()]).toEqual(byServers);
  });

  it('keeps MCPServers prefixed names under toolNamePrefix "always"', () => {
    const tools = servers.getTools({ prefix: true });
    const agent = new Agent({ model: model(), toolNamePrefix: 'always', tools });
    expect([...agent.getTools()]).toEqual([
      ['my_scripted__echo', tools[0]],
      ['my_scripted__fail', tools[1]],
    ]);
  });

  it('keeps the name of a copy of a prefixed tool (a wrapper spreading it) under "always"', async () => {
    const [echo] = servers.getTools({ prefix: true });
    const calls: string[] = [];
    const wrapped = {
      ...echo!,
      execute: (input: Record<string, unknown>) => {
        calls.push(JSON.stringify(input));
        return echo!.execute(input);
      },
    };
    expect(wrapped).not.toBeInstanceOf(MCPPrefixedTool);
    expect(wrapped.namePrefix).toBe('my_scripted');
    const agent = new Agent({ model: model(), toolNamePrefix: 'always', tools: [wrapped] });
    expect([...agent.getTools()]).toEqual([['my_scripted__echo', wrapped]]);
    expect(await agent.getTools().get('my_scripted__echo')!.execute({ text: 'hi' })).toBe('echo: hi');
    expect(calls).toEqual(['{"text":"hi"}']);
  });

  it('does not prefix a prefixed name again when it clashes with another source ("on-collision")', () => {
    const local = localTool('my_scripted__echo', () => 'local');
    const tools = servers.getTools({ prefix: true });
    const agent = new Agent({ model: model(), tools: [...tools, local] });
    expect([...agent.getTools()]).toEqual([
      ['my_scripted__echo', tools[0]],
      ['my_scripted__fail', tools[1]],
      ['local__my_scripted__echo', local],
    ]);
  });

  it('does not add a handle prefix to tools that carry their server prefix', async () => {
    const agent = new Agent({ model: model() });
    await agent.addMcpServer(handleOf('all'), { prefix: true });
    expect([...agent.getTools().keys()]).toEqual(['my_scripted__echo', 'my_scripted__fail']);
    const named = new Agent({ model: model() });
    await named.addMcpServer(handleOf('other'), { prefix: 'sql' });
    expect([...named.getTools().keys()]).toEqual(['my_scripted__echo', 'my_scripted__fail']);
  });

  it('does not apply toolNamePrefix "always" to the prefixed tools of a handle', async () => {
    const agent = new Agent({ model: model(), toolNamePrefix: 'always' });
    await agent.addMcpServer(handleOf('all'));
    expect([...agent.getTools().keys()]).toEqual(['my_scripted__echo', 'my_scripted__fail']);
  });

  it('prefixes a client of MCPServers attached as a server once, beside its prefixed tools', async () => {
    const tools = servers.getTools({ prefix: true });
    const agent = new Agent({ model: model(), toolNamePrefix: 'always', tools });
    await agent.addMcpServer(servers.get('my.scripted')!, { prefix: true });
    // The client (unfiltered: the filter is MCPServers') claims the names its prefixed tools already hold for
    // echo and fail: those two are skipped as a clash, not renamed.
    const offered = [...agent.getTools()];
    expect(offered.map(([name]) => name)).toEqual([
      'my_scripted__echo',
      'my_scripted__fail',
      'my_scripted__sleep',
      'my_scripted__exit',
      'my_scripted__set-tools',
    ]);
    expect(offered.map(([, tool]) => tool instanceof MCPPrefixedTool)).toEqual([
      true,
      true,
      false,
      false,
      false,
    ]);
  });
});
