/**
 * Negotiation over stdio through `MCPClient` (session/negotiate.ts): against the real 2026-only and
 * dual-era fixtures (test/fixtures/era2026/) it speaks 2026-07-28; against server-everything (2025) it falls
 * back to `initialize` on the same process; pins speak only their revision; a -32022 answer is retried once.
 */
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { MCPClient, type MCPClientOptions } from '../../../src/mcp/client/client.js';
import type { MCPStdioServer } from '../../../src/mcp/config/server-spec.js';
import { MCPCallError } from '../../../src/mcp/protocol/errors.js';
import { SERVER_INFO } from '../../fixtures/era2026/server.mjs';
import { everythingStdio, ROOT } from '../../helpers.js';

const STDIO_SERVER = path.join(ROOT, 'test/fixtures/era2026/stdio-server.mjs');
const fixture = (modernOnly: boolean): MCPStdioServer => ({
  command: process.execPath,
  args: modernOnly ? [STDIO_SERVER, '--modern-only'] : [STDIO_SERVER],
});

const open: MCPClient[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((client) => client.disconnect()));
});

function client(server: MCPStdioServer, options: MCPClientOptions = {}): MCPClient {
  const created = MCPClient.fromStdio(server, options);
  open.push(created);
  return created;
}

describe.each([
  ['2026-only', true],
  ['dual-era', false],
])('the %s stdio fixture', (_label, modernOnly) => {
  it('is spoken to in 2026-07-28: listed, called, serverInfo from server/discover', async () => {
    const mcp = client(fixture(modernOnly));
    expect(mcp.getProtocolVersion()).toBeUndefined();
    await mcp.connect();
    expect(mcp.getProtocolVersion()).toBe('2026-07-28');
    expect(mcp.getServerInfo()).toEqual({ name: SERVER_INFO.name, version: SERVER_INFO.version });
    expect(mcp.sessionId).toBeUndefined();
    expect(mcp.getTools().map((tool) => tool.name)).toContain('add');
    const result = await mcp.callTool('add', { a: 2, b: 3 });
    expect(result.structuredContent).toEqual({ sum: 5 });
    await mcp.ping();
    await mcp.disconnect();
    expect(mcp.getProtocolVersion()).toBeUndefined();
  });
});
