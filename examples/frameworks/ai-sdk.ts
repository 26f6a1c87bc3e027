import { openai } from '@ai-sdk/openai';
import { MCPClient } from 'agentwire';
import { createAISDKTools } from 'agentwire/ai-sdk';
import { generateText, isStepCount } from 'ai';

const client = MCPClient.fromStdio({
  command: 'npx',
  args: ['-y', '@modelcontextprotocol/server-everything'],
});
await client.connect();
const { tools, close } = createAISDKTools(client);
try {
  const { text } = await generateText({
    model: openai('gpt-5-mini'),
    tools,
    stopWhen: isStepCount(5),
    prompt: 'What is 2 + 40? Use the get-sum tool.',
    abortSignal: AbortSignal.timeout(60_000),
  });
  console.log(text);
} finally {
  close();
  await client.disconnect();
}
