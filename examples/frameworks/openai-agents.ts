import { Agent, run } from '@openai/agents';
import { loadServerConfig, MCPServers } from 'agentwire';
import { agentwireMCPServer } from 'agentwire/openai-agents';

const servers = MCPServers.fromConfig(await loadServerConfig('mcp.json'));
await servers.connectAll();
try {
  const agent = new Agent({
    name: 'assistant',
    instructions: 'Answer with the tools you have.',
    mcpServers: [agentwireMCPServer(servers)],
  });
  const result = await run(agent, 'What is 2 + 40?', { signal: AbortSignal.timeout(60_000) });
  console.log(result.finalOutput);
} finally {
  await servers.disconnectAll();
}
