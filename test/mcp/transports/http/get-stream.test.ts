/** Issue 3, item 10: the GET stream for server-initiated messages. */
import { afterEach, describe, expect, it } from 'vitest';
import { closeAll, connect } from '../../../fixtures/http-client.js';
import {
  delay,
  FIXTURE_SESSION_ID,
  type JsonRpcLike,
  openSse,
  sseFrame,
} from '../../../fixtures/http-server.js';

afterEach(closeAll);

describe('the GET stream (item 10)', () => {
  it.each([405, 404])(
    'takes %i on GET as "no stream": one attempt, no error, calls still work',
    async (status) => {
      const { client, fixture, errors } = await connect(
        (f) => f.onGet((_req, res) => void res.writeHead(status).end()),
        {
          reconnection: { initialDelayMs: 10 },
        },
      );
      await fixture.waitForRequest((r) => r.method === 'GET');
      await delay(200);
      expect(fixture.requestsFor('GET')).toHaveLength(1);
      expect(errors).toEqual([]);
      expect((await client.listTools()).tools).toEqual([]);
    },
  );

  it('delivers server requests from the GET stream and answers them', async () => {
    const { fixture } = await connect((f) =>
      f.onGet((_req, res) => {
        openSse(res);
        res.write(sseFrame({ jsonrpc: '2.0', id: 'srv-ping', method: 'ping' }));
      }),
    );
    const answer = await fixture.waitForRequest(
      (r) => (r.json as JsonRpcLike | undefined)?.id === 'srv-ping',
    );
    expect(answer.json).toEqual({ jsonrpc: '2.0', id: 'srv-ping', result: {} });
    expect(answer.headers['mcp-session-id']).toBe(FIXTURE_SESSION_ID);
  });

  it('reconnects after the server ends it, with Last-Event-ID and after the retry: delay the server asked for', async () => {
    const { fixture, client } = await connect(
      (f) =>
        f.onGet((req, res) => {
          openSse(res);
          if (req.headers['last-event-id'] === undefined) res.end(`retry: 150\nid: g1\ndata: \n\n`);
          else res.write(': resumed\n\n');
        }),
      { reconnection: { initialDelayMs: 5_000 } },
    );
    const first = await fixture.waitForRequest((r) => r.method === 'GET');
    const second = await fixture.waitForRequest(
      (r) => r.method === 'GET' && r.headers['last-event-id'] === 'g1',
    );
    expect(second).not.toBe(first);
    expect(fixture.requestsFor('GET')).toHaveLength(2);
    expect(fixture.requestsFor('GET').map((r) => r.headers['last-event-id'])).toEqual([undefined, 'g1']);
    await client.close();
  });

  it('closes the GET stream when the client closes', async () => {
    let released: Promise<void> | undefined;
    const { client, fixture } = await connect((f) =>
      f.onGet((_req, res) => {
        released = new Promise((resolve) => res.on('close', () => resolve()));
        openSse(res);
      }),
    );
    await fixture.waitForRequest((r) => r.method === 'GET');
    await client.close();
    await expect(released).resolves.toBeUndefined();
  });
});

describe('the GET stream and maxMessageBytes', () => {
  it('reports an event over the bound through onerror, cancels the stream and reopens it; calls still work', async () => {
    const { client, fixture, errors } = await connect(
      (f) =>
        f.onGet((_req, res) => {
          openSse(res);
          res.write(`data: ${'x'.repeat(4096)}\n`); // an event that never ends
        }),
      { maxMessageBytes: 1024, reconnection: { initialDelayMs: 10, maxRetries: 1 } },
    );
    await fixture.waitForRequest((r) => r.method === 'GET' && r.headers['last-event-id'] === undefined);
    await waitFor(() => fixture.requestsFor('GET').length >= 2);
    expect(errors[0]).toMatchObject({
      name: 'MCPCallError',
      kind: 'protocol',
      message: 'MCP server "fixture": GET stream failed: an SSE event is over maxMessageBytes (1024 bytes)',
    });
    expect((await client.listTools()).tools).toEqual([]);
  });
});

async function waitFor(predicate: () => boolean): Promise<void> {
  for (let i = 0; i < 500 && !predicate(); i++) await delay(10);
  expect(predicate()).toBe(true);
}
