/**
 * What a session tells its owner without an error's text: late messages (a hook, for the SDK's requests and
 * for agentwire's own `tools/call` path alike) and requests on a closed connection (a typed `not_connected`).
 */
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { MCPClient } from '../../../src/mcp/client/client.js';
import { MCPCallError } from '../../../src/mcp/protocol/errors.js';
import { anyObjectSchema } from '../../../src/mcp/session/engine/result-checks.js';
import { Session, type SessionHooks } from '../../../src/mcp/session/session.js';
import { StdioTransport } from '../../../src/mcp/transports/stdio/stdio-transport.js';
import { ROOT, scripted } from '../../helpers.js';

const MISBEHAVING = path.join(ROOT, 'test/fixtures/misbehaving-server.mjs');

const open: MCPClient[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((client) => client.disconnect()));
});

describe('late messages', () => {
  it('are debug logs, not errors, for the SDK ids and the fast path ids alike', async () => {
    const client = MCPClient.fromStdio({ command: process.execPath, args: [MISBEHAVING] });
    open.push(client);
    const logs: string[] = [];
    const errors: Error[] = [];
    client.on('log', (entry) => logs.push(`${entry.level}: ${entry.message}`));
    client.on('error', (error) => errors.push(error));
    await client.connect();
    const result = await client.callTool('late-messages');
    expect(result.content).toEqual([{ type: 'text', text: 'answered' }]);
    // The SDK hands progress to its handler a microtask later.
    await new Promise((resolve) => setImmediate(resolve));
    expect(errors).toEqual([]);
    expect(logs).toEqual(
      Array(4).fill(
        'debug: MCP server "misbehaving-server": a response or progress arrived after its request ended',
      ),
    );
  });
});

describe('a closed session', () => {
  it('fails requests with kind not_connected, through the SDK and on the fast path', async () => {
    const hooks: SessionHooks = {
      onUnexpectedClose: () => {},
      onToolListChanged: () => {},
      onError: () => {},
    };
    const server = scripted();
    const session = await Session.open({
      server: 'scripted',
      clientInfo: { name: 'test', version: '1.0.0' },
      createTransport: () => new StdioTransport({ ...server, serverName: 'scripted' }),
      hooks,
      request: { timeoutMs: 10_000 },
    });
    await session.close();
    const viaSdk = await session.request('ping', {}, anyObjectSchema, {}).catch((e: unknown) => e);
    const direct = await session.callTool('echo', { text: 'x' }, {}).catch((e: unknown) => e);
    expect(viaSdk).toBeInstanceOf(MCPCallError);
    expect(viaSdk).toMatchObject({
      kind: 'not_connected',
      reason: 'not connected',
      message: 'MCP server "scripted": ping failed: not connected',
    });
    expect(direct).toMatchObject({
      kind: 'not_connected',
      message: 'MCP server "scripted": tools/call "echo" failed: not connected',
    });
  });
});
