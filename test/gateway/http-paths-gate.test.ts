/**
 * Every HTTP path of the gateway passes the same gate (src/gateway/call-gate.ts) and upstream health
 * (upstream-health.ts) as routing and the stdio fast path: the 2026-07-28 fast path in front of the SDK
 * handler (http-fast-call.ts) and the per-session SDK servers of 2025-11-25 sessions (legacy-sessions.ts).
 * Against server-everything over stdio, twice (`everything` and `local`, one of them killed at the end), with a policy
 * that gives the static token's caller `echo` and `get-sum` of `everything` and `echo` of `local`:
 * - on the fast path, a denied tool is refused `forbidden` (audited once, as `forbidden`), the per-tool rate
 *   limit refuses the call past it with `retryAfterMs`, and a call to a killed upstream is refused at once as
 *   `unavailable`, each while the fast path took the request (read from its own decisions);
 * - on a 2025-11-25 session, the tool list holds only what the policy allows, a denied tool is refused
 *   `forbidden`, the rate limit applies, and a killed upstream is refused at once as `unavailable`.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { HttpFastCalls } from '../../src/gateway/http-fast-call.js';
import { MCPGateway, type MCPGatewayAuditEntry } from '../../src/gateway/index.js';
import { MCPClient, MCPServers } from '../../src/mcp/index.js';
import { children, EVERYTHING, everythingStdio, waitUntil } from '../helpers.js';
import { TOKEN } from './fleet.js';
import { rawToolCall } from './raw-call.js';

let gateway: MCPGateway;
let url: string;
let killed: number;
const audit: MCPGatewayAuditEntry[] = [];

beforeAll(async () => {
  const before = new Set(children(EVERYTHING));
  const servers = new MCPServers().add(MCPClient.fromStdio(everythingStdio(), { name: 'everything' }));
  servers.add(MCPClient.fromStdio(everythingStdio(), { name: 'local' }));
  gateway = new MCPGateway(servers, {
    policy: {
      rules: [
        { when: { auth: 'static' }, allow: { tools: { everything: ['echo', 'get-sum'], local: ['echo'] } } },
      ],
    },
    rateLimits: { perTool: [{ tools: { everything: ['get-sum'] }, calls: 2, perSeconds: 60 }] },
    audit: (entry) => audit.push(entry),
    // The killed upstream stays down for the rest of the file.
    reconnect: { initialDelayMs: 60_000, maxDelayMs: 60_000 },
  });
  expect((await gateway.start()).map((result) => result.ok)).toEqual([true, true]);
  ({ url } = await gateway.listen({ bearerToken: TOKEN }));
  const pids = children(EVERYTHING).filter((pid) => !before.has(pid));
  expect(pids).toHaveLength(2);
  // Which child serves which upstream does not matter below: the one killed is told by its state.
  killed = pids[1] as number;
}, 60_000);

afterAll(async () => {
  await gateway?.close();
});

/** A raw 2026-07-28 `tools/call` whose envelope names client `client` (raw-call.ts): the status and parsed body. */
async function fastCall(client: string, name: string, input: unknown, id: number) {
  const answer = await rawToolCall(url, TOKEN, { client, name, input, id });
  return {
    status: answer.status,
    body: JSON.parse(answer.body) as { result?: { content: { text: string }[] }; error?: unknown },
  };
}

/** The kinds of the fast path's decisions while `run` runs. */
async function decisions(run: () => Promise<void>): Promise<string[]> {
  const decide = vi.spyOn(HttpFastCalls.prototype, 'decide');
  try {
    await run();
    return decide.mock.results.map((result) => (result.value as { kind: string }).kind);
  } finally {
    decide.mockRestore();
  }
}

const forbiddenError = (server: string, name: string) => ({
  code: -32603,
  serverMessage: `Forbidden: tools/call "${name}" of MCP server "${server}" is not allowed for this caller`,
  data: { server, kind: 'forbidden' },
});

