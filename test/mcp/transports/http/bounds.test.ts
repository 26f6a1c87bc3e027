/**
 * `maxMessageBytes` on HTTP: a compression bomb, an endless JSON body, an endless SSE event and a huge error
 * body each fail their call at the bound (not at the timeout), and the client's peak memory stays within a
 * small multiple of the bound. Measured in a child process (test/fixtures/bounded-client.ts, bundled at
 * test time), so that the test runner's own heap is not in the figure.
 */
import { execFile } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import type { ServerResponse } from 'node:http';
import path from 'node:path';
import { promisify } from 'node:util';
import { createGzip } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HttpFixture, openSse, respondJson, textResult } from '../../../fixtures/http-server.js';

const MiB = 1024 * 1024;
const ROOT = path.resolve(import.meta.dirname, '../../../..');
// Two levels below the root, as src/core/version.ts expects of the file it is bundled into.
const OUT_DIR = path.join(ROOT, 'node_modules', '.agentwire-bounds-test');
const CHILD = path.join(OUT_DIR, 'bounded-client.mjs');
/**
 * The bound under test. Large enough that the figure is about the bound, not about V8's young generation
 * (tens of MiB of garbage that the collector has not yet returned, whatever the bound).
 */
const LIMIT = 32 * MiB;

/** `{"jsonrpc":"2.0","id":"x","result":{"content":[{"type":"text","text":"aaa…` inflating to 1 GiB. */
async function gzipBomb(): Promise<Buffer> {
  const gzip = createGzip({ level: 9 });
  const out: Buffer[] = [];
  gzip.on('data', (chunk: Buffer) => out.push(chunk));
  const ended = new Promise((resolve) => gzip.on('end', resolve));
  gzip.write('{"jsonrpc":"2.0","id":"x","result":{"content":[{"type":"text","text":"');
  const chunk = Buffer.alloc(MiB, 0x61);
  for (let i = 0; i < 1024; i++) {
    if (!gzip.write(chunk)) await new Promise((resolve) => gzip.once('drain', resolve));
  }
  gzip.end();
  await ended;
  return Buffer.concat(out);
}

/** Writes `chunk` to `res` until the client goes away, honouring backpressure. */
async function endless(res: ServerResponse, chunk: string): Promise<void> {
  let gone = false;
  res.on('close', () => {
    gone = true;
  });
  while (!gone) {
    if (!res.write(chunk)) await new Promise((resolve) => res.once('drain', resolve).once('close', resolve));
  }
}

const filler = 'a'.repeat(64 * 1024);
let fixture: HttpFixture;
let bomb: Buffer;

beforeAll(async () => {
  mkdirSync(OUT_DIR, { recursive: true });
  const { build } = await import('rolldown');
  await build({
    input: path.join(ROOT, 'test/fixtures/bounded-client.ts'),
    platform: 'node',
    external: [/node_modules/, /^[^./]/],
    output: { file: CHILD, format: 'esm' },
    logLevel: 'silent',
  });
  bomb = await gzipBomb();
  fixture = await HttpFixture.start();
  fixture.onMethod('tools/call', async (_req, res, message) => {
    const name = message.params?.name;
    if (name === 'gzip-bomb') {
      res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip' });
      res.end(bomb);
    } else if (name === 'endless-json') {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write(
        `{"jsonrpc":"2.0","id":${JSON.stringify(message.id)},"result":{"content":[{"type":"text","text":"`,
      );
      await endless(res, filler);
    } else if (name === 'endless-sse-event') {
      openSse(res);
      // One event whose data lines never end with the blank line that would dispatch it.
      res.write(`data: {"jsonrpc":"2.0","id":${JSON.stringify(message.id)},"result":\n`);
      await endless(res, `data: ${filler}\n`);
    } else if (name === 'large-error-body') {
      res.writeHead(500, { 'content-type': 'text/plain' });
      await endless(res, filler);
    } else {
      respondJson(res, { jsonrpc: '2.0', id: message.id, result: textResult('ok') });
    }
  });
}, 60_000);

afterAll(async () => {
  await fixture?.close();
});

interface ChildCall {
  tool: string;
  ms: number;
  kind?: string;
  message?: string;
  status?: number;
  bodyLength?: number;
}

async function runChild(
  requestPath: 'undici' | 'fetch',
  tools: string[],
): Promise<{ before: number; after: number; calls: ChildCall[] }> {
  const { stdout } = await promisify(execFile)(
    process.execPath,
    [CHILD, fixture.url, String(LIMIT), requestPath, ...tools],
    { cwd: ROOT, timeout: 120_000 },
  );
  return JSON.parse(stdout);
}

const over = (what: string, tool: string) =>
  `MCP server "bounds": tools/call "${tool}" failed: ${what} is over maxMessageBytes (${LIMIT} bytes)`;

describe.each(['undici', 'fetch'] as const)('maxMessageBytes over HTTP (%s)', (requestPath) => {
  it.each([
    ['gzip-bomb', 'the JSON answer'],
    ['endless-json', 'the JSON answer'],
    ['endless-sse-event', 'an SSE event'],
  ])(
    '%s fails its call with kind protocol at the bound, peak RSS within 4 × the bound',
    async (tool, what) => {
      const { before, after, calls } = await runChild(requestPath, [tool, 'ok']);
      console.info(`${requestPath} ${tool}: maxRSS ${before} KiB -> ${after} KiB, ${calls[0]?.ms} ms`);
      expect(calls).toEqual([
        { tool, ms: expect.any(Number), kind: 'protocol', message: over(what, tool) },
        { tool: 'ok', ms: expect.any(Number), other: 'undefined' },
      ]);
      expect((after - before) * 1024).toBeLessThan(4 * LIMIT);
    },
    120_000,
  );

  it('a huge error body fails with kind http and a 512-character excerpt, peak RSS within 4 × the bound', async () => {
    const { before, after, calls } = await runChild(requestPath, ['large-error-body']);
    console.info(`${requestPath} large-error-body: maxRSS ${before} KiB -> ${after} KiB`);
    expect(calls).toEqual([
      {
        tool: 'large-error-body',
        ms: expect.any(Number),
        kind: 'http',
        message: `MCP server "bounds": tools/call "large-error-body" failed: the server answered HTTP 500: ${filler.slice(0, 512)}`,
        status: 500,
        bodyLength: 512,
      },
    ]);
    expect((after - before) * 1024).toBeLessThan(4 * LIMIT);
  }, 120_000);
});
