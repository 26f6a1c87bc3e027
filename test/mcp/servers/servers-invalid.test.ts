// biome-ignore-all lint/suspicious/noTemplateCurlyInString: the strings are configuration-file ${…} references.
import { afterEach, describe, expect, it } from 'vitest';
import { parseServerConfig } from '../../../src/mcp/config/load.js';
import { MCPConfigError } from '../../../src/mcp/protocol/errors.js';
import { MCPServers } from '../../../src/mcp/servers/servers.js';
import { SCRIPTED } from '../../helpers.js';

const open: MCPServers[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((servers) => servers.disconnectAll()));
});

describe('MCPServers.fromConfig with an invalid entry', () => {
  const config = parseServerConfig(
    {
      mcpServers: {
        scripted: { command: process.execPath, args: [SCRIPTED] },
        unset: { command: 'x', env: { TOKEN: '${AGENTWIRE_TEST_UNSET}' } },
      },
    },
    { source: 'mix.json', env: {} },
  );

  it('connects the good server and reports the invalid one as failed with its config error', async () => {
    const servers = MCPServers.fromConfig(config);
    open.push(servers);
    const results = await servers.connectAll();
    expect(results.map((result) => [result.name, result.ok])).toEqual([['scripted', true]]);
    const status = servers.status();
    expect(
      status.map(({ name, state, toolCount, totalToolCount }) => [name, state, toolCount, totalToolCount]),
    ).toEqual([
      ['scripted', 'connected', 5, 5],
      ['unset', 'failed', 0, 0],
    ]);
    expect(status[1]?.error).toBeInstanceOf(MCPConfigError);
    expect(status[1]?.error?.message).toBe(
      'config mix.json: server "unset": "env.TOKEN" uses ${AGENTWIRE_TEST_UNSET}, which is not set in the environment',
    );
    expect(servers.get('unset')).toBeUndefined();
    expect(servers.getTools().map((tool) => tool.source)).toEqual(Array(5).fill('scripted'));
  });

  it("refuses a second server of an invalid entry's name, and forgets the entry on remove()", async () => {
    const servers = MCPServers.fromConfig({ ...config, servers: [] });
    open.push(servers);
    expect(() => servers.addInvalid('unset', new MCPConfigError('again'))).toThrow(
      'MCPServers: a server named "unset" was already added',
    );
    expect(await servers.remove('unset')).toBe(true);
    expect(servers.status()).toEqual([]);
  });
});
