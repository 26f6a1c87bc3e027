/**
 * Issue 3, items 1, 2, 3, 6 and 7: how POST answers are framed and read, driven through the SDK `Client`.
 */
import type { ServerResponse } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { MCPCallError } from '../../../../src/mcp/protocol/errors.js';
import { closeAll, connect, rejectionOf } from '../../../fixtures/http-client.js';
import {
  FIXTURE_SESSION_ID,
  type JsonRpcLike,
  openSse,
  sseFrame,
  textResult,
  writeInPieces,
} from '../../../fixtures/http-server.js';

afterEach(closeAll);

function response(message: JsonRpcLike, text: string) {
  return { jsonrpc: '2.0', id: message.id, result: textResult(text) };
}

/** Answers tools/call with `body` as an SSE stream, ended afterwards. */
function sseAnswer(body: (message: JsonRpcLike) => string) {
  return (_req: unknown, res: ServerResponse, message: JsonRpcLike) => {
    openSse(res);
    res.end(body(message));
  };
}

describe('SSE framing of POST answers (item 1)', () => {
  it('joins multi-line data with "\\n" and accepts CR, LF and CRLF line endings', async () => {
    const { client } = await connect((fixture) =>
      fixture.onMethod(
        'tools/call',
        sseAnswer((m) => {
          const json = JSON.stringify(response(m, 'a\nb'), null, 1);
          const [first, ...rest] = json.split('\n');
          // First line ends with CR, the next ones with CRLF, the last with LF.
          return `: comment\r\nevent: message\r\ndata: ${first}\r${rest.map((line) => `data: ${line}`).join('\r\n')}\n\n`;
        }),
      ),
    );
    const result = await client.callTool({ name: 'x', arguments: {} });
    expect(result.content).toEqual([{ type: 'text', text: 'a\nb' }]);
  });

  it('treats a frame without event: as a message and skips comments, retry: and other event types', async () => {
    const { client } = await connect((fixture) =>
      fixture.onMethod(
        'tools/call',
        sseAnswer(
          (m) =>
            `: keep-alive\n\nretry: 5000\n\nevent: other\ndata: {"ignored":true}\n\nid: 7\n${sseFrame(response(m, 'plain'))}`,
        ),
      ),
    );
    const result = await client.callTool({ name: 'x', arguments: {} });
    expect(result.content).toEqual([{ type: 'text', text: 'plain' }]);
  });

  it('decodes a frame split inside a multi-byte UTF-8 character, one byte per write', async () => {
    const { client } = await connect((fixture) =>
      fixture.onMethod('tools/call', async (_req, res, m) => {
        openSse(res);
        await writeInPieces(res, sseFrame(response(m, 'héllo wörld ✓ 😀')), 1);
        res.end();
      }),
    );
    const result = await client.callTool({ name: 'x', arguments: {} });
    expect(result.content).toEqual([{ type: 'text', text: 'héllo wörld ✓ 😀' }]);
  });

  it('reads a 100 KB frame delivered a few bytes per write', async () => {
    const big = 'é'.repeat(50_000);
    const { client } = await connect((fixture) =>
      fixture.onMethod('tools/call', async (_req, res, m) => {
        openSse(res);
        await writeInPieces(res, sseFrame(response(m, big)), 61);
        res.end();
      }),
    );
    const result = await client.callTool({ name: 'x', arguments: {} });
    expect(result.content).toEqual([{ type: 'text', text: big }]);
  });
});

