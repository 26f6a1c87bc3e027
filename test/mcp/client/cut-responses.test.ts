/**
 * A cut response costs only its own call: with many `tools/call`s in flight on one connection, a proxy cuts
 * every fifth answer mid-body (scripted, not random: the same calls every run), in both eras over Streamable
 * HTTP. Each cut fails at most its own call (in 2025 as kind `transport`; in 2026-07-28 the tool may not be
 * re-sent, so kind `may_have_run` with `reissue`), every other call completes with its own answer, and the
 * connection stays up: no `disconnected`, no `reconnecting`, the client still `connected` and serving.
 * Over stdio a message cut (half a line) fails its own call alone while the process lives; only a process
 * that really died mid-line loses the connection.
 */
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MCPClient } from '../../../src/mcp/client/client.js';
import type { MCPCallError } from '../../../src/mcp/protocol/errors.js';
import { type Era2026HttpServer, startEra2026Http } from '../../fixtures/era2026/http-server.js';
import { type EverythingServer, startEverything } from '../../fixtures/http-everything.js';
import { type ScriptedProxy, startScriptedProxy } from '../../fixtures/scripted-proxy.js';
import { ROOT } from '../../helpers.js';

const MISBEHAVING = {
  command: process.execPath,
  args: [path.join(ROOT, 'test/fixtures/misbehaving-server.mjs')],
};

const CALLS = 50;
const CUT_EVERY = 5;

/** Cuts the answer of every `CUT_EVERY`-th `tools/call` the proxy sees, counting from the first. */
function cutEveryFifthCall(proxy: ScriptedProxy): () => number {
  let seen = 0;
  let cuts = 0;
  proxy.script = (message) => {
    if (message.method !== 'tools/call') return undefined;
    seen += 1;
    if (seen % CUT_EVERY !== 0) return undefined;
    cuts += 1;
    return { cut: {} };
  };
  return () => cuts;
}

/** Runs `CALLS` calls at once and counts what happened to the connection meanwhile. */
async function burst(
  mcp: MCPClient,
  call: (n: number) => Promise<string>,
): Promise<{ answered: number; failed: MCPCallError[]; events: string[] }> {
  const events: string[] = [];
  for (const event of ['disconnected', 'reconnecting', 'reconnected'] as const)
    mcp.on(event, () => events.push(event));
  const outcomes = await Promise.allSettled(Array.from({ length: CALLS }, (_, n) => call(n)));
  const answered = outcomes.filter((o) => o.status === 'fulfilled').length;
  const failed = outcomes.flatMap((o) => (o.status === 'rejected' ? [o.reason as MCPCallError] : []));
  return { answered, failed, events };
}

describe('cut responses over Streamable HTTP, 2025 era (server-everything)', () => {
  let everything: EverythingServer;
  let proxy: ScriptedProxy;
  beforeAll(async () => {
    everything = await startEverything('streamableHttp');
    proxy = await startScriptedProxy(everything.url);
  });
  afterAll(async () => {
    await proxy.close();
    await everything.stop();
  });

  it('fails one call per cut, the others answered, no disconnect', async () => {
    const mcp = MCPClient.fromUrl(proxy.url, {
      name: 'cut',
      protocolVersion: '2025-11-25',
      reconnect: { enabled: true, initialDelayMs: 10 },
    });
    try {
      await mcp.connect();
      const cuts = cutEveryFifthCall(proxy);
      const { answered, failed, events } = await burst(mcp, async (n) => {
        const result = await mcp.callTool('echo', { message: `m${n}` });
        const [block] = result.content as { text: string }[];
        expect(block?.text).toBe(`Echo: m${n}`);
        return block?.text ?? '';
      });
      expect(cuts()).toBe(CALLS / CUT_EVERY);
      expect(failed.length).toBeLessThanOrEqual(cuts());
      expect(answered).toBe(CALLS - failed.length);
      expect(failed.map((error) => [error.kind, error.method])).toEqual(
        failed.map(() => ['transport', 'tools/call']),
      );
      expect(events).toEqual([]);
      expect(mcp.getState()).toBe('connected');
      proxy.script = () => undefined;
      expect((await mcp.callTool('echo', { message: 'after' })).content).toEqual([
        { type: 'text', text: 'Echo: after' },
      ]);
    } finally {
      await mcp.disconnect();
    }
  });
});

