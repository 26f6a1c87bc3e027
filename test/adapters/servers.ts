/**
 * The MCP servers every framework adapter test calls through agentwire: server-everything (real tools:
 * `get-sum`, `get-tiny-image`) and the scripted fixture (`fail` answers `isError`, `sleep` waits until
 * cancelled, `set-tools` changes the list), as one `MCPServers`, tools prefixed with their server's name.
 */
import path from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import { MCPClient, MCPServers } from '../../src/mcp/index.js';
import { everythingStdio, readLog, scripted, tempDir, waitUntil } from '../helpers.js';

export interface AdapterServers {
  servers: MCPServers;
  /** The methods the scripted server received, in order (`tools/call`, `notifications/cancelled`, …). */
  scriptedLog(): { method?: string; id?: number; params?: Record<string, unknown> }[];
  /** Resolves once the scripted server received a `tools/call` of `tool`. */
  called(tool: string): Promise<void>;
}

/** Starts both servers before the file's tests and stops them after. */
export function useAdapterServers(): AdapterServers {
  const dir = tempDir('agentwire-adapters-');
  const log = path.join(dir.dir, 'scripted.log');
  const servers = new MCPServers();
  servers.add(MCPClient.fromStdio(everythingStdio(), { name: 'everything' }));
  servers.add(MCPClient.fromStdio(scripted({ FIXTURE_LOG: log }), { name: 'scripted' }));
  beforeAll(async () => {
    const results = await servers.connectAll();
    if (!results.every((result) => result.ok)) throw new Error('a test server did not start');
  });
  afterAll(async () => {
    await servers.disconnectAll();
    dir.remove();
  });
  const scriptedLog = () => readLog(log);
  return {
    servers,
    scriptedLog,
    called: (tool) =>
      waitUntil(
        () => scriptedLog().some((m) => m.method === 'tools/call' && m.params?.name === tool),
        10_000,
        `a tools/call of ${tool}`,
      ),
  };
}

/** The `notifications/cancelled` the scripted server received for its `tools/call` of `tool`. */
export function cancellationsOf(servers: AdapterServers, tool: string): unknown[] {
  const log = servers.scriptedLog();
  const ids = log
    .filter((m) => m.method === 'tools/call' && m.params?.name === tool)
    .map((m) => m.id as unknown);
  return log
    .filter((m) => m.method === 'notifications/cancelled' && ids.includes(m.params?.requestId))
    .map((m) => m.params);
}

/** Resolves with the `notifications/cancelled` params once the scripted server got one for `tool`. */
export async function cancelled(servers: AdapterServers, tool: string): Promise<unknown[]> {
  await waitUntil(() => cancellationsOf(servers, tool).length > 0, 10_000, `a cancellation of ${tool}`);
  return cancellationsOf(servers, tool);
}

/** server-everything's `get-tiny-image` picture, as the server sends it (base64 PNG). */
export async function tinyImage(servers: MCPServers): Promise<string> {
  const result = await servers.get('everything')!.callTool('get-tiny-image', {});
  const image = result.content.find((block) => block.type === 'image') as { data: string };
  return image.data;
}
