// biome-ignore-all lint/suspicious/noTemplateCurlyInString: the strings are configuration-file ${…} references.
import { randomUUID } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { MCPClient } from '../../../src/mcp/client/client.js';
import { parseServerConfig } from '../../../src/mcp/config/load.js';
import { toolFilter } from '../../../src/mcp/config/tool-filter.js';
import { MCPCallError, MCPConfigError, MCPToolError } from '../../../src/mcp/protocol/errors.js';
import {
  MCPPrefixedTool,
  type MCPServerConnectResult,
  MCPServers,
  type MCPServersEvents,
} from '../../../src/mcp/servers/servers.js';
import { EVERYTHING, EVERYTHING_TOOLS, MEMORY, SCRIPTED, tempDir, waitUntil } from '../../helpers.js';

/** Process ids whose environment holds `marker` (how the test finds the servers it started). */
function processesWith(marker: string): string[] {
  return readdirSync('/proc')
    .filter((entry) => /^\d+$/.test(entry) && Number(entry) !== process.pid)
    .filter((pid) => {
      try {
        return readFileSync(`/proc/${pid}/environ`, 'utf8').includes(marker);
      } catch {
        return false; // exited while we looked, or not ours to read
      }
    });
}

/** A config with two real servers and two broken ones, each tagged with `marker` in its environment. */
function fourServers(marker: string, memoryFile: string) {
  return parseServerConfig(
    {
      mcpServers: {
        everything: { command: process.execPath, args: [EVERYTHING], env: { MARKER: '${MARKER}' } },
        memory: {
          command: process.execPath,
          args: [MEMORY],
          env: { MARKER: '${MARKER}', MEMORY_FILE_PATH: memoryFile },
          allowTools: ['*_entities', 'read_graph', 'search_*'],
          blockTools: ['delete_*'],
        },
        missing: { command: '/nonexistent/agentwire-no-such-server' },
        exits: { command: process.execPath, args: ['-e', 'process.exit(3)'], env: { MARKER: '${MARKER}' } },
      },
    },
    { env: { MARKER: marker } },
  );
}

