/**
 * `input_required` rounds across two gateway processes (src/gateway/remote-rounds.ts), here two
 * `MCPGateway`s in one process joined by an in-memory cluster (the `GatewayCluster` interface that the
 * Redis one implements; test/gateway/balancer.test.ts runs the Redis one behind HAProxy): a 2026-07-28
 * retry sent to B of a round that A started is forwarded to A, whose upstream call goes on and answers;
 * once A has ended, a retry of a round A held starts the request over on B (the upstream asks again).
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ClusterMessage, GatewayCluster } from '../../src/gateway/index.js';
import { MCPGateway } from '../../src/gateway/index.js';
import { loadServerConfig } from '../../src/mcp/index.js';
import { children, ROOT, tempDir } from '../helpers.js';

const TOKEN = 'remote-rounds-token-0123456789';
const FIXTURE = path.join(ROOT, 'test', 'fixtures', 'era2026', 'stdio-server.mjs');

/** Processes joined in memory: each member's messages reach the others (a broadcast) or one (a send). */
function memoryCluster() {
  const members = new Map<string, (message: ClusterMessage) => void>();
  return (id: string): GatewayCluster => ({
    id,
    send: async (to, message) => {
      const receiver = members.get(to);
      if (!receiver) return false;
      queueMicrotask(() => receiver({ ...message, from: id }));
      return true;
    },
    broadcast: async (message) => {
      for (const [other, receiver] of members) if (other !== id) receiver({ ...message, from: id });
    },
    alive: async (other) => members.has(other),
    onMessage: (receiver) => void members.set(id, receiver),
    close: async () => void members.delete(id),
  });
}

const join = memoryCluster();
const clusters = { a: join('process-a'), b: join('process-b') };
const gateways: MCPGateway[] = [];
const urls: Record<'a' | 'b', string> = { a: '', b: '' };
let remove: () => void;
/** The pid of A's upstream (a stdio child of this process). */
let upstreamOfA = 0;

beforeAll(async () => {
  const temp = tempDir('agentwire-remote-rounds-');
  remove = temp.remove;
  const file = path.join(temp.dir, 'servers.json');
  writeFileSync(
    file,
    JSON.stringify({
      mcpServers: { m: { command: process.execPath, args: [FIXTURE, '--modern-only'], prefix: false } },
    }),
  );
  const config = await loadServerConfig(file);
  for (const name of ['a', 'b'] as const) {
    const gateway = MCPGateway.fromConfig(config, { cluster: clusters[name] });
    gateways.push(gateway);
    expect((await gateway.start()).map((result) => result.ok)).toEqual([true]);
    urls[name] = (await gateway.listen({ bearerToken: TOKEN })).url;
    if (name === 'a') upstreamOfA = children(FIXTURE)[0] as number;
  }
}, 60_000);

afterAll(async () => {
  await Promise.all(gateways.map((gateway) => gateway.close()));
  remove?.();
});

/** What the tests read of an answer. */
interface Answer {
  error?: { code: number; message: string; data?: Record<string, unknown> };
  result: {
    resultType?: string;
    requestState: string;
    inputRequests: Record<string, unknown>;
    content?: unknown[];
  };
}

/** A raw 2026-07-28 `confirm` call (a retry when `retry` is given) to `url`; the JSON-RPC answer. */
async function confirm(url: string, retry?: { requestState: string; key: string }): Promise<Answer> {
  const response = await fetch(url, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${TOKEN}`,
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': '2026-07-28',
      'mcp-method': 'tools/call',
      'mcp-name': 'm__confirm',
    },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'tools/call',
      params: {
        name: 'm__confirm',
        arguments: { action: 'deploy' },
        ...(retry && {
          requestState: retry.requestState,
          inputResponses: { [retry.key]: { action: 'accept', content: { confirm: true } } },
        }),
        _meta: {
          'io.modelcontextprotocol/protocolVersion': '2026-07-28',
          'io.modelcontextprotocol/clientCapabilities': { elicitation: { form: {} } },
          'io.modelcontextprotocol/clientInfo': { name: 'rounds', version: '1.0.0' },
        },
      },
    }),
  });
  return (await response.json()) as Answer;
}

describe('input_required rounds on two processes', () => {
  it('a retry sent to B is forwarded to A, whose upstream call answers', async () => {
    const first = await confirm(urls.a);
    expect(first.result.resultType).toBe('input_required');
    expect(first.result.requestState).toMatch(/^process-a\./);
    const [key] = Object.keys(first.result.inputRequests);
    const done = await confirm(urls.b, { requestState: first.result.requestState, key: key as string });
    expect(done.result.content).toEqual([{ type: 'text', text: 'confirmed deploy' }]);
  });

  it("a retry forwarded to A while A's upstream is down comes back unavailable, with retryAfterMs", async () => {
    const first = await confirm(urls.a);
    const [key] = Object.keys(first.result.inputRequests);
    const upstream = gateways[0]?.servers.get('m');
    process.kill(upstreamOfA, 'SIGKILL');
    for (const until = Date.now() + 10_000; upstream?.getState() === 'connected'; ) {
      if (Date.now() > until) throw new Error("A's upstream still connected");
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    const answer = await confirm(urls.b, { requestState: first.result.requestState, key: key as string });
    expect(answer.error).toMatchObject({ code: -32603, data: { server: 'm', kind: 'unavailable' } });
    expect(Object.keys(answer.error?.data ?? {})).toEqual(['server', 'kind', 'retryAfterMs']);
    expect(answer.error?.data?.retryAfterMs).toBeGreaterThan(0);
    // A respawns its stdio upstream: its rounds work again.
    for (const until = Date.now() + 20_000; upstream?.getState() !== 'connected'; ) {
      if (Date.now() > until) throw new Error("A's upstream not respawned");
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }, 40_000);

  it('once A has ended, a retry of its round starts the request over on B', async () => {
    const first = await confirm(urls.a);
    const [key] = Object.keys(first.result.inputRequests);
    await clusters.a.close();
    const again = await confirm(urls.b, { requestState: first.result.requestState, key: key as string });
    expect(again.result.resultType).toBe('input_required');
    expect(again.result.requestState).toMatch(/^process-b\./);
    const [next] = Object.keys(again.result.inputRequests);
    const done = await confirm(urls.b, { requestState: again.result.requestState, key: next as string });
    expect(done.result.content).toEqual([{ type: 'text', text: 'confirmed deploy' }]);
  });
});
