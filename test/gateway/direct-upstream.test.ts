/**
 * The direct path to a plain HTTP upstream (src/gateway/direct-upstream.ts) against the ordinary path
 * (the upstream client's layers), over raw 2026-07-28 requests to two gateways in front of two copies of
 * the same upstream: one as configured (direct), one whose clients have a wire listener (which keeps every
 * call on the ordinary path). For each outcome (text, structured content, `isError`, an upstream's JSON-RPC
 * error) the answers are the same bytes, and the upstream behind the direct gateway gets exactly one HTTP
 * request per call. A call that can ask (an upstream that answers `input_required`, a tool with
 * `x-mcp-header` parameters) leaves the direct path; a 2025 upstream's forgotten session is renewed.
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { DirectUpstreams } from '../../src/gateway/direct-upstream.js';
import { MCPGateway } from '../../src/gateway/index.js';
import { loadServerConfig } from '../../src/mcp/index.js';
import { type Era2026HttpServer, startEra2026Http } from '../fixtures/era2026/http-server.js';
import { HttpFixture, initializeResult, respondJson, textResult } from '../fixtures/http-server.js';
import { tempDir } from '../helpers.js';
import { type RawAnswer, rawToolCall } from './raw-call.js';

const TOKEN = 'direct-upstream-token-0123456789';
const temp = tempDir('agentwire-gateway-direct-');
const gateways: MCPGateway[] = [];

/** A gateway over the one upstream `up` at `url`, listening; `ordinary` keeps every call off the direct path. */
async function gatewayOver(url: string, ordinary: boolean): Promise<string> {
  const file = path.join(temp.dir, `servers-${gateways.length}.json`);
  writeFileSync(file, JSON.stringify({ mcpServers: { up: { url } } }));
  // The call options `agentwire serve` gives its clients (their progress token is not learnt).
  const callOptions = { timeoutMs: 60_000, resetTimeoutOnProgress: true };
  const gateway = MCPGateway.fromConfig(await loadServerConfig(file), {
    clients: { callOptions, ...(ordinary && { onWireMessage: () => {} }) },
  });
  gateways.push(gateway);
  expect((await gateway.start()).map((result) => result.ok)).toEqual([true]);
  return (await gateway.listen({ bearerToken: TOKEN })).url;
}

/** A raw 2026-07-28 `tools/call` to the gateway at `url` (raw-call.ts). */
function call(url: string, name: string, input: unknown, id: number): Promise<RawAnswer> {
  return rawToolCall(url, TOKEN, { client: 'direct-test', name, input, id });
}

/** What `DirectUpstreams.call` decided for each call while `run` ran: `direct` or `ordinary`. */
async function paths(run: () => Promise<void>): Promise<string[]> {
  const spy = vi.spyOn(DirectUpstreams.prototype, 'call');
  try {
    await run();
    return spy.mock.results.map((result) => (result.value === undefined ? 'ordinary' : 'direct'));
  } finally {
    spy.mockRestore();
  }
}

afterAll(async () => {
  await Promise.all(gateways.map((gateway) => gateway.close()));
  temp.remove();
});

describe('a 2026-07-28 upstream', () => {
  let upstreams: Era2026HttpServer[];
  let direct: string;
  let ordinary: string;

  beforeAll(async () => {
    upstreams = await Promise.all([
      startEra2026Http({ modernOnly: true }),
      startEra2026Http({ modernOnly: true }),
    ]);
    direct = await gatewayOver((upstreams[0] as Era2026HttpServer).url, false);
    ordinary = await gatewayOver((upstreams[1] as Era2026HttpServer).url, true);
    // The first call of each teaches the HTTP fast path and the direct path (it goes the ordinary way).
    await call(direct, 'up__echo', { text: 'learn' }, 1);
    await call(ordinary, 'up__echo', { text: 'learn' }, 1);
  }, 60_000);

  afterAll(async () => {
    await Promise.all(upstreams.map((upstream) => upstream.close()));
  });

  /** The `tools/call` requests upstream `index` has received so far. */
  const toolCalls = (index: number) =>
    (upstreams[index] as Era2026HttpServer).requests.filter(
      (one) => one.headers['mcp-method'] === 'tools/call',
    ).length;

  it.each([
    ['up__echo', { text: 'hi' }],
    ['up__add', { a: 2, b: 40 }],
    ['up__fail', { message: 'no luck' }],
    ['up__add', { a: 'two', b: 40 }],
  ])('%s %j: one upstream request, the bytes of the ordinary path', async (name, input) => {
    const before = toolCalls(0);
    const answers: RawAnswer[] = [];
    const taken = await paths(async () => {
      answers.push(await call(direct, name, input, 9));
      answers.push(await call(direct, name, input, 10));
    });
    expect(taken).toEqual(['direct', 'direct']);
    expect(toolCalls(0) - before).toBe(2);
    expect(answers[0]).toEqual(await call(ordinary, name, input, 9));
    expect(answers[1]).toEqual(await call(ordinary, name, input, 10));
    expect(answers[0]?.status).toBe(200);
  });

  it('leaves a tool with x-mcp-header parameters to the ordinary path', async () => {
    const input = { region: 'eu', query: 'q' };
    let answer: RawAnswer | undefined;
    const taken = await paths(async () => {
      await call(direct, 'up__region_query', input, 2);
      answer = await call(direct, 'up__region_query', input, 3);
    });
    expect(taken).toEqual(['ordinary', 'ordinary']);
    expect(answer).toEqual(await call(ordinary, 'up__region_query', input, 3));
  });

  it('hands a call the upstream answers with a question to the ordinary path, and keeps it there', async () => {
    const before = toolCalls(0);
    let asked: RawAnswer | undefined;
    const first = await paths(async () => {
      asked = await call(direct, 'up__confirm', { action: 'deploy' }, 4);
    });
    // Sent directly, answered `input_required` (nothing ran), sent again the ordinary way: two requests.
    expect(first).toEqual(['direct']);
    expect(toolCalls(0) - before).toBe(2);
    // This caller declares no elicitation: the gateway refuses the question (-32021), as the ordinary path does.
    expect(asked).toEqual(await call(ordinary, 'up__confirm', { action: 'deploy' }, 4));
    expect(JSON.parse(asked?.body ?? '')).toMatchObject({ id: 4, error: { code: -32021 } });
    const later = await paths(async () => {
      expect(await call(direct, 'up__echo', { text: 'after' }, 5)).toEqual(
        await call(ordinary, 'up__echo', { text: 'after' }, 5),
      );
    });
    expect(later).toEqual(['ordinary']);
  });
});

