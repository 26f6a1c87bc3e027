/**
 * Requests lost in flight on 2026-07-28 Streamable HTTP (session/reissue.ts): a proxy in front of the real
 * 2026 fixture (test/fixtures/era2026/cutting-proxy.ts) lets the server run a request, then breaks the
 * response stream before the response. Reads are re-issued once with a new id; a `tools/call` is re-issued
 * only for a tool marked `readOnlyHint` or `idempotentHint`, otherwise it fails with `reissue: true` and a
 * reason saying the tool may or may not have run, and the server ran it exactly once.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { MCPClient, type MCPClientOptions } from '../../../src/mcp/client/client.js';
import { MCPCallError } from '../../../src/mcp/protocol/errors.js';
import { type CuttingProxy, cutFirst, startCuttingProxy } from '../../fixtures/era2026/cutting-proxy.js';
import { type Era2026HttpServer, startEra2026Http } from '../../fixtures/era2026/http-server.js';
import { currentCount } from '../../fixtures/era2026/reissue.mjs';

let server: Era2026HttpServer;
let proxy: CuttingProxy;
beforeAll(async () => {
  server = await startEra2026Http({ modernOnly: true, mrtr: true, reissueTools: true });
  proxy = await startCuttingProxy(server.url);
});
afterAll(async () => {
  await proxy.close();
  await server.close();
});

const open: MCPClient[] = [];
afterEach(async () => {
  proxy.cut = () => false;
  await Promise.all(open.splice(0).map((client) => client.disconnect()));
});

async function connect(options: MCPClientOptions = {}): Promise<MCPClient> {
  const mcp = MCPClient.fromUrl(proxy.url, { name: 'cut', ...options });
  open.push(mcp);
  await mcp.connect();
  expect(mcp.getProtocolVersion()).toBe('2026-07-28');
  proxy.seen.length = 0;
  return mcp;
}

const seen = (method: string) => proxy.seen.filter((m) => m.method === method);

describe('a response stream broken before its response (2026-07-28, Streamable HTTP)', () => {
  it('tools/list is re-issued once with a new id', async () => {
    const mcp = await connect();
    proxy.cut = cutFirst('tools/list');
    const tools = await mcp.refreshTools();
    expect(tools.map((t) => t.name)).toContain('count_up');
    const lists = seen('tools/list');
    expect(lists.map((m) => m.cut)).toEqual([true, false]);
    expect(lists[0]?.id).not.toEqual(lists[1]?.id);
  });

  it('resources/read and prompts/get are re-issued once', async () => {
    const mcp = await connect({
      onElicitation: async () => ({ action: 'accept', content: { name: 'Ada', password: 'pw' } }),
    });
    proxy.cut = cutFirst('resources/read');
    const resource = await mcp.readResource('fixture://secret');
    expect(resource.contents).toEqual([{ uri: 'fixture://secret', text: 'secret for pw' }]);
    // The first request was lost before its input_required answer; the flow starts again.
    expect(seen('resources/read').map((m) => [m.cut, m.params?.inputResponses === undefined])).toEqual([
      [true, true],
      [false, true],
      [false, false],
    ]);
    proxy.cut = cutFirst('prompts/get');
    const prompt = await mcp.getPrompt('greeting');
    expect(prompt.messages).toEqual([{ role: 'user', content: { type: 'text', text: 'Hello, Ada!' } }]);
    expect(seen('prompts/get').map((m) => m.cut)).toEqual([true, false, false]);
  });

  it('a read lost twice fails with the typed error (re-issued once only)', async () => {
    const mcp = await connect();
    proxy.cut = cutFirst('resources/list', 2);
    const error = (await mcp.listResources().catch((e: unknown) => e)) as MCPCallError;
    expect(error).toBeInstanceOf(MCPCallError);
    expect([error.kind, error.reissue, error.method]).toEqual(['transport', true, 'resources/list']);
    expect(seen('resources/list').map((m) => m.cut)).toEqual([true, true]);
  });

  it('a tool with side effects is not re-run: typed error saying it may or may not have run', async () => {
    const mcp = await connect({ reconnect: { enabled: true } });
    const before = currentCount();
    proxy.cut = cutFirst('tools/call');
    const error = (await mcp.callTool('count_up', {}).catch((e: unknown) => e)) as MCPCallError;
    expect(error).toBeInstanceOf(MCPCallError);
    expect([error.kind, error.reissue, error.method, error.toolName, error.server]).toEqual([
      'may_have_run',
      true,
      'tools/call',
      'count_up',
      'cut',
    ]);
    expect(error.reason).toBe(
      'the server ended the response stream before the response; the tool may or may not have run, and was not re-sent (it is not marked readOnlyHint or idempotentHint)',
    );
    // It did run, once; the client neither re-sent it nor reconnected.
    expect(currentCount()).toBe(before + 1);
    expect(seen('tools/call')).toHaveLength(1);
    expect(mcp.getState()).toBe('connected');
    expect((await mcp.callTool('peek', {})).content).toEqual([{ type: 'text', text: `count ${before + 1}` }]);
  });

  it.each([
    ['peek', {}, 'readOnlyHint'],
    ['set_count', { n: 7 }, 'idempotentHint'],
  ])('%s (%s) is re-issued once with a new id', async (tool, args, _hint) => {
    const mcp = await connect();
    proxy.cut = cutFirst('tools/call');
    const result = await mcp.callTool(tool, args);
    expect(result.content).toEqual([{ type: 'text', text: `count ${currentCount()}` }]);
    const calls = seen('tools/call');
    expect(calls.map((m) => m.cut)).toEqual([true, false]);
    expect(calls[0]?.id).not.toEqual(calls[1]?.id);
  });
});
