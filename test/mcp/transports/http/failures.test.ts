/** Issue 3, items 8 and 9: streams that end early, stalled servers, and aborting the HTTP request. */
import { afterEach, describe, expect, it } from 'vitest';
import { MCPCallError } from '../../../../src/mcp/protocol/errors.js';
import { closeAll, connect, rejectionOf } from '../../../fixtures/http-client.js';
import { delay, type JsonRpcLike, openSse, sseFrame, textResult } from '../../../fixtures/http-server.js';

afterEach(closeAll);

const progressToken = (m: JsonRpcLike) =>
  (m.params?._meta as { progressToken?: number } | undefined)?.progressToken;

describe('streams that end before the response (item 8)', () => {
  it('fails the call at once when the stream ends without a response, not at the request timeout', async () => {
    const { client } = await connect((f) =>
      f.onMethod('tools/call', (_req, res, m) => {
        openSse(res);
        res.end(
          sseFrame({
            jsonrpc: '2.0',
            method: 'notifications/progress',
            params: { progressToken: progressToken(m), progress: 1 },
          }),
        );
      }),
    );
    const started = Date.now();
    const error = await rejectionOf(
      client.callTool({ name: 'x', arguments: {} }, { timeout: 20_000, onprogress: () => {} }),
    );
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(error).toBeInstanceOf(MCPCallError);
    expect(error).toMatchObject({
      kind: 'transport',
      message:
        'MCP server "fixture": tools/call failed: the server ended the response stream before the response',
    });
  });

  it('fails the call at once when the connection breaks mid-frame', async () => {
    const { client } = await connect((f) =>
      f.onMethod('tools/call', async (_req, res) => {
        openSse(res);
        res.write('data: {"jsonrpc":"2.0",');
        await delay(20);
        res.socket?.destroy();
      }),
    );
    const error = await rejectionOf(client.callTool({ name: 'x', arguments: {} }, { timeout: 20_000 }));
    expect(error).toMatchObject({ name: 'MCPCallError', kind: 'transport' });
  });

  it('resumes with GET and Last-Event-ID when the server gave event ids, and resolves with the replayed response', async () => {
    let callId: string | number | undefined;
    const { client, fixture } = await connect(
      (f) => {
        f.onMethod('tools/call', (_req, res, m) => {
          callId = m.id;
          openSse(res);
          res.end(
            `id: e1\ndata: \n\n${sseFrame({ jsonrpc: '2.0', method: 'notifications/message', params: { level: 'info', data: 'x' } }, { id: 'e2' })}`,
          );
        });
        f.onGet((req, res) => {
          if (req.headers['last-event-id'] === undefined) return void res.writeHead(405).end();
          openSse(res);
          res.end(sseFrame({ jsonrpc: '2.0', id: callId, result: textResult('resumed') }, { id: 'e3' }));
        });
      },
      { reconnection: { initialDelayMs: 10 } },
    );
    const result = await client.callTool({ name: 'x', arguments: {} }, { timeout: 20_000 });
    expect(result.content).toEqual([{ type: 'text', text: 'resumed' }]);
    const resumed = fixture.requestsFor('GET').filter((r) => r.headers['last-event-id'] !== undefined);
    expect(resumed.map((r) => r.headers['last-event-id'])).toEqual(['e2']);
  });

  it('fails the call when resumption is refused', async () => {
    const { client } = await connect(
      (f) => {
        f.onMethod('tools/call', (_req, res) => {
          openSse(res);
          res.end('id: e1\ndata: \n\n');
        });
        f.onGet((_req, res) => void res.writeHead(405).end());
      },
      { reconnection: { initialDelayMs: 10 } },
    );
    const error = await rejectionOf(client.callTool({ name: 'x', arguments: {} }, { timeout: 20_000 }));
    expect(error).toMatchObject({
      kind: 'transport',
      status: 405,
      message: 'MCP server "fixture": tools/call failed: resuming the response stream failed with HTTP 405',
    });
  });
});

describe('stalled servers (item 9)', () => {
  it('times out a POST that is accepted and never answered, after idleTimeoutMs', async () => {
    const { client } = await connect((f) => f.onMethod('tools/call', () => {}), { idleTimeoutMs: 300 });
    const error = await rejectionOf(client.callTool({ name: 'x', arguments: {} }, { timeout: 20_000 }));
    expect(error).toMatchObject({
      kind: 'timeout',
      timeoutMs: 300,
      message: 'MCP server "fixture": tools/call failed: no data from the server for 300 ms',
    });
  });

  it('times out a stream that sent its headers and then nothing', async () => {
    const { client } = await connect((f) => f.onMethod('tools/call', (_req, res) => openSse(res)), {
      idleTimeoutMs: 300,
    });
    const error = await rejectionOf(client.callTool({ name: 'x', arguments: {} }, { timeout: 20_000 }));
    expect(error).toMatchObject({ kind: 'timeout', timeoutMs: 300 });
  });

  it('never cuts off a long call that keeps streaming progress', async () => {
    const { client } = await connect(
      (f) =>
        f.onMethod('tools/call', async (_req, res, m) => {
          openSse(res);
          for (let i = 1; i <= 8; i++) {
            await delay(100);
            res.write(
              sseFrame({
                jsonrpc: '2.0',
                method: 'notifications/progress',
                params: { progressToken: progressToken(m), progress: i },
              }),
            );
          }
          res.end(sseFrame({ jsonrpc: '2.0', id: m.id, result: textResult('slow but fine') }));
        }),
      { idleTimeoutMs: 300 },
    );
    const seen: number[] = [];
    const result = await client.callTool(
      { name: 'x', arguments: {} },
      { onprogress: (p) => seen.push(p.progress) },
    );
    expect(result.content).toEqual([{ type: 'text', text: 'slow but fine' }]);
    expect(seen).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
  });

  it('aborts the HTTP request when the call times out', async () => {
    let released: Promise<void> | undefined;
    const { client } = await connect((f) =>
      f.onMethod('tools/call', (_req, res) => {
        released = new Promise((resolve) => res.on('close', () => resolve()));
        openSse(res);
      }),
    );
    await rejectionOf(client.callTool({ name: 'x', arguments: {} }, { timeout: 200 }));
    await expect(released).resolves.toBeUndefined();
  });

  it('aborts the HTTP request when the caller cancels the call', async () => {
    let released: Promise<void> | undefined;
    const { client, fixture } = await connect((f) =>
      f.onMethod('tools/call', (_req, res) => {
        released = new Promise((resolve) => res.on('close', () => resolve()));
        openSse(res);
      }),
    );
    const controller = new AbortController();
    const call = rejectionOf(
      client.callTool({ name: 'x', arguments: {} }, { signal: controller.signal, timeout: 20_000 }),
    );
    const sent = await fixture.waitForRequest(
      (r) => (r.json as JsonRpcLike | undefined)?.method === 'tools/call',
    );
    controller.abort(new Error('user cancelled'));
    await call;
    await expect(released).resolves.toBeUndefined();
    const cancelled = await fixture.waitForRequest(
      (r) => (r.json as JsonRpcLike | undefined)?.method === 'notifications/cancelled',
    );
    expect((cancelled.json as JsonRpcLike).params).toEqual({
      requestId: (sent.json as JsonRpcLike).id,
      reason: 'Error: user cancelled',
    });
  });
});
