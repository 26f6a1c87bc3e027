import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { MCPClient } from '../../../src/mcp/client/client.js';
import { MCPCallError } from '../../../src/mcp/protocol/errors.js';
import { HttpFixture, type JsonRpcLike, openSse } from '../../fixtures/http-server.js';
import { everythingStdio, ROOT, readLog, scripted, tempDir } from '../../helpers.js';

const MISBEHAVING = path.join(ROOT, 'test/fixtures/misbehaving-server.mjs');

const open: MCPClient[] = [];
const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((client) => client.disconnect()));
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

async function misbehaving(env: Record<string, string> = {}): Promise<MCPClient> {
  const client = MCPClient.fromStdio({ command: process.execPath, args: [MISBEHAVING], env });
  open.push(client);
  await client.connect();
  return client;
}

/** Collects process warnings (MaxListenersExceeded and the like) while `run` runs. */
async function warningsDuring(run: () => Promise<void>): Promise<string[]> {
  const warnings: string[] = [];
  const onWarning = (warning: Error) => warnings.push(`${warning.name}: ${warning.message}`);
  process.on('warning', onWarning);
  try {
    await run();
    await new Promise((resolve) => setImmediate(resolve)); // warnings are emitted on a later tick
  } finally {
    process.off('warning', onWarning);
  }
  return warnings;
}

