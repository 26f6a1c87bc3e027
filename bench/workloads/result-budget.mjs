// Workload 7: what a large tool result costs the next model request. server-filesystem (real, stdio) reads
// a 6 MB text file (`read_text_file`) and a 110 KB PNG (`read_media_file`) for an `Agent` whose model is an
// in-process fake that records each request; the figure is the bytes of the tool result the model is
// given and of the whole request (its JSON), against the bytes the server sent (the rendered MCP result).
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { smallEnv } from '../lib/servers.mjs';

const require = createRequire(import.meta.url);
const FILESYSTEM = path.join(
  path.dirname(require.resolve('@modelcontextprotocol/server-filesystem/package.json')),
  'dist',
  'index.js',
);

/** A model that calls `toolName` with `input` once, then ends; every request is kept. */
function recordingModel(toolName, input, requests) {
  return {
    provider: 'fake',
    id: 'recorder',
    normalizeToolSchema: (schema) => schema,
    async *stream(request) {
      requests.push(JSON.parse(JSON.stringify({ system: request.system, messages: request.messages })));
      const answered = request.messages.some((m) => m.role === 'tool');
      const content = answered
        ? [{ type: 'text', text: 'done' }]
        : [{ type: 'tool_call', id: 'call_1', name: toolName, arguments: JSON.stringify(input) }];
      yield {
        type: 'response',
        message: { role: 'assistant', content },
        stopReason: answered ? 'end_turn' : 'tool_use',
      };
    },
  };
}

/** Runs workload 7; resolves to `{ error }` when the agent is not built. */
export async function runResultBudget({ textBytes = 6_000_000, imageBytes = 110_000 } = {}) {
  let Agent;
  let MCPClient;
  let DEFAULT_MAX_TOOL_RESULT_BYTES;
  try {
    ({ Agent, MCPClient, DEFAULT_MAX_TOOL_RESULT_BYTES } = await import('../../dist/index.js'));
  } catch (error) {
    return { error: `agentwire is not built: ${error?.message ?? error}` };
  }
  if (DEFAULT_MAX_TOOL_RESULT_BYTES === undefined) return { error: 'this build has no tool result budget' };
  const dir = mkdtempSync(path.join(tmpdir(), 'agentwire-bench-budget-'));
  const client = MCPClient.fromStdio({ command: process.execPath, args: [FILESYSTEM, dir], env: smallEnv() });
  try {
    let text = '';
    for (let n = 1; text.length < textBytes; n += 1) text += `line ${String(n).padStart(6, '0')}\n`;
    writeFileSync(path.join(dir, 'big.txt'), text.slice(0, textBytes));
    writeFileSync(path.join(dir, 'picture.png'), Buffer.alloc(imageBytes, 3));
    await client.connect();
    const cases = [
      ['read_text_file', 'big.txt', textBytes],
      ['read_media_file', 'picture.png', imageBytes],
    ];
    const rows = [];
    for (const [tool, file, fileBytes] of cases) {
      const input = { path: path.join(dir, file) };
      const raw = await client.callTool(tool, input);
      const requests = [];
      const agent = new Agent({ model: recordingModel(tool, input, requests) });
      await agent.addMcpServer(client);
      await agent.execute(`read ${file}`);
      const results = requests[1].messages.find((m) => m.role === 'tool').results;
      rows.push({
        tool,
        fileBytes,
        serverResultBytes: Buffer.byteLength(JSON.stringify(raw)),
        toolResultBytes: Buffer.byteLength(results[0].content),
        requestBytes: Buffer.byteLength(JSON.stringify(requests[1])),
      });
    }
    return { budgetBytes: DEFAULT_MAX_TOOL_RESULT_BYTES, rows };
  } finally {
    await client.disconnect();
    rmSync(dir, { recursive: true, force: true });
  }
}