describe('MCPServers with two real servers, one missing command and one that exits at once', () => {
  const marker = `agentwire-servers-${randomUUID()}`;
  const temp = tempDir();
  let servers: MCPServers;
  let results: MCPServerConnectResult[];

  beforeAll(async () => {
    servers = MCPServers.fromConfig(fourServers(marker, `${temp.dir}/memory.json`));
    results = await servers.connectAll();
  });

  afterAll(async () => {
    await servers.disconnectAll();
    temp.remove();
  });

  it('connects the working servers and reports each broken one with its MCPCallError', () => {
    expect(results.map((result) => [result.name, result.ok])).toEqual([
      ['everything', true],
      ['memory', true],
      ['missing', false],
      ['exits', false],
    ]);
    const [everything, memory, missing, exits] = results;
    expect(everything).toEqual({ name: 'everything', ok: true, toolCount: 13 });
    expect(memory).toEqual({ name: 'memory', ok: true, toolCount: 3 });
    const spawnError = !missing!.ok && missing!.error;
    expect(spawnError).toBeInstanceOf(MCPCallError);
    expect(spawnError && [spawnError.kind, spawnError.server, spawnError.method, spawnError.message]).toEqual(
      [
        'spawn',
        'missing',
        'initialize',
        'MCP server "missing": initialize failed: cannot start server "missing": command "/nonexistent/agentwire-no-such-server" was not found',
      ],
    );
    const exitError = !exits!.ok && exits!.error;
    expect(exitError && [exitError.kind, exitError.server, exitError.exitCode, exitError.message]).toEqual([
      'connection_closed',
      'exits',
      3,
      'MCP server "exits": initialize failed: server "exits" exited with code 3',
    ]);
  });

  it('reports each server state and tool counts, with the error of the failed ones', () => {
    const status = servers.status();
    expect(status.map(({ error, ...rest }) => ({ ...rest, error: error?.name }))).toEqual([
      { name: 'everything', state: 'connected', toolCount: 13, totalToolCount: 13, error: undefined },
      { name: 'memory', state: 'connected', toolCount: 3, totalToolCount: 9, error: undefined },
      { name: 'missing', state: 'failed', toolCount: 0, totalToolCount: 0, error: 'MCPCallError' },
      { name: 'exits', state: 'failed', toolCount: 0, totalToolCount: 0, error: 'MCPCallError' },
    ]);
    expect(status[2]!.error).toBe(!results[2]!.ok && results[2]!.error);
  });

  it('lists the tools of every connected server, filtered by allowTools then blockTools', () => {
    expect(servers.getTools().map((tool) => tool.name)).toEqual([
      ...EVERYTHING_TOOLS,
      'create_entities',
      'read_graph',
      'search_nodes',
    ]);
  });

  it('prefixes tool names with the server name on request', () => {
    expect(servers.getTools({ prefix: true }).map((tool) => tool.name)).toEqual([
      ...EVERYTHING_TOOLS.map((name) => `everything__${name}`),
      'memory__create_entities',
      'memory__read_graph',
      'memory__search_nodes',
    ]);
    expect(servers.getTools({ prefix: true, separator: '.' }).at(-1)?.name).toBe('memory.search_nodes');
  });

  it('keeps the server tool working behind a prefixed name, and returns the same wrapper each time', async () => {
    const [echo] = servers.getTools({ prefix: true });
    expect(echo).toBeInstanceOf(MCPPrefixedTool);
    const prefixed = echo as MCPPrefixedTool;
    expect(prefixed.tool).toBe(servers.get('everything')!.getTools()[0]);
    expect([prefixed.source, prefixed.description]).toEqual(['everything', prefixed.tool.description]);
    expect(prefixed.inputSchema).toBe(prefixed.tool.inputSchema);
    expect(servers.getTools({ prefix: true })[0]).toBe(prefixed);
    expect(await prefixed.execute({ message: 'hello' })).toBe('Echo: hello');
  });

  it('passes interpolated env values to the server process', async () => {
    const getEnv = servers.getTools({ prefix: true }).find((tool) => tool.name === 'everything__get-env')!;
    const rendered = await getEnv.execute({});
    expect(JSON.parse(String(rendered)).MARKER).toBe(marker);
  });

  it('refuses a second server with a name already present', () => {
    const duplicate = MCPClient.fromStdio({ command: 'x' }, { name: 'memory' });
    expect(() => servers.add(duplicate)).toThrow(
      new MCPConfigError('MCPServers: a server named "memory" was already added', { entry: 'memory' }),
    );
  });
});

describe('MCPServers.disconnectAll', () => {
  it('stops every server process it started, and connectAll can start them again', async () => {
    const marker = `agentwire-servers-${randomUUID()}`;
    const temp = tempDir();
    const servers = MCPServers.fromConfig(fourServers(marker, `${temp.dir}/memory.json`));
    try {
      await servers.connectAll();
      expect(processesWith(marker)).toHaveLength(2);
      await servers.disconnectAll();
      expect(processesWith(marker)).toEqual([]);
      expect(servers.status().map((status) => [status.state, status.error?.name])).toEqual([
        ['disconnected', undefined],
        ['disconnected', undefined],
        ['disconnected', 'MCPCallError'],
        ['disconnected', 'MCPCallError'],
      ]);
      const again = await servers.connectAll();
      expect(again.map((result) => result.ok)).toEqual([true, true, false, false]);
      await servers.disconnectAll();
      expect(processesWith(marker)).toEqual([]);
      await servers.disconnectAll();
    } finally {
      await servers.disconnectAll();
      temp.remove();
    }
  });
});