describe('tools/call on the fast path', () => {
  it('sends string ids "aw-1", "aw-2", … that can never collide with the SDK\'s numeric ids', async () => {
    const { dir, remove } = tempDir();
    cleanups.push(remove);
    const log = path.join(dir, 'log.jsonl');
    // Pinned to 2025-11-25: no server/discover probe before initialize (see test/mcp/era2026/negotiate.test.ts).
    const client = MCPClient.fromStdio(scripted({ FIXTURE_LOG: log }), { protocolVersion: '2025-11-25' });
    open.push(client);
    await client.connect();
    await client.callTool('echo', { text: 'one' });
    await client.callTool('echo', { text: 'two' });
    const ids = readLog(log).map((m) => [m.method, m.id as unknown]);
    expect(ids).toEqual([
      ['initialize', 0],
      ['notifications/initialized', undefined],
      ['tools/list', 1],
      ['tools/call', 'aw-1'],
      ['tools/call', 'aw-2'],
    ]);
  });

  it('is accepted by server-everything, which answers string ids', async () => {
    const client = MCPClient.fromStdio(everythingStdio());
    open.push(client);
    await client.connect();
    expect(await client.callTool('echo', { message: 'string id' })).toEqual({
      content: [{ type: 'text', text: 'Echo: string id' }],
    });
  });

  it('rejects at once with kind protocol when the result is not an object', async () => {
    const client = await misbehaving();
    const started = Date.now();
    const error = await client.callTool('bad-result', {}, { timeoutMs: 20_000 }).catch((e: unknown) => e);
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(error).toBeInstanceOf(MCPCallError);
    expect(error).toMatchObject({
      kind: 'protocol',
      server: 'misbehaving-server',
      method: 'tools/call',
      toolName: 'bad-result',
      message:
        'MCP server "misbehaving-server": tools/call "bad-result" failed: invalid result: ' +
        'Invalid result for tools/call: result is not an object',
    });
    // The connection is still usable.
    expect(await client.callTool('echo', { text: 'after' })).toEqual({
      content: [{ type: 'text', text: 'echo: after' }],
    });
  });

  it('rejects with kind protocol when content is not an array', async () => {
    const client = await misbehaving();
    const error = await client.callTool('bad-content', {}, { timeoutMs: 20_000 }).catch((e: unknown) => e);
    expect(error).toMatchObject({
      kind: 'protocol',
      message:
        'MCP server "misbehaving-server": tools/call "bad-content" failed: invalid result: ' +
        'Invalid result for tools/call: "content" is not an array',
    });
  });

  it('delivers every progress notification that arrives in the same chunk as the response, in order', async () => {
    const client = await misbehaving();
    const seen: number[] = [];
    const result = await client.callTool(
      'progress-then-answer',
      { n: 5 },
      { onprogress: (p) => seen.push(p.progress) },
    );
    expect(result).toEqual({ content: [{ type: 'text', text: 'done' }] });
    expect(seen).toEqual([1, 2, 3, 4, 5]);
  });

  it('answers 1 000 concurrent calls over stdio without a MaxListenersExceeded warning', async () => {
    const client = MCPClient.fromStdio(scripted());
    open.push(client);
    await client.connect();
    let texts: string[] = [];
    const warnings = await warningsDuring(async () => {
      const results = await Promise.all(
        Array.from({ length: 1000 }, (_, i) => client.callTool('echo', { text: `${i} ${'x'.repeat(100)}` })),
      );
      texts = results.map((r) => (r.content[0] as { text: string }).text);
    });
    expect(warnings).toEqual([]);
    expect(texts).toEqual(Array.from({ length: 1000 }, (_, i) => `echo: ${i} ${'x'.repeat(100)}`));
  });

  it('answers 200 concurrent calls over Streamable HTTP without a MaxListenersExceeded warning', async () => {
    const fixture = await HttpFixture.start();
    cleanups.push(() => fixture.close());
    const client = MCPClient.fromUrl(fixture.url);
    open.push(client);
    await client.connect();
    let count = 0;
    const warnings = await warningsDuring(async () => {
      const results = await Promise.all(
        Array.from({ length: 200 }, (_, i) => client.callTool('echo', { text: `${i}` })),
      );
      count = results.filter((r) => r.content.length === 1).length;
    });
    expect(warnings).toEqual([]);
    expect(count).toBe(200);
  });

  it('aborts the POST and tells the server when a call over Streamable HTTP is cancelled', async () => {
    const fixture = await HttpFixture.start();
    cleanups.push(() => fixture.close());
    let released: Promise<void> | undefined;
    fixture.onMethod('tools/call', (_req, res) => {
      released = new Promise((resolve) => res.on('close', () => resolve()));
      openSse(res); // holds the stream open and never answers
    });
    const client = MCPClient.fromUrl(fixture.url);
    open.push(client);
    await client.connect();
    const controller = new AbortController();
    const call = client.callTool('slow', {}, { signal: controller.signal }).catch((e: unknown) => e);
    const sent = await fixture.waitForRequest(
      (r) => (r.json as JsonRpcLike | undefined)?.method === 'tools/call',
    );
    controller.abort(new Error('user cancelled'));
    expect(await call).toMatchObject({
      kind: 'aborted',
      message: `MCP server "${new URL(fixture.url).host}": tools/call "slow" failed: aborted (user cancelled)`,
    });
    await expect(released).resolves.toBeUndefined();
    const cancelled = await fixture.waitForRequest(
      (r) => (r.json as JsonRpcLike | undefined)?.method === 'notifications/cancelled',
    );
    expect((sent.json as JsonRpcLike).id).toBe('aw-1');
    expect((cancelled.json as JsonRpcLike).params).toEqual({
      requestId: 'aw-1',
      reason: 'Error: user cancelled',
    });
  });

  it('aborts the POST when a call over Streamable HTTP times out', async () => {
    const fixture = await HttpFixture.start();
    cleanups.push(() => fixture.close());
    let released: Promise<void> | undefined;
    fixture.onMethod('tools/call', (_req, res) => {
      released = new Promise((resolve) => res.on('close', () => resolve()));
      openSse(res);
    });
    const client = MCPClient.fromUrl(fixture.url);
    open.push(client);
    await client.connect();
    const error = await client.callTool('slow', {}, { timeoutMs: 200 }).catch((e: unknown) => e);
    expect(error).toMatchObject({ kind: 'timeout', timeoutMs: 200 });
    await expect(released).resolves.toBeUndefined();
  });
});
