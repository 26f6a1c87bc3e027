import { homedir } from 'node:os';
import path from 'node:path';
import { Agent, loadServerConfig, MCPServers, MCPToolListFileCache, modelFromEnv } from 'agentwire';

// Entries with "lazy": true are not started here: their tools come from the cache of their last connect
// (or their "toolList"), and each starts on the first call or tool-search hit of one of its tools.
const servers = MCPServers.fromConfig(await loadServerConfig('mcp.json'), {
  toolListCache: new MCPToolListFileCache(path.join(homedir(), '.cache', 'my-host', 'tool-lists')),
});
await servers.connectAll();
const agent = new Agent({
  model: modelFromEnv(),
  // A result over its budget is written whole to a file here; the model gets its path, size, head and tail.
  resultSpillDir: path.join(homedir(), '.cache', 'my-host', 'results'),
});
agent.addMcpServers(servers);
try {
  const { text } = await agent.execute('Find the open issues assigned to me.');
  console.log(text);
} finally {
  await servers.disconnectAll();
}
