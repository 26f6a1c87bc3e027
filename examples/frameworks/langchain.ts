import { ChatOpenAI } from '@langchain/openai';
import { MCPClient } from 'agentwire';
import { createLangChainTools } from 'agentwire/langchain';
import { createAgent } from 'langchain';

const client = MCPClient.fromUrl('https://mcp.example.com/mcp');
await client.connect();
try {
  const agent = createAgent({
    model: new ChatOpenAI({ model: 'gpt-5-mini' }),
    tools: createLangChainTools(client).tools,
  });
  const { messages } = await agent.invoke(
    { messages: [{ role: 'user', content: 'What is 2 + 40?' }] },
    { signal: AbortSignal.timeout(60_000) },
  );
  console.log(messages.at(-1)?.content);
} finally {
  await client.disconnect();
}
