/**
 * `maxMessageBytes` on stdio: a line that passes it fails the pending call as soon as it does, not when (if
 * ever) the line ends. The server here starts its answer and never finishes the line.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { MCPClient } from '../../../../src/mcp/client/client.js';
import { MCPCallError } from '../../../../src/mcp/protocol/errors.js';

/** A stdio MCP server (no SDK) whose one tool answers with a line that never ends. */
const SERVER = `
const readline = require('node:readline');
const send = (m) => process.stdout.write(JSON.stringify(m) + '\\n');
const filler = 'a'.repeat(64 * 1024);
function endless() {
  while (process.stdout.write(filler)) {}
  process.stdout.once('drain', endless);
}
readline.createInterface({ input: process.stdin }).on('line', (line) => {
  const m = JSON.parse(line);
  if (m.id === undefined) return;
  if (m.method === 'initialize')
    return send({ jsonrpc: '2.0', id: m.id, result: { protocolVersion: m.params.protocolVersion,
      capabilities: { tools: {} }, serverInfo: { name: 'endless', version: '1' } } });
  if (m.method === 'tools/list')
    return send({ jsonrpc: '2.0', id: m.id, result: { tools: [{ name: 'endless', inputSchema: { type: 'object' } }] } });
  if (m.method === 'tools/call') {
    process.stdout.write('{"jsonrpc":"2.0","id":' + JSON.stringify(m.id) + ',"result":{"content":[{"type":"text","text":"');
    return endless();
  }
  send({ jsonrpc: '2.0', id: m.id, error: { code: -32601, message: 'Method not found' } });
});
`;

const clients: MCPClient[] = [];
afterEach(async () => {
  for (const client of clients.splice(0)) await client.disconnect();
});

describe('a stdio line over maxMessageBytes', () => {
  it('fails the pending call with kind protocol as soon as it passes the limit', async () => {
    const limit = 1024 * 1024;
    const client = MCPClient.fromStdio(
      { command: process.execPath, args: ['-e', SERVER], maxMessageBytes: limit },
      { name: 'endless' },
    );
    clients.push(client);
    await client.connect();
    const error = await client.callTool('endless', {}, { timeoutMs: 60_000 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(MCPCallError);
    expect(error).toMatchObject({
      kind: 'protocol',
      message: `MCP server "endless": tools/call "endless" failed: server "endless" sent a message over maxMessageBytes (${limit} bytes)`,
    });
    expect(client.getState()).toBe('failed');
  });
});
