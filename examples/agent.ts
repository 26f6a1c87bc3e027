import { Agent, MCPClient, modelFromEnv } from 'agentwire';

// ANTHROPIC_API_KEY selects Anthropic; OPENAI_API_KEY or OPENAI_BASE_URL, OpenAI or a compatible server.
const agent = new Agent({
  model: modelFromEnv(),
  // Every tool call passes here before it runs: allow it, deny it with a reason, or rewrite its arguments.
  approve: ({ name }) => name !== 'get-env' || { action: 'deny', reason: 'the environment is private' },
});

const everything = MCPClient.fromStdio({
  command: process.execPath,
  args: ['node_modules/@modelcontextprotocol/server-everything/dist/index.js'],
});
await agent.addMcpServer(everything); // connects it; its tools are offered to the model

try {
  // prompt(): the run as it happens, one event at a time.
  for await (const event of agent.prompt('What is 2 + 40? Use get-sum. Then read my environment.')) {
    if (event.type === 'tool_start') console.log(`→ ${event.name} ${JSON.stringify(event.input)}`);
    if (event.type === 'tool_end') console.log(`← ${event.result}`);
    if (event.type === 'agent_end') console.log(event.result.text);
  }
  // execute(): the final result only; the conversation goes on from the last run.
  const { text, turns } = await agent.execute('Say the sum again, in words.');
  console.log(`${text} (${turns} turn)`);
} finally {
  await everything.disconnect();
}
