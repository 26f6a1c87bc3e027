/**
 * `Mcp-Param-*` headers on 2026-07-28 Streamable HTTP through `MCPClient` (session/tool-headers.ts), against
 * the real 2026-only fixture (test/fixtures/era2026/http-server.ts, which records every request): the
 * `region_query` tool's `x-mcp-header` parameters are mirrored on each call, with the spec's encoding
 * (MCP spec 2026-07-28, "Transports > Streamable HTTP > Custom Headers from Tool Parameters"), and a tool
 * whose declaration is invalid is left out of the list with a warning naming it and the reason.
 */

import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { MCPClient } from '../../../src/mcp/client/client.js';
import { type Era2026HttpServer, startEra2026Http } from '../../fixtures/era2026/http-server.js';
import { TOOL_NAMES } from '../../fixtures/era2026/server.mjs';

let server: Era2026HttpServer;
beforeAll(async () => {
  server = await startEra2026Http({ modernOnly: true, invalidHeaderTool: true });
});
afterAll(() => server.close());

const open: MCPClient[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((client) => client.disconnect()));
});

/** The `mcp-*` headers of each recorded `tools/call`, in order. */
function callHeaders(): Record<string, string | string[] | undefined>[] {
  return server.requests
    .filter((r) => r.method === 'POST' && (JSON.parse(r.body) as { method?: string }).method === 'tools/call')
    .map((r) => Object.fromEntries(Object.entries(r.headers).filter(([name]) => name.startsWith('mcp-'))));
}

describe('x-mcp-header over 2026-07-28 Streamable HTTP', () => {
  it('leaves out the tool whose declaration is invalid, with a warning naming it and the reason', async () => {
    const mcp = MCPClient.fromUrl(server.url, { name: 'headers' });
    open.push(mcp);
    const logs: { level: string; message: string }[] = [];
    mcp.on('log', (event) => logs.push(event));
    await mcp.connect();
    expect(mcp.getProtocolVersion()).toBe('2026-07-28');
    expect(mcp.getTools().map((tool) => tool.name)).toEqual(TOOL_NAMES);
    expect(logs).toEqual([
      {
        level: 'warn',
        message:
          'MCP server "headers": tool "bad_header" is left out of the tool list: its x-mcp-header declaration is invalid (x-mcp-header "Amount" is on property "amount" of type number; only string, integer and boolean are allowed)',
      },
    ]);
  });

  it('sends the Mcp-Param-* headers of region_query: plain, Base64-encoded, and none for an absent value', async () => {
    const mcp = MCPClient.fromUrl(server.url, { name: 'headers' });
    open.push(mcp);
    await mcp.connect();
    server.requests.length = 0;
    const first = await mcp.callTool('region_query', { region: 'us-west1', query: 'q', limit: 5 });
    expect(first.content).toEqual([{ type: 'text', text: 'us-west1/5: q' }]);
    const second = await mcp.callTool('region_query', { region: 'Hello, 世界', query: 'q' });
    expect(second.content).toEqual([{ type: 'text', text: 'Hello, 世界/all: q' }]);
    await mcp.callTool('add', { a: 1, b: 2 });
    expect(callHeaders()).toEqual([
      {
        'mcp-protocol-version': '2026-07-28',
        'mcp-method': 'tools/call',
        'mcp-name': 'region_query',
        'mcp-param-region': 'us-west1',
        'mcp-param-limit': '5',
      },
      {
        'mcp-protocol-version': '2026-07-28',
        'mcp-method': 'tools/call',
        'mcp-name': 'region_query',
        'mcp-param-region': '=?base64?SGVsbG8sIOS4lueVjA==?=',
      },
      { 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'tools/call', 'mcp-name': 'add' },
    ]);
  });
});
