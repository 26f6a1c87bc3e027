// Workload 8: hundreds of tools. 43 real servers (33 sessions of server-everything over Streamable HTTP, 5
// server-filesystem and 5 server-memory over stdio, `MCPServers.getTools({ prefix: true })`: 511 tools the
// agent can offer) for an `Agent` whose model is an in-process fake that records each request. Figures:
// bytes of tool definitions (JSON of the request's `tools`) per request, every definition vs `search_tools`
// (before and after a search loaded 5 tools); and the agent's time per turn with these tools (median of
// one-turn runs: the table built, offered and handed to the model), plus a turn that runs a search.
import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { smallEnv, startEverythingHttp } from '../lib/servers.mjs';
import { median } from '../lib/stats.mjs';

const require = createRequire(import.meta.url);
const bin = (name) =>
  path.join(path.dirname(require.resolve(`@modelcontextprotocol/${name}/package.json`)), 'dist', 'index.js');

/** A model that answers each request with `reply(request)`; records the bytes of each request's tools. */
function recordingModel(reply, toolBytes) {
  return {
    provider: 'fake',
    id: 'recorder',
    normalizeToolSchema: (schema) => schema,
    async *stream(request) {
      toolBytes.push(Buffer.byteLength(JSON.stringify(request.tools)));
      const content = reply(request);
      const calls = content.some((p) => p.type === 'tool_call');
      yield {
        type: 'response',
        message: { role: 'assistant', content },
        stopReason: calls ? 'tool_use' : 'end_turn',
      };
    },
  };
}

const text = [{ type: 'text', text: 'done' }];
const search = (query) => [
  { type: 'tool_call', id: 'search_1', name: 'search_tools', arguments: JSON.stringify({ query }) },
];

/** Runs workload 8; resolves to `{ error }` when the agent is not built or has no tool search. */
export async function runToolSearch({ runs = 50 } = {}) {
  let Agent;
  let MCPServers;
  let parseServerConfig;
  let DEFAULT_TOOL_SEARCH_THRESHOLD;
  try {
    ({ Agent, MCPServers, parseServerConfig, DEFAULT_TOOL_SEARCH_THRESHOLD } = await import(
      '../../dist/index.js'
    ));
  } catch (error) {
    return { error: `agentwire is not built: ${error?.message ?? error}` };
  }
  if (DEFAULT_TOOL_SEARCH_THRESHOLD === undefined) return { error: 'this build has no tool search' };
  const dir = mkdtempSync(path.join(tmpdir(), 'agentwire-bench-search-'));
  const everything = await startEverythingHttp();
  const mcpServers = {};
  for (let i = 1; i <= 33; i += 1)
    mcpServers[`ev${String(i).padStart(2, '0')}`] = { type: 'streamable-http', url: everything.url };
  for (let i = 1; i <= 5; i += 1)
    mcpServers[`fs${i}`] = {
      command: process.execPath,
      args: [bin('server-filesystem'), dir],
      env: smallEnv(),
    };
  for (let i = 1; i <= 5; i += 1) {
    const env = smallEnv({ MEMORY_FILE_PATH: path.join(dir, `memory${i}.json`) });
    mcpServers[`mem${i}`] = { command: process.execPath, args: [bin('server-memory')], env };
  }
  const servers = MCPServers.fromConfig(parseServerConfig({ mcpServers }));
  try {
    const connected = await servers.connectAll();
    if (connected.some((r) => !r.ok)) return { error: 'a server failed to connect' };
    const tools = servers.getTools({ prefix: true });
    const measure = async (threshold, reply) => {
      const toolBytes = [];
      const model = recordingModel(reply, toolBytes);
      const agent = new Agent({ model, tools, toolSearchThreshold: threshold, onWarning: () => {} });
      const warmup = 5;
      const times = [];
      for (let i = 0; i < warmup + runs; i += 1) {
        agent.reset();
        const started = performance.now();
        await agent.execute('go');
        if (i >= warmup) times.push(performance.now() - started);
      }
      return { toolBytes, times, agent };
    };
    const all = await measure(Number.POSITIVE_INFINITY, () => text);
    const plain = await measure(DEFAULT_TOOL_SEARCH_THRESHOLD, () => text);
    // A run of two turns: a search for "read a file" (5 tools loaded), then the answer.
    let searched = 0;
    const searching = await measure(DEFAULT_TOOL_SEARCH_THRESHOLD, (request) => {
      if (request.messages.at(-1)?.role === 'tool') return text;
      searched += 1;
      return search('read a file');
    });
    const offered = all.agent.getTools().size;
    return {
      servers: connected.length,
      tools: tools.length,
      offered,
      runs,
      allBytes: all.toolBytes[0],
      searchBytes: searching.toolBytes[0],
      loadedBytes: searching.toolBytes[1],
      allTurnMs: median(all.times),
      searchTurnMs: median(plain.times),
      searchRunMs: median(searching.times),
      searches: searched,
    };
  } finally {
    await servers.disconnectAll();
    await everything.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}