describe('a 2025-11-25 upstream', () => {
  let upstreams: HttpFixture[];
  let direct: string;
  let ordinary: string;
  /** Per fixture: answer the next `tools/call` with a 404 (the session forgotten). */
  const forget = [false, false];

  beforeAll(async () => {
    upstreams = await Promise.all([HttpFixture.start(), HttpFixture.start()]);
    upstreams.forEach((fixture, index) => {
      fixture.onMethod('initialize', (_req, res, message) =>
        respondJson(res, initializeResult(message), { 'mcp-session-id': `session-${index}-${Date.now()}` }),
      );
      fixture.onMethod('tools/list', (_req, res, message) =>
        respondJson(res, {
          jsonrpc: '2.0',
          id: message.id,
          result: {
            tools: [
              { name: 'plain', inputSchema: { type: 'object' }, annotations: { idempotentHint: true } },
              { name: 'rpc', inputSchema: { type: 'object' } },
            ],
          },
        }),
      );
      fixture.onMethod('tools/call', (_req, res, message) => {
        if (forget[index]) {
          forget[index] = false;
          res.writeHead(404).end();
          return;
        }
        if (message.params?.name === 'rpc')
          return respondJson(res, {
            jsonrpc: '2.0',
            id: message.id,
            error: { code: -32602, message: 'bad input', data: { field: 'x' } },
          });
        respondJson(res, { jsonrpc: '2.0', id: message.id, result: textResult('ok') });
      });
    });
    direct = await gatewayOver((upstreams[0] as HttpFixture).url, false);
    ordinary = await gatewayOver((upstreams[1] as HttpFixture).url, true);
    await call(direct, 'up__plain', {}, 1);
    await call(ordinary, 'up__plain', {}, 1);
  }, 60_000);

  afterAll(async () => {
    await Promise.all(upstreams.map((upstream) => upstream.close()));
  });

  it.each([
    ['up__plain', { n: 1 }],
    ['up__rpc', {}],
  ])('%s: one upstream request in the session, the bytes of the ordinary path', async (name, input) => {
    const before = (upstreams[0] as HttpFixture).requests.length;
    let answer: RawAnswer | undefined;
    const taken = await paths(async () => {
      answer = await call(direct, name, input, 6);
    });
    expect(taken).toEqual(['direct']);
    const sent = (upstreams[0] as HttpFixture).requests.slice(before);
    expect(sent.map((one) => [one.method, (one.json as { method?: string }).method])).toEqual([
      ['POST', 'tools/call'],
    ]);
    expect(sent[0]?.headers['mcp-session-id']).toMatch(/^session-0-/);
    expect(answer).toEqual(await call(ordinary, name, input, 6));
  });

  it('renews a forgotten session and sends an idempotent call again, as the ordinary path does', async () => {
    forget[0] = true;
    forget[1] = true;
    const before = (upstreams[0] as HttpFixture).requests.length;
    const answer = await call(direct, 'up__plain', {}, 7);
    const posts = (upstreams[0] as HttpFixture).requests
      .slice(before)
      .filter((one) => one.method === 'POST')
      .map((one) => [(one.json as { method?: string }).method, one.headers['mcp-session-id']]);
    // The call, refused with the old session; a new session; the call once more, on the new session.
    expect(posts[0]?.[0]).toBe('tools/call');
    expect(posts[1]).toEqual(['initialize', undefined]);
    expect(posts.at(-1)?.[0]).toBe('tools/call');
    expect(posts.at(-1)?.[1]).not.toBe(posts[0]?.[1]);
    expect(answer).toEqual(await call(ordinary, 'up__plain', {}, 7));
    expect(JSON.parse(answer.body)).toMatchObject({ result: { content: [{ type: 'text', text: 'ok' }] } });
  });
});
