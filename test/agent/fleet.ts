/**
 * Over 500 tools from real servers, as an agent meets them in a large configuration: 33 sessions of
 * server-everything on one Streamable HTTP process (`ev01`…`ev33`), 5 server-filesystem (`fs1`…`fs5`) and
 * 5 server-memory (`mem1`…`mem5`) over stdio, through `MCPServers.getTools({ prefix: true })`.
 */
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Tool } from '../../src/core/tool.js';
import { MCPServers, parseServerConfig } from '../../src/mcp/index.js';
import { type EverythingServer, startEverything } from '../fixtures/http-everything.js';
import { FILESYSTEM, MEMORY, tempDir } from '../helpers.js';

export interface Fleet {
  servers: MCPServers;
  tools: Tool[];
  /** The filesystem servers' root, holding `notes.txt`. */
  dir: string;
  close(): Promise<void>;
}

const two = (n: number) => String(n).padStart(2, '0');

export async function startFleet(everythingSessions = 33, stdioEach = 5): Promise<Fleet> {
  const temp = tempDir('agentwire-fleet-');
  await writeFile(path.join(temp.dir, 'notes.txt'), 'remember the milk\n');
  const everything: EverythingServer = await startEverything('streamableHttp');
  const mcpServers: Record<string, unknown> = {};
  for (let i = 1; i <= everythingSessions; i += 1) {
    mcpServers[`ev${two(i)}`] = { type: 'streamable-http', url: everything.url };
  }
  for (let i = 1; i <= stdioEach; i += 1) {
    mcpServers[`fs${i}`] = { command: process.execPath, args: [FILESYSTEM, temp.dir] };
  }
  for (let i = 1; i <= stdioEach; i += 1) {
    const memory = path.join(temp.dir, `memory${i}.json`);
    mcpServers[`mem${i}`] = { command: process.execPath, args: [MEMORY], env: { MEMORY_FILE_PATH: memory } };
  }
  const servers = MCPServers.fromConfig(parseServerConfig({ mcpServers }));
  const close = async () => {
    await servers.disconnectAll();
    await everything.stop();
    temp.remove();
  };
  try {
    const results = await servers.connectAll();
    const failed = results.filter((r) => !r.ok);
    if (failed.length > 0) throw new Error(`fleet: ${failed.length} servers failed to connect`);
  } catch (error) {
    await close();
    throw error;
  }
  return { servers, tools: servers.getTools({ prefix: true }), dir: temp.dir, close };
}