describe('messages before the response (item 2)', () => {
  it('passes progress and log notifications to their handlers, then resolves with the response', async () => {
    const { client } = await connect((fixture) =>
      fixture.onMethod(
        'tools/call',
        sseAnswer((m) => {
          const token = (m.params?._meta as { progressToken?: number } | undefined)?.progressToken;
          return [
            sseFrame({
              jsonrpc: '2.0',
              method: 'notifications/progress',
              params: { progressToken: token, progress: 1, total: 2 },
            }),
            sseFrame({
              jsonrpc: '2.0',
              method: 'notifications/message',
              params: { level: 'info', data: 'half way' },
            }),
            // Same id, but a method: a request from the server, not our response.
            sseFrame({ jsonrpc: '2.0', id: m.id, method: 'ping' }),
            sseFrame(response(m, 'done')),
          ].join('');
        }),
      ),
    );
    const progress: unknown[] = [];
    const logs: unknown[] = [];
    client.setNotificationHandler('notifications/message', (n) => {
      logs.push(n.params);
    });
    const result = await client.callTool(
      { name: 'x', arguments: {} },
      { onprogress: (p) => progress.push(p) },
    );
    expect(result.content).toEqual([{ type: 'text', text: 'done' }]);
    expect(progress).toEqual([{ progress: 1, total: 2 }]);
    expect(logs).toEqual([{ level: 'info', data: 'half way' }]);
  });

  it('answers server requests that arrive on the stream: ping with a result, unknown methods with -32601', async () => {
    const { client, fixture } = await connect((fixture) =>
      fixture.onMethod(
        'tools/call',
        sseAnswer((m) =>
          [
            sseFrame({ jsonrpc: '2.0', id: 'srv-1', method: 'ping' }),
            sseFrame({ jsonrpc: '2.0', id: 'srv-2', method: 'no/such/method' }),
            sseFrame(response(m, 'done')),
          ].join(''),
        ),
      ),
    );
    await client.callTool({ name: 'x', arguments: {} });
    const answer = (id: string) =>
      fixture.waitForRequest(
        (r) =>
          (r.json as JsonRpcLike | undefined)?.id === id &&
          r.json !== undefined &&
          !('method' in (r.json as object)),
      );
    expect((await answer('srv-1')).json).toEqual({ jsonrpc: '2.0', id: 'srv-1', result: {} });
    expect((await answer('srv-2')).json).toMatchObject({
      jsonrpc: '2.0',
      id: 'srv-2',
      error: { code: -32601 },
    });
  });
});

describe('request headers (item 3)', () => {
  it('sends both Accept types on every POST, replays the session id and, after initialize, the protocol version', async () => {
    const { client, fixture } = await connect();
    await client.callTool({ name: 'x', arguments: {} });
    const posts = fixture.requestsFor('POST');
    expect(posts.map((r) => (r.json as JsonRpcLike).method)).toEqual([
      'initialize',
      'notifications/initialized',
      'tools/call',
    ]);
    for (const post of posts) expect(post.headers.accept).toBe('application/json, text/event-stream');
    expect(posts.map((r) => r.headers['mcp-session-id'])).toEqual([
      undefined,
      FIXTURE_SESSION_ID,
      FIXTURE_SESSION_ID,
    ]);
    expect(posts.map((r) => r.headers['mcp-protocol-version'])).toEqual([
      undefined,
      '2025-11-25',
      '2025-11-25',
    ]);
  });
});

describe('empty answers (item 6)', () => {
  it('accepts 204 with an empty body as the acknowledgement of notifications/initialized, then opens the GET stream', async () => {
    const { fixture } = await connect((fixture) =>
      fixture.onMethod('notifications/initialized', (_req, res) => {
        res.writeHead(204).end();
      }),
    );
    const get = await fixture.waitForRequest((r) => r.method === 'GET');
    expect(get.headers.accept).toBe('text/event-stream');
    expect(get.headers['mcp-session-id']).toBe(FIXTURE_SESSION_ID);
  });

  it.each([
    ['200 application/json', 200, 'application/json'],
    ['200 text/event-stream', 200, 'text/event-stream'],
    ['200 without content type', 200, undefined],
    ['202 to a request', 202, undefined],
  ])(
    'fails a request answered with an empty %s, saying a proxy probably answered',
    async (_name, status, type) => {
      const { client } = await connect((fixture) =>
        fixture.onMethod('tools/call', (_req, res) => {
          res.writeHead(status, type === undefined ? {} : { 'content-type': type }).end();
        }),
      );
      const error = await rejectionOf(client.callTool({ name: 'x', arguments: {} }, { timeout: 20_000 }));
      expect(error).toBeInstanceOf(MCPCallError);
      expect((error as MCPCallError).kind).toBe('http');
      expect((error as MCPCallError).status).toBe(status);
      expect((error as MCPCallError).message).toBe(
        `MCP server "fixture": tools/call failed: the server answered HTTP ${status} (${type ?? 'no content type'}) with an empty body; a proxy probably answered instead of the MCP server`,
      );
    },
  );
});

describe('held-open POST streams (item 7)', () => {
  it('returns at the frame carrying the response and releases the stream the server holds open', async () => {
    let released: Promise<void> | undefined;
    const { client } = await connect((fixture) =>
      fixture.onMethod('tools/call', (_req, res, m) => {
        released = new Promise((resolve) => res.on('close', () => resolve()));
        openSse(res);
        res.write(sseFrame(response(m, 'early')));
        // Never ended by the server.
      }),
    );
    const result = await client.callTool({ name: 'x', arguments: {} }, { timeout: 20_000 });
    expect(result.content).toEqual([{ type: 'text', text: 'early' }]);
    await expect(released).resolves.toBeUndefined();
  });
});
