/**
 * `application/json` answers: read with a reader loop, decoded in one go when they arrive in one chunk and
 * with a streaming decoder otherwise (bench/PROFILE.md §6); and a caller's own `fetch` carries every POST.
 */
import type { ServerResponse } from 'node:http';
import type { FetchLike } from '@modelcontextprotocol/client';
import { afterEach, describe, expect, it } from 'vitest';
import { closeAll, connect } from '../../../fixtures/http-client.js';
import { type JsonRpcLike, textResult, writeInPieces } from '../../../fixtures/http-server.js';

afterEach(closeAll);

const TEXT = 'héllo wörld ✓ 😀';

function answer(message: JsonRpcLike, text: string): string {
  return JSON.stringify({ jsonrpc: '2.0', id: message.id, result: textResult(text) });
}

function openJson(res: ServerResponse): void {
  res.writeHead(200, { 'content-type': 'application/json' });
  res.flushHeaders();
}

describe('application/json answers', () => {
  it('decodes an answer that arrives in one chunk', async () => {
    const { client } = await connect((fixture) =>
      fixture.onMethod('tools/call', (_req, res, m) => {
        res.writeHead(200, { 'content-type': 'application/json' }).end(answer(m, TEXT));
      }),
    );
    const result = await client.callTool({ name: 'x', arguments: {} });
    expect(result.content).toEqual([{ type: 'text', text: TEXT }]);
  });

  it('decodes an answer split inside multi-byte UTF-8 characters, one byte per write', async () => {
    const { client } = await connect((fixture) =>
      fixture.onMethod('tools/call', async (_req, res, m) => {
        openJson(res);
        await writeInPieces(res, answer(m, TEXT), 1);
        res.end();
      }),
    );
    const result = await client.callTool({ name: 'x', arguments: {} });
    expect(result.content).toEqual([{ type: 'text', text: TEXT }]);
  });

  it('decodes an answer whose first chunk ends inside a multi-byte character', async () => {
    const { client } = await connect((fixture) =>
      fixture.onMethod('tools/call', async (_req, res, m) => {
        openJson(res);
        const bytes = Buffer.from(answer(m, TEXT), 'utf8');
        // The first byte of "é" closes the first chunk; its second byte opens the second.
        const cut = bytes.indexOf(Buffer.from('é', 'utf8')) + 1;
        await writeInPieces(res, bytes.subarray(0, cut), cut);
        await writeInPieces(res, bytes.subarray(cut), bytes.length);
        res.end();
      }),
    );
    const result = await client.callTool({ name: 'x', arguments: {} });
    expect(result.content).toEqual([{ type: 'text', text: TEXT }]);
  });
});

describe('a caller-supplied fetch', () => {
  it('carries every POST, calls included', async () => {
    const methods: string[] = [];
    const counting: FetchLike = (url, init) => {
      if (init?.method === 'POST' && typeof init.body === 'string') {
        methods.push((JSON.parse(init.body) as { method: string }).method);
      }
      return fetch(url, init);
    };
    const { client } = await connect(
      (fixture) =>
        fixture.onMethod('tools/call', (_req, res, m) => {
          res.writeHead(200, { 'content-type': 'application/json' }).end(answer(m, 'ok'));
        }),
      { fetch: counting },
    );
    await client.callTool({ name: 'x', arguments: {} });
    await client.callTool({ name: 'x', arguments: {} });
    expect(methods).toEqual(['initialize', 'notifications/initialized', 'tools/call', 'tools/call']);
  });
});
