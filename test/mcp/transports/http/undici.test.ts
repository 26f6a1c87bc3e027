/**
 * POSTs through undici's `request()` (http-undici.ts): the same answers as through `fetch`, redirects
 * followed as `fetch` follows them, the global dispatcher honoured, and `fetch` again as soon as the global
 * one was replaced.
 */
import { Readable } from 'node:stream';
import { brotliCompressSync, deflateSync, gzipSync } from 'node:zlib';
import { type Dispatcher, getGlobalDispatcher, setGlobalDispatcher } from 'undici';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { StreamableHTTPTransport } from '../../../../src/mcp/transports/http/streamable-http.js';
import {
  AnswerHeaders,
  isFetchBadPort,
  readJson,
  undiciAvailable,
} from '../../../../src/mcp/transports/http/undici.js';
import { closeAll, connect } from '../../../fixtures/http-client.js';
import { writeInPieces } from '../../../fixtures/http-server.js';
import { listenOnLoopback } from '../../../fixtures/loopback.js';

afterEach(async () => {
  vi.unstubAllGlobals();
  await closeAll();
});

/** Methods of the POSTs a fixture received. */
const postedMethods = (requests: { method: string; json: unknown }[]): unknown[] =>
  requests.filter((r) => r.method === 'POST').map((r) => (r.json as { method?: string }).method);

describe('POSTs through undici', () => {
  it('follows a 307 redirect of the endpoint with the same method and body, as fetch does', async () => {
    let target = '';
    const redirector = await listenOnLoopback((req, res) => {
      req.resume();
      res.writeHead(307, { location: target }).end();
    });
    try {
      const { client, fixture } = await connect(
        (f) => {
          target = f.url;
        },
        { url: `${redirector.origin}/mcp` },
      );
      const result = await client.callTool({ name: 'echo', arguments: { text: 'via redirect' } });
      expect(result.content).toEqual([{ type: 'text', text: 'ok' }]);
      expect(postedMethods(fixture.requests)).toEqual([
        'initialize',
        'notifications/initialized',
        'tools/call',
      ]);
      const call = fixture.requests.at(-1)?.json as { params: { arguments: unknown } };
      expect(call.params.arguments).toEqual({ text: 'via redirect' });
    } finally {
      await redirector.close();
    }
  });

  it("sends them through undici's global dispatcher, with options an undici 7 one takes too", async () => {
    const original = getGlobalDispatcher();
    const paths: string[] = [];
    const counting = {
      dispatch: (options: Dispatcher.DispatchOptions, handler: Dispatcher.DispatchHandlers) => {
        // undici 7 refuses `maxRedirections` ("use the redirect interceptor"): every POST would fail.
        if ('maxRedirections' in options) throw new Error('maxRedirections is not supported');
        if (options.method === 'POST') paths.push(String(options.path));
        return original.dispatch(options, handler);
      },
      close: () => original.close(),
      destroy: () => original.destroy(),
    } as unknown as Dispatcher;
    setGlobalDispatcher(counting);
    try {
      const { client } = await connect();
      await client.callTool({ name: 'echo', arguments: { text: 'x' } });
      expect(paths).toEqual(['/mcp', '/mcp', '/mcp']);
    } finally {
      setGlobalDispatcher(original);
    }
  });

  it('goes back to the global fetch once it was replaced (a stub, MSW)', async () => {
    const seen: string[] = [];
    const real = globalThis.fetch;
    vi.stubGlobal('fetch', (url: string | URL, init?: RequestInit) => {
      if (init?.method === 'POST' && typeof init.body === 'string') {
        seen.push((JSON.parse(init.body) as { method: string }).method);
      }
      return real(url, init);
    });
    const { client } = await connect();
    await client.callTool({ name: 'echo', arguments: { text: 'x' } });
    expect(seen).toEqual(['initialize', 'notifications/initialized', 'tools/call']);
  });

  it('hands an error answer back as fetch would: status and body excerpt', async () => {
    const { client, fixture } = await connect();
    fixture.onMethod('tools/call', (_req, res) => {
      res.writeHead(503, { 'content-type': 'text/plain' }).end('overloaded, try later');
    });
    await expect(client.callTool({ name: 'echo', arguments: {} })).rejects.toMatchObject({
      kind: 'http',
      status: 503,
      body: 'overloaded, try later',
    });
  });
});

