import { MCPClient, renderCallToolResultText } from 'agentwire';

const client = MCPClient.fromStdio({
  command: process.execPath,
  args: ['node_modules/@modelcontextprotocol/server-everything/dist/index.js'],
});

await client.connect();
try {
  // simulate-research-query must run as a task (execution.taskSupport "required"): callTool() creates the
  // task, polls tasks/get at the server's pollInterval and resolves with the task's final CallToolResult.
  let last = '';
  const result = await client.callTool(
    'simulate-research-query',
    { topic: 'tides' },
    {
      onprogress: (progress) => {
        last = progress.message ?? ''; // "task working: Gathering sources...", …
      },
      taskTimeoutMs: 120_000, // bounds the whole task; timeoutMs still bounds each request
    },
  );
  console.log(renderCallToolResultText(result).split('\n')[0]);
  console.log(last);

  // Or take a handle: the task as last reported, cancel() (which also sends tasks/cancel), the result.
  const call = client.callToolAsTask('simulate-research-query', { topic: 'waves' });
  call.cancel(new Error('not needed'));
  console.log(await call.result.catch((error) => error.kind));
} finally {
  await client.disconnect();
}
