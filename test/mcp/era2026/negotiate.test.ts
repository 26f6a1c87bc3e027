/**
 * Negotiation over stdio through `MCPClient` (session/negotiate.ts): against the real 2026-only and
 * dual-era fixtures (test/fixtures/era2026/) it speaks 2026-07-28; against server-everything (2025) it falls
 * back to `initialize` on the same process; pins speak only their revision; a -32022 answer is retried once.
 */

import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { MCPClient, type MCPClientOptions } from '../../../src/mcp/client/client.js';
import type { MCPStdioServer } from '../../../src/mcp/config/server-spec.js';
import { MCPCallError } from '../../../src/mcp/protocol/errors.js';
import { SERVER_INFO } from '../../fixtures/era2026/server.mjs';
import { children, everythingStdio, ROOT, waitUntil } from '../../helpers.js';

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

describe('MCPClient over stdio', () => {
  it('speaks 2025-11-25 with server-everything, unconfigured', async () => {
    const mcp = client(everythingStdio());
    await mcp.connect();
    expect(mcp.getProtocolVersion()).toBe('2025-11-25');
    expect(mcp.getServerInfo()?.name).toBe('mcp-servers/everything');
  });

  it('fails a 2025-11-25 pin against the 2026-only fixture with the typed error naming both lists', async () => {
    const mcp = client(fixture(true), { protocolVersion: '2025-11-25' });
    const error = await mcp.connect().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(MCPCallError);
    expect(error).toMatchObject({
      kind: 'protocol',
      code: -32022,
      method: 'initialize',
      data: { supported: ['2026-07-28'], offered: ['2025-11-25'] },
    });
    expect(mcp.getState()).toBe('failed');
  });

  it('sends no log level to a 2026-07-28 server that does not declare logging, and calls on', async () => {
    // The per-request level of a server that declares logging: test/mcp/client/capabilities.test.ts.
    const mcp = client(fixture(true), { logLevel: 'debug' });
    await mcp.connect();
    await expect(mcp.setLoggingLevel('info')).rejects.toMatchObject({
      kind: 'unsupported',
      capability: 'logging',
      method: 'logging/setLevel',
    });
    expect((await mcp.callTool('add', { a: 1, b: 1 })).structuredContent).toEqual({ sum: 2 });
  });

  it('negotiates again on reconnect', async () => {
    const marker = `marker=${randomUUID()}`;
    const server = fixture(true);
    server.args = [...(server.args ?? []), marker];
    const mcp = client(server, { reconnect: { enabled: true, initialDelayMs: 10 } });
    await mcp.connect();
    const [first] = children(marker);
    const reconnected = new Promise((resolve) => mcp.once('reconnected', resolve));
    process.kill(first as number, 'SIGKILL');
    await reconnected;
    await waitUntil(() => children(marker).length === 1 && children(marker)[0] !== first);
    expect(mcp.getProtocolVersion()).toBe('2026-07-28');
    expect((await mcp.callTool('add', { a: 4, b: 5 })).structuredContent).toEqual({ sum: 9 });
  });
});