describe('requests through undici, as fetch sends them', () => {
  it("sends fetch's default headers, and never the caller's Host or Content-Length", async () => {
    const { client, fixture } = await connect(() => {}, {
      headers: { Host: 'elsewhere.example', 'Content-Length': '5', 'X-Team': 'blue' },
    });
    await client.callTool({ name: 'echo', arguments: {} });
    const call = fixture.requests.at(-1);
    expect(call?.headers).toMatchObject({
      'user-agent': 'node',
      'accept-encoding': 'gzip, deflate',
      'accept-language': '*',
      'sec-fetch-mode': 'cors',
      'x-team': 'blue',
    });
    expect(call?.headers.host).toBe(new URL(fixture.url).host);
    expect(call?.headers['content-length']).toBe(String(Buffer.byteLength(call?.body ?? '')));
  });

  it('gives a status outside 200–599 back as an HTTP error with its status and body, as fetch does', async () => {
    const { client, fixture } = await connect();
    fixture.onMethod('tools/call', (_req, res) => {
      res.writeHead(600, { 'content-type': 'text/plain' }).end('weird status body');
    });
    await expect(client.callTool({ name: 'echo', arguments: {} })).rejects.toMatchObject({
      kind: 'http',
      status: 600,
      body: 'weird status body',
    });
  });

  it('leaves a redirect loop to fetch, which fails it as fetch does', async () => {
    const loop = await listenOnLoopback((req, res) => {
      req.resume();
      res.writeHead(307, { location: '/mcp' }).end();
    });
    try {
      const transport = new StreamableHTTPTransport({
        url: `${loop.origin}/mcp`,
        serverName: 'loop',
      });
      const error = await transport
        .send({ jsonrpc: '2.0', id: 1, method: 'initialize', params: {} })
        .catch((e: unknown) => e);
      expect(error).toMatchObject({
        kind: 'transport',
        message: expect.stringContaining('redirect count exceeded'),
      });
      await transport.close();
    } finally {
      await loop.close();
    }
  });
});

describe('ports fetch refuses', () => {
  it('are refused for every request, as fetch refuses them, so that a session has one outcome', async () => {
    expect(isFetchBadPort(new URL('http://127.0.0.1:6000/mcp'))).toBe(true);
    expect(isFetchBadPort(new URL('http://mail.example/mcp'))).toBe(false);
    expect(isFetchBadPort(new URL('https://example.com:3001/mcp'))).toBe(false);
    const transport = new StreamableHTTPTransport({ url: 'http://127.0.0.1:6000/mcp', serverName: 'x11' });
    const error = await transport
      .send({ jsonrpc: '2.0', id: 1, method: 'initialize', params: {} })
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ kind: 'transport', message: expect.stringContaining('bad port') });
    await transport.close();
  });
});

describe('undiciAvailable', () => {
  it("is true for Node's own fetch only, and never with a fetch option", () => {
    expect(undiciAvailable(undefined)).toBe(true);
    expect(undiciAvailable(globalThis.fetch)).toBe(false);
    const real = globalThis.fetch;
    vi.stubGlobal('fetch', (url: string | URL, init?: RequestInit) => real(url, init));
    expect(undiciAvailable(undefined)).toBe(false);
    vi.unstubAllGlobals();
    expect(undiciAvailable(undefined)).toBe(true);
  });
});

describe('compressed answers through undici', () => {
  const answer = (id: unknown, text: string) =>
    JSON.stringify({ jsonrpc: '2.0', id, result: { content: [{ type: 'text', text }] } });

  for (const [coding, compress] of [
    ['gzip', gzipSync],
    ['br', brotliCompressSync],
    ['deflate', deflateSync],
  ] as const) {
    it(`undoes Content-Encoding: ${coding} of a JSON answer, as fetch does`, async () => {
      const { client } = await connect((fixture) =>
        fixture.onMethod('tools/call', (_req, res, m) => {
          res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': coding });
          res.end(compress(Buffer.from(answer(m.id, `packed with ${coding} ✓`))));
        }),
      );
      const result = await client.callTool({ name: 'echo', arguments: {} });
      expect(result.content).toEqual([{ type: 'text', text: `packed with ${coding} ✓` }]);
    });
  }

  it('undoes it for an SSE answer too', async () => {
    const { client } = await connect((fixture) =>
      fixture.onMethod('tools/call', (_req, res, m) => {
        res.writeHead(200, { 'content-type': 'text/event-stream', 'content-encoding': 'gzip' });
        res.end(gzipSync(Buffer.from(`event: message\ndata: ${answer(m.id, 'streamed')}\n\n`)));
      }),
    );
    const result = await client.callTool({ name: 'echo', arguments: {} });
    expect(result.content).toEqual([{ type: 'text', text: 'streamed' }]);
  });
});