describe('cut responses over Streamable HTTP, 2026-07-28', () => {
  let server: Era2026HttpServer;
  let proxy: ScriptedProxy;
  beforeAll(async () => {
    server = await startEra2026Http({ modernOnly: true });
    proxy = await startScriptedProxy(server.url);
  });
  afterAll(async () => {
    await proxy.close();
    await server.close();
  });

  it('fails one call per cut (a tool that may have run is not re-sent), the others answered, no disconnect', async () => {
    const mcp = MCPClient.fromUrl(proxy.url, {
      name: 'cut',
      reconnect: { enabled: true, initialDelayMs: 10 },
    });
    try {
      await mcp.connect();
      expect(mcp.getProtocolVersion()).toBe('2026-07-28');
      const cuts = cutEveryFifthCall(proxy);
      const { answered, failed, events } = await burst(mcp, async (n) => {
        const result = await mcp.callTool('echo', { text: `m${n}` });
        expect(result.content).toEqual([{ type: 'text', text: `echo: m${n}` }]);
        return `m${n}`;
      });
      expect(cuts()).toBe(CALLS / CUT_EVERY);
      expect(failed.length).toBeLessThanOrEqual(cuts());
      expect(answered).toBe(CALLS - failed.length);
      expect(failed.map((error) => [error.kind, error.reissue])).toEqual(
        failed.map(() => ['may_have_run', true]),
      );
      expect(events).toEqual([]);
      expect(mcp.getState()).toBe('connected');
    } finally {
      await mcp.disconnect();
    }
  });
});

describe('a cut message over stdio (the misbehaving server)', () => {
  it('fails its own call alone while the process lives: the others answered, no disconnect', async () => {
    const mcp = MCPClient.fromStdio(MISBEHAVING, { reconnect: { enabled: true, initialDelayMs: 10 } });
    try {
      await mcp.connect();
      const { answered, failed, events } = await burst(mcp, async (n) => {
        if (n % CUT_EVERY === 0) {
          await mcp.callTool('cut-line', {}, { timeoutMs: 1_000 });
          return 'cut';
        }
        const result = await mcp.callTool('echo', { text: `m${n}` });
        expect(result.content).toEqual([{ type: 'text', text: `echo: m${n}` }]);
        return `m${n}`;
      });
      expect(failed.map((error) => [error.kind, error.toolName])).toEqual(
        Array.from({ length: CALLS / CUT_EVERY }, () => ['timeout', 'cut-line']),
      );
      expect(answered).toBe(CALLS - CALLS / CUT_EVERY);
      expect(events).toEqual([]);
      expect(mcp.getState()).toBe('connected');
    } finally {
      await mcp.disconnect();
    }
  });

  it('is a lost connection when the process died mid-line: the call fails as lost, and the client reconnects', async () => {
    const mcp = MCPClient.fromStdio(MISBEHAVING, { reconnect: { enabled: true, initialDelayMs: 10 } });
    try {
      await mcp.connect();
      const reconnected = new Promise((resolve) => mcp.once('reconnected', resolve));
      const error = await mcp
        .callTool('die-mid-line', {}, { retryOnReconnect: false })
        .catch((e: unknown) => e);
      expect(error).toMatchObject({ kind: 'connection_closed', exitCode: 1 });
      await reconnected;
      expect((await mcp.callTool('echo', { text: 'again' })).content).toEqual([
        { type: 'text', text: 'echo: again' },
      ]);
    } finally {
      await mcp.disconnect();
    }
  });
});
