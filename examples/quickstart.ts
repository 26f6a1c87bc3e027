import { MCPClient } from 'agentwire';

// Any MCP server works; this one is installed beside agentwire (see the install line).
const client = MCPClient.fromStdio({
  command: process.execPath,
  args: ['node_modules/@modelcontextprotocol/server-everything/dist/index.js'],
});

await client.connect();
try {
  // Every server tool is a provider-neutral Tool: name, description, JSON Schema, execute().
  const tools = client.getTools();
  const echo = tools.find((tool) => tool.name === 'echo');
  console.log(await echo?.execute({ message: 'hello from agentwire' }));

  // Results are rendered for a model: images become placeholders naming their type and size.
  const image = tools.find((tool) => tool.name === 'get-tiny-image');
  console.log(await image?.execute({}));

  // Or take the raw MCP result, every content block and field as the server sent it.
  const sum = await client.callTool('get-sum', { a: 2, b: 40 });
  console.log(JSON.stringify(sum));
} finally {
  await client.disconnect();
}