describe('large JSON answers through undici', () => {
  it('reads a 6 MiB answer as it arrives, escapes and multi-byte characters intact', async () => {
    const text = 'line "one"\n\tzwei – drei ✓ 😀\n'.repeat(200_000);
    const { client } = await connect((fixture) =>
      fixture.onMethod('tools/call', async (_req, res, m) => {
        res.writeHead(200, { 'content-type': 'application/json' });
        const body = JSON.stringify({
          jsonrpc: '2.0',
          id: m.id,
          result: { content: [{ type: 'text', text }] },
        });
        await writeInPieces(res, body, 65_536);
        res.end();
      }),
    );
    const result = await client.callTool({ name: 'echo', arguments: {} });
    const got = (result.content as { text: string }[])[0]?.text ?? '';
    expect(Buffer.byteLength(got)).toBeGreaterThan(6 * 1024 * 1024);
    expect(got === text).toBe(true);
  });

  it('fails a 5 MiB answer that is not JSON with a protocol error', async () => {
    const { client } = await connect((fixture) =>
      fixture.onMethod('tools/call', (_req, res) => {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(`{"jsonrpc":"2.0","id":"${'x'.repeat(5 * 1024 * 1024)}`);
      }),
    );
    await expect(client.callTool({ name: 'echo', arguments: {} })).rejects.toMatchObject({
      kind: 'protocol',
      message: expect.stringContaining('the answer is not valid JSON'),
    });
  });
});

describe('error answers through undici', () => {
  it('reads the excerpt of a long error body still arriving and drops the rest, the process unharmed', async () => {
    const { client, fixture } = await connect();
    fixture.onMethod('tools/call', async (_req, res) => {
      res.writeHead(500, { 'content-type': 'text/plain' });
      await writeInPieces(res, 'e'.repeat(256 * 1024), 4096);
      res.end();
    });
    const error = await client.callTool({ name: 'echo', arguments: {} }).catch((e: unknown) => e);
    expect(error).toMatchObject({ kind: 'http', status: 500, body: 'e'.repeat(512) });
    // The connection is usable afterwards.
    fixture.onMethod('tools/call', (_req, res, m) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ jsonrpc: '2.0', id: m.id, result: { content: [] } }));
    });
    expect((await client.callTool({ name: 'echo', arguments: {} })).content).toEqual([]);
  });

  it('drops the unread body of an answer it does not need (a notification answered with text)', async () => {
    const { client, errors } = await connect((fixture) =>
      fixture.onMethod('notifications/initialized', (_req, res) => {
        res.writeHead(200, { 'content-type': 'text/plain' }).end('x'.repeat(64 * 1024));
      }),
    );
    const result = await client.callTool({ name: 'echo', arguments: {} });
    expect(result.content).toEqual([{ type: 'text', text: 'ok' }]);
    expect(errors).toEqual([]);
  });
});

describe('readJson', () => {
  const body = (text: string, size: number) => {
    const bytes = Buffer.from(text);
    const chunks: Buffer[] = [];
    for (let at = 0; at < bytes.length; at += size) chunks.push(bytes.subarray(at, at + size));
    return Readable.from(chunks);
  };

  it('gives a small body as text, without its BOM, and counts its chunks', async () => {
    let calls = 0;
    const read = await readJson(body('\uFEFF{"a":1}', 3), () => calls++);
    expect(read).toEqual({ text: '{"a":1}' });
    expect(calls).toBe(4);
  });

  it('gives a body of 4 MiB or more as its parsed value', async () => {
    const value = { text: 'y'.repeat(4 * 1024 * 1024) };
    const read = await readJson(body(JSON.stringify(value), 65_536), () => {});
    expect('value' in read && read.value).toEqual(value);
  });

  it('gives a large body that is not JSON as text', async () => {
    const text = `{"text":"${'z'.repeat(4 * 1024 * 1024)}"`;
    const read = await readJson(body(text, 65_536), () => {});
    expect('text' in read && read.text === text).toBe(true);
  });
});

describe('AnswerHeaders', () => {
  it('reads names in any case and joins repeated values as Headers.get does', () => {
    const headers = new AnswerHeaders({ 'content-type': 'application/json', 'x-many': ['a', 'b'] });
    expect(headers.get('Content-Type')).toBe('application/json');
    expect(headers.get('x-many')).toBe('a, b');
    expect(headers.get('absent')).toBeNull();
    expect([...headers.toHeaders()]).toEqual([
      ['content-type', 'application/json'],
      ['x-many', 'a, b'],
    ]);
  });
});
