/**
 * Servers connected when needed: a configuration's `lazy` servers are offered from their configured or
 * cached tool lists without being started, and a server starts on the first call or tool-search hit of one
 * of its tools; `deferLoading: false` keeps a tool always offered. Processes are counted from /proc.
 */
import { readdirSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { Agent } from '../../src/agent/index.js';
import { MCPServers, parseServerConfig } from '../../src/mcp/index.js';
import { MCPToolListFileCache, toolListCacheKey } from '../../src/mcp/servers/tool-list-cache.js';
import { anthropic } from '../../src/providers/index.js';
import { startFakeAnthropic } from '../fixtures/fake-anthropic.js';
import { useFakeModelServer } from '../fixtures/use-fake-model-server.js';
import { children, SCRIPTED, tempDir } from '../helpers.js';
import { offeredToolNames } from './helpers.js';

const pad = (i: number) => String(i).padStart(2, '0');
const definition = (i: number) => ({
  name: `tool_${pad(i)}`,
  description: `Tool number ${i}`,
  inputSchema: { type: 'object', properties: {} },
});

/** 30 scripted servers, `s01` … `s30`, each with one tool `tool_NN`, all lazy; `tool_01` always offered. */
function thirtyServers(withToolList = true): Record<string, unknown> {
  const mcpServers: Record<string, unknown> = {};
  for (let i = 1; i <= 30; i += 1) {
    mcpServers[`s${pad(i)}`] = {
      command: process.execPath,
      args: [SCRIPTED],
      env: { FIXTURE_TOOLS: JSON.stringify([definition(i)]) },
      lazy: true,
      ...(withToolList && { toolList: [definition(i)] }),
      ...(i === 1 && { toolOptions: { tool_01: { deferLoading: false } } }),
    };
  }
  return { mcpServers };
}

describe('servers connected when needed', () => {
  const fake = useFakeModelServer(startFakeAnthropic);
  let open: MCPServers | undefined;
  let cacheDir: ReturnType<typeof tempDir> | undefined;
  afterEach(async () => {
    await open?.disconnectAll();
    cacheDir?.remove();
  });
  const model = () => anthropic({ model: 'claude-test', apiKey: 'k', baseURL: fake.baseURL, maxRetries: 0 });
  const running = () => children('scripted-server.mjs').length;

  it('reaches the first model request with none of 30 servers started, then starts one per call or search hit', async () => {
    cacheDir = tempDir('agentwire-tool-lists-');
    const cache = new MCPToolListFileCache(cacheDir.dir);
    const servers = MCPServers.fromConfig(parseServerConfig(thirtyServers()), { toolListCache: cache });
    open = servers;
    const results = await servers.connectAll();
    expect(results.every((r) => r.ok && r.lazy === true)).toBe(true);
    const counts: number[] = [];
    fake.script(
      () => {
        counts.push(running());
        return { toolCalls: [{ id: 'c1', name: 'tool_01', input: {} }] };
      },
      () => {
        counts.push(running());
        return { toolCalls: [{ id: 'c2', name: 'search_tools', input: { query: 'tool_07', limit: 1 } }] };
      },
      () => {
        counts.push(running());
        return { toolCalls: [{ id: 'c3', name: 'tool_07', input: {} }] };
      },
      { text: 'Done.' },
    );
    const agent = new Agent({ model: model() });
    agent.addMcpServers(servers);
    const result = await agent.execute('Use the tools.');
    expect(result.text).toBe('Done.');
    expect(counts).toEqual([0, 1, 2]);
    expect(running()).toBe(2);
    expect(offeredToolNames(fake.requests[0])).toEqual(['search_tools', 'tool_01']);
    expect(offeredToolNames(fake.requests[2])).toEqual(['search_tools', 'tool_01', 'tool_07']);
    const toolResults = fake.requests.slice(1).map((body) => {
      const last = (body.messages as { content: { content: string }[] }[]).at(-1)!;
      return last.content[0]!.content;
    });
    expect(toolResults).toEqual([
      'called tool_01',
      'Loaded 1 tools; call them by name from your next step on:\n- tool_07: Tool number 7 (no parameters)',
      'called tool_07',
    ]);
    expect(
      servers
        .status()
        .filter((s) => s.state === 'connected')
        .map((s) => s.name),
    ).toEqual(['s01', 's07']);
    // Each server that ran left its tool list in the cache, under the hash of its configuration.
    const config = parseServerConfig(thirtyServers());
    const keys = config.servers.filter((e) => e.name === 's01' || e.name === 's07').map(toolListCacheKey);
    expect(readdirSync(cacheDir.dir).sort()).toEqual(keys.map((key) => `${key}.json`).sort());
  });

  it('takes a lazy server’s tools from the cache of its last connect, without starting it', async () => {
    cacheDir = tempDir('agentwire-tool-lists-');
    const cache = new MCPToolListFileCache(cacheDir.dir);
    // A first run: its call of tool_05 starts s05, whose tool list goes to the cache.
    const first = MCPServers.fromConfig(parseServerConfig(thirtyServers()), { toolListCache: cache });
    open = first;
    await first.connectAll();
    expect(
      await first
        .getTools()
        .find((t) => t.name === 'tool_05')!
        .execute({}),
    ).toBe('called tool_05');
    await first.disconnectAll();
    // The next run's configuration lists no tools: only the cache knows s05's.
    const second = MCPServers.fromConfig(parseServerConfig(thirtyServers(false)), { toolListCache: cache });
    open = second;
    await second.connectAll();
    expect(second.getTools().map((t) => [t.source, t.name])).toEqual([['s05', 'tool_05']]);
    expect(running()).toBe(0);
    expect(await second.getTools()[0]!.execute({})).toBe('called tool_05');
    expect(running()).toBe(1);
  });

  it('checks the new configuration keys', () => {
    const config = parseServerConfig({
      mcpServers: {
        a: { command: 'x', lazy: 'yes' },
        b: { command: 'x', toolOptions: { t: { deferLoading: 'no' } } },
        c: { command: 'x', toolList: [{ name: 't' }] },
        d: { command: 'x', lazy: true, deferLoading: false, toolOptions: { t: { deferLoading: true } } },
      },
    });
    expect(config.invalid.map((i) => i.error.message)).toEqual([
      'config <inline>: server "a": "lazy" must be true or false',
      'config <inline>: server "b": "toolOptions.t.deferLoading" must be true or false',
      'config <inline>: server "c": "toolList[0].inputSchema" must be a JSON Schema object',
    ]);
    expect(config.servers[0]).toMatchObject({
      name: 'd',
      lazy: true,
      deferLoading: false,
      toolOptions: { t: { deferLoading: true } },
    });
  });
});