describe('MCPServers events and tool errors (scripted server)', () => {
  const open: MCPServers[] = [];
  afterEach(async () => {
    await Promise.all(open.splice(0).map((servers) => servers.disconnectAll()));
  });

  function scriptedServers() {
    const config = parseServerConfig({
      mcpServers: {
        'my.scripted': { command: process.execPath, args: [SCRIPTED], blockTools: ['sleep', 'ex?t'] },
      },
    });
    const servers = MCPServers.fromConfig(config, { listChangedDebounceMs: 0 });
    open.push(servers);
    return servers;
  }

  it('makes the server name safe for model APIs in prefixes', async () => {
    const servers = scriptedServers();
    await servers.connectAll();
    expect(servers.getTools({ prefix: true }).map((tool) => tool.name)).toEqual([
      'my_scripted__echo',
      'my_scripted__set-tools',
      'my_scripted__fail',
    ]);
  });

  it('throws the server tool MCPToolError through a prefixed tool', async () => {
    const servers = scriptedServers();
    await servers.connectAll();
    const fail = servers.getTools({ prefix: true }).find((tool) => tool.name === 'my_scripted__fail')!;
    const error = await fail.execute({ message: 'disk full' }).catch((thrown: unknown) => thrown);
    expect(error).toBeInstanceOf(MCPToolError);
    expect([(error as MCPToolError).toolName, (error as MCPToolError).server]).toEqual([
      'fail',
      'my.scripted',
    ]);
  });

  it('re-emits a server toolsChanged with its name, and getTools follows the new list through the filters', async () => {
    const servers = scriptedServers();
    await servers.connectAll();
    const changes: MCPServersEvents['toolsChanged'][] = [];
    servers.on('toolsChanged', (change) => changes.push(change));
    const newTools = [
      { name: 'echo', inputSchema: { type: 'object' } },
      { name: 'sleep', inputSchema: { type: 'object' } },
      { name: 'added', inputSchema: { type: 'object' } },
    ];
    await servers.get('my.scripted')!.callTool('set-tools', { tools: newTools });
    await waitUntil(() => changes.length === 1, 5000, 'toolsChanged');
    const [change] = changes;
    expect(change!.server).toBe('my.scripted');
    expect(change!.added.map((tool) => tool.name)).toEqual(['added']);
    expect(change!.removed.map((tool) => tool.name)).toEqual(['exit', 'set-tools', 'fail']);
    expect(servers.getTools().map((tool) => tool.name)).toEqual(['echo', 'added']);
  });

  it('re-emits an unexpected disconnect with the server name, keeps its error in status and drops its tools', async () => {
    const servers = scriptedServers();
    await servers.connectAll();
    const events: MCPServersEvents['disconnected'][] = [];
    servers.on('disconnected', (event) => events.push(event));
    await servers
      .get('my.scripted')!
      .callTool('exit', { code: 7 })
      .catch(() => {});
    await waitUntil(() => events.length === 1, 5000, 'disconnected');
    expect([events[0]!.server, events[0]!.deliberate, events[0]!.willReconnect]).toEqual([
      'my.scripted',
      false,
      false,
    ]);
    const [status] = servers.status();
    expect([
      status!.state,
      (status!.error as MCPCallError).kind,
      (status!.error as MCPCallError).exitCode,
    ]).toEqual(['failed', 'connection_closed', 7]);
    expect(servers.getTools()).toEqual([]);
  });

  it('forgets a removed server after disconnecting it', async () => {
    const servers = scriptedServers();
    await servers.connectAll();
    const client = servers.get('my.scripted')!;
    expect(await servers.remove('my.scripted')).toBe(true);
    expect([client.getState(), servers.clients(), servers.getTools()]).toEqual(['disconnected', [], []]);
    expect(await servers.remove('my.scripted')).toBe(false);
  });
});

describe('toolFilter', () => {
  it('matches names and * / ? patterns, with every other character literal', () => {
    const accepts = toolFilter({ allowTools: ['get_*', 'a.b', 'v?'], blockTools: ['get_secret*'] });
    const names = ['get_issue', 'get_secret_key', 'a.b', 'axb', 'v1', 'v12', 'list'];
    expect(names.filter(accepts)).toEqual(['get_issue', 'a.b', 'v1']);
  });

  it('lets every tool through when no filter is given', () => {
    expect(['a', 'b'].filter(toolFilter())).toEqual(['a', 'b']);
  });
});