describe('the HTTP fast path (2026-07-28 tools/call)', () => {
  it('refuses a denied tool as forbidden, audited once, though the fast path took it', async () => {
    audit.length = 0;
    const kinds = await decisions(async () => {
      expect((await fastCall('gate-forbidden', 'everything__echo', { message: 'a' }, 1)).status).toBe(200);
      const refused = await fastCall('gate-forbidden', 'everything__get-env', {}, 2);
      const { code, serverMessage: message, data } = forbiddenError('everything', 'get-env');
      expect(refused.body.error).toEqual({ code, message, data });
    });
    expect(kinds).toEqual(['learn', 'take']);
    expect(audit.map(({ name, decision }) => ({ name, decision }))).toEqual([
      { name: 'echo', decision: 'allowed' },
      { name: 'get-env', decision: 'forbidden' },
    ]);
  });

  it('refuses the call past the per-tool rate limit with retryAfterMs', async () => {
    const kinds = await decisions(async () => {
      await fastCall('gate-limited', 'everything__echo', { message: 'learn' }, 1);
      const first = await fastCall('gate-limited', 'everything__get-sum', { a: 1, b: 2 }, 2);
      expect(first.body.result?.content[0]?.text).toBe('The sum of 1 and 2 is 3.');
      await fastCall('gate-limited', 'everything__get-sum', { a: 1, b: 2 }, 3);
      const limited = await fastCall('gate-limited', 'everything__get-sum', { a: 1, b: 2 }, 4);
      expect(limited.body.error).toMatchObject({
        code: -32603,
        data: { kind: 'rate_limited', limit: 'tool' },
      });
      const { retryAfterMs } = (limited.body.error as { data: { retryAfterMs: number } }).data;
      expect(retryAfterMs).toBeGreaterThan(25_000);
      expect(retryAfterMs).toBeLessThanOrEqual(30_000);
    });
    expect(kinds).toEqual(['learn', 'take', 'take', 'take']);
  });
});

describe('a 2025-11-25 HTTP session', () => {
  let client: MCPClient;
  beforeAll(async () => {
    client = MCPClient.fromUrl(url, {
      name: 'gate-legacy',
      headers: { authorization: `Bearer ${TOKEN}` },
      protocolVersion: '2025-11-25',
    });
    await client.connect();
    expect(client.getProtocolVersion()).toBe('2025-11-25');
  });
  afterAll(async () => {
    await client?.disconnect();
  });

  it('lists only the tools the policy allows, and refuses a denied one as forbidden', async () => {
    expect(client.getTools().map((tool) => tool.name)).toEqual([
      'everything__echo',
      'everything__get-sum',
      'local__echo',
    ]);
    const refused = await client.callTool('everything__get-env', {}).catch((error: unknown) => error);
    const { code, serverMessage, data } = forbiddenError('everything', 'get-env');
    expect(refused).toMatchObject({ code, serverMessage, data });
  });

  it('applies the per-tool rate limit', async () => {
    // The fast path's calls above spent this caller's two get-sum calls: the bucket is shared by caller.
    const limited = await client
      .callTool('everything__get-sum', { a: 1, b: 2 })
      .catch((error: unknown) => error);
    expect(limited).toMatchObject({ code: -32603, data: { kind: 'rate_limited', limit: 'tool' } });
  });
});

describe('an upstream killed', () => {
  it('is refused at once as unavailable on the fast path and on a 2025-11-25 session', async () => {
    await fastCall('gate-down', 'local__echo', { message: 'learn' }, 1);
    const legacy = MCPClient.fromUrl(url, {
      name: 'gate-down-legacy',
      headers: { authorization: `Bearer ${TOKEN}` },
      protocolVersion: '2025-11-25',
    });
    await legacy.connect();
    try {
      const states = () => gateway.status().upstreams.map((one) => `${one.name}:${one.state}`);
      process.kill(killed, 'SIGKILL');
      await waitUntil(() => states().some((state) => state.endsWith(':reconnecting')), 10_000, 'the loss');
      const down = states()
        .find((state) => state.endsWith(':reconnecting'))
        ?.split(':')[0] as string;
      const unavailable = { code: -32603, data: { server: down, kind: 'unavailable' } };
      const started = performance.now();
      let fast: unknown;
      const kinds = await decisions(async () => {
        fast = (await fastCall('gate-down', `${down}__echo`, { message: 'x' }, 2)).body.error;
      });
      expect(performance.now() - started).toBeLessThan(1_000);
      expect(kinds).toEqual(['take']);
      expect(fast).toMatchObject(unavailable);
      const { retryAfterMs } = (fast as { data: { retryAfterMs: number } }).data;
      expect(retryAfterMs).toBeGreaterThan(0);
      const at = performance.now();
      const refused = await legacy
        .callTool(`${down}__echo`, { message: 'x' })
        .catch((error: unknown) => error);
      expect(performance.now() - at).toBeLessThan(1_000);
      expect(refused).toMatchObject(unavailable);
    } finally {
      await legacy.disconnect();
    }
  }, 30_000);
});
