/**
 * The HTTP fast path of 2026-07-28 `tools/call` (src/gateway/http-fast-call.ts) against the SDK handler's
 * own path, over raw HTTP requests to `MCPGateway.listen` in front of server-everything: for each kind of
 * outcome (text, an image, structured content, an upstream's JSON-RPC error, an unknown tool) the first
 * request with an envelope (served by the SDK, which teaches the envelope) and the same request again (taken
 * by the fast path, or handed back to the SDK already settled; an unknown tool is left to the SDK) get the
 * same status, headers and bytes; a
 * request whose `Mcp-Name` header does not name the body's tool never takes the fast path and gets the SDK's
 * refusal. Which path served each request is read from the fast path's own decisions (a spy that calls
 * through).
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { HttpFastCalls } from '../../src/gateway/http-fast-call.js';
import { MCPGateway } from '../../src/gateway/index.js';
import { loadServerConfig } from '../../src/mcp/index.js';
import { EVERYTHING, tempDir } from '../helpers.js';
import { type RawAnswer, rawToolCall } from './raw-call.js';

const TOKEN = 'http-fast-call-token-0123456789';
let gateway: MCPGateway;
let url: string;
let remove: () => void;

beforeAll(async () => {
  const temp = tempDir('agentwire-gateway-http-fast-');
  remove = temp.remove;
  const file = path.join(temp.dir, 'servers.json');
  writeFileSync(
    file,
    JSON.stringify({ mcpServers: { everything: { command: process.execPath, args: [EVERYTHING] } } }),
  );
  gateway = MCPGateway.fromConfig(await loadServerConfig(file));
  expect((await gateway.start()).map((result) => result.ok)).toEqual([true]);
  url = (await gateway.listen({ bearerToken: TOKEN })).url;
}, 60_000);

afterAll(async () => {
  await gateway?.close();
  remove?.();
});

/** A raw 2026-07-28 `tools/call` whose envelope names client `client` (raw-call.ts). */
function call(
  client: string,
  name: string,
  input: unknown,
  id: number,
  nameHeader = name,
): Promise<RawAnswer> {
  return rawToolCall(url, TOKEN, { client, name, input, id, nameHeader });
}

const CASES: [string, unknown, string][] = [
  ['everything__echo', { message: 'hi' }, 'take'],
  ['everything__get-tiny-image', {}, 'take'],
  ['everything__get-structured-content', { location: 'Chicago' }, 'take'],
  ['everything__get-sum', { a: 'one', b: 2 }, 'take'],
  ['nobody__echo', { message: 'hi' }, 'pass'],
];

describe('tools/call over HTTP, 2026-07-28', () => {
  it.each(CASES)('%s: the SDK path and the fast path answer the same bytes', async (name, input, second) => {
    const decide = vi.spyOn(HttpFastCalls.prototype, 'decide');
    try {
      // A client name of its own per case: its envelope is new, so the first request teaches it.
      const client = `http-fast-${name}`;
      const first = await call(client, name, input, 7);
      const again = await call(client, name, input, 7);
      expect(decide.mock.results.map((result) => (result.value as { kind: string }).kind)).toEqual([
        'learn',
        second,
      ]);
      expect(again).toEqual(first);
      expect(first.status).toBe(200);
    } finally {
      decide.mockRestore();
    }
  });

  it("answers a taken call in the SDK's layout: the result, resultType and the gateway's serverInfo", async () => {
    const client = 'http-fast-mixed';
    await call(client, 'everything__echo', { message: 'learn' }, 1);
    const fast = await call(client, 'everything__echo', { message: 'fast' }, 2);
    expect(JSON.parse(fast.body)).toEqual({
      result: {
        content: [{ type: 'text', text: 'Echo: fast' }],
        resultType: 'complete',
        _meta: {
          'io.modelcontextprotocol/serverInfo': { name: 'agentwire-gateway', version: expect.any(String) },
        },
      },
      jsonrpc: '2.0',
      id: 2,
    });
  });

  it('leaves a request whose Mcp-Name header differs from its tool to the SDK, which refuses it', async () => {
    const client = 'http-fast-mismatch';
    await call(client, 'everything__echo', { message: 'learn' }, 1);
    const decide = vi.spyOn(HttpFastCalls.prototype, 'decide');
    try {
      const refused = await call(client, 'everything__echo', { message: 'x' }, 2, 'everything__get-sum');
      expect(decide.mock.results.map((result) => (result.value as { kind: string }).kind)).toEqual(['pass']);
      expect(refused.status).toBe(400);
      expect(JSON.parse(refused.body)).toMatchObject({ jsonrpc: '2.0', id: 2, error: { code: -32020 } });
    } finally {
      decide.mockRestore();
    }
  });
});
