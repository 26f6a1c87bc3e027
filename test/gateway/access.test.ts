/**
 * Who is calling (src/gateway/access.ts, jwt-verifier.ts, access-policy.ts, rate-limits.ts, call-gate.ts),
 * against a real OpenID provider (test/fixtures/oidc-issuer.ts) and server-everything over stdio:
 * - JWT access tokens the issuer gives for the gateway's audience are accepted; one for another audience,
 *   an expired one, and one of another issuer are refused `401` with a `WWW-Authenticate` challenge naming
 *   the gateway's protected resource metadata, which it serves (MCP spec 2025-11-25, "Authorization");
 * - two callers with different claims and scopes see different tool lists and get `forbidden` exactly where
 *   the policy says, as does the static token's caller; over stdio the caller is `stdio`;
 * - a per-tool rate limit refuses the call past it with `retryAfterMs`;
 * - every routed request leaves one audit entry (caller, request, decision, duration), with no arguments.
 * - the access grants kept per header set (access-cache.ts) never outlive the JWT (refused `401` right after
 *   its `exp`) and never skip the policy (a kept grant lists and calls only what its caller may).
 */
import { PassThrough } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MCPGateway, type MCPGatewayAuditEntry, type MCPGatewayPolicy } from '../../src/gateway/index.js';
import { gatewayTaskId, upstreamTaskOf } from '../../src/gateway/task-ids.js';
import { MCPCallError, MCPClient, type MCPClientOptions, MCPServers } from '../../src/mcp/index.js';
import { type OidcIssuer, startOidcIssuer } from '../fixtures/oidc-issuer.js';
import { everythingStdio } from '../helpers.js';
import { TOKEN } from './fleet.js';

const AUDIENCE = 'https://gateway.test/mcp';
const METADATA = 'https://gateway.test/.well-known/oauth-protected-resource/mcp';

const POLICY: MCPGatewayPolicy = {
  rules: [
    // Admins: everything.
    {
      when: { scopes: ['mcp:admin'] },
      allow: { tools: { '*': ['*'] }, prompts: { '*': ['*'] }, resources: { '*': ['*'] } },
    },
    // Support: echo and the get-* tools but get-env; no prompts, no resources.
    {
      when: { auth: 'jwt', claims: { groups: 'support' } },
      allow: { tools: { everything: ['echo', 'get-*'] } },
      deny: { tools: { everything: ['get-env'] } },
    },
    // The static token and stdio: echo only.
    { when: { auth: ['static', 'stdio'] }, allow: { tools: { everything: ['echo'] } } },
  ],
};

let issuer: OidcIssuer;
let other: OidcIssuer;
let gateway: MCPGateway;
let url: string;
const audit: MCPGatewayAuditEntry[] = [];

beforeAll(async () => {
  issuer = await startOidcIssuer([
    { id: 'support-bot', groups: ['support'] },
    { id: 'admin-bot', groups: [] },
    { id: 'brief-bot', groups: ['support'], ttlSeconds: 1 },
    { id: 'short-bot', groups: ['support'], ttlSeconds: 3 },
  ]);
  other = await startOidcIssuer([{ id: 'support-bot', groups: ['support'] }]);
  const servers = new MCPServers().add(MCPClient.fromStdio(everythingStdio(), { name: 'everything' }));
  gateway = new MCPGateway(servers, {
    policy: POLICY,
    rateLimits: { perTool: [{ tools: { everything: ['get-sum'] }, calls: 2, perSeconds: 60 }] },
    audit: (entry) => audit.push(entry),
  });
  await gateway.start();
  ({ url } = await gateway.listen({
    bearerToken: TOKEN,
    jwt: { issuer: issuer.issuer, audience: AUDIENCE, clockToleranceSeconds: 0 },
  }));
}, 60_000);

afterAll(async () => {
  await gateway?.close();
  await issuer?.close();
  await other?.close();
});

/** agentwire's client on the gateway with `token`. */
async function connectWith(token: string, options: MCPClientOptions = {}): Promise<MCPClient> {
  const client = MCPClient.fromUrl(url, {
    name: 'gw',
    headers: { authorization: `Bearer ${token}` },
    ...options,
  });
  await client.connect();
  return client;
}

/** A raw 2025-11-25 JSON-RPC POST of `method` with `token`: the HTTP answer. */
function rawPost(token: string, method: string, params: object): Promise<Response> {
  return fetch(url, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${token}`,
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': '2025-11-25',
    },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
  });
}

/** Resolves once `done()` holds (polled every 20 ms, up to 10 s). */
async function waitFor(done: () => boolean): Promise<void> {
  for (const until = Date.now() + 10_000; !done(); ) {
    if (Date.now() > until) throw new Error('timed out waiting');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** A raw `tools/list` POST with `token`: the HTTP answer. */
const rawList = (token: string) => rawPost(token, 'tools/list', {});

/** agentwire's client on the gateway as the issuer's client `clientId`, with `scope`. */
async function connectAs(clientId: string, scope: string): Promise<MCPClient> {
  return connectWith(await issuer.token(clientId, AUDIENCE, scope));
}

const names = (client: MCPClient) => client.getTools().map((tool) => tool.name);

describe('JWT access tokens of the issuer', () => {
  it('accepts the tokens it issues for the gateway', async () => {
    const client = await connectAs('admin-bot', 'mcp:admin');
    try {
      expect(names(client)).toContain('everything__get-env');
    } finally {
      await client.disconnect();
    }
  });

  it('refuses another audience, an expired token and another issuer: 401 with the challenge', async () => {
    const cases = [
      {
        token: await issuer.token('support-bot', 'https://other.test/mcp'),
        why: 'the token is for another audience',
      },
      { token: await issuer.token('brief-bot', AUDIENCE), why: 'the token has expired' },
      { token: await other.token('support-bot', AUDIENCE), why: 'the token is of another issuer' },
      { token: 'not-a-jwt', why: 'the token is not a valid JWT of the issuer' },
    ];
    // The brief token lives one second; the gateway allows no clock skew: past its `exp` it is dead.
    const deadAt = expiry(cases[1]!.token) * 1000 + 50;
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, deadAt - Date.now())));
    for (const { token, why } of cases) {
      const response = await rawList(token);
      expect([response.status, response.headers.get('www-authenticate')]).toEqual([
        401,
        `Bearer error="invalid_token", error_description="${why}", resource_metadata="${METADATA}"`,
      ]);
    }
  });

  it('serves its protected resource metadata (RFC 9728)', async () => {
    const response = await fetch(new URL('/.well-known/oauth-protected-resource/mcp', url));
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({
      resource: AUDIENCE,
      authorization_servers: [issuer.issuer],
      bearer_methods_supported: ['header'],
    });
  });
});

/** The JSON-RPC message of an answer, sent as JSON or as the one event of an SSE stream. */
async function messageOf<T>(response: Response): Promise<T> {
  const text = await response.text();
  if (!response.headers.get('content-type')?.startsWith('text/event-stream')) return JSON.parse(text) as T;
  const data = text.split('\n').find((line) => line.startsWith('data: ')) as string;
  return JSON.parse(data.slice('data: '.length)) as T;
}

/** A token's `exp` claim, in s. */
function expiry(token: string): number {
  return (
    JSON.parse(Buffer.from(token.split('.')[1] as string, 'base64url').toString('utf8')) as { exp: number }
  ).exp;
}

/** A raw 2025-11-25 `tools/call` POST with `token`: the HTTP status and the JSON-RPC error, if any. */
async function rawCall(
  token: string,
  name: string,
  input: object,
): Promise<{ status: number; error?: unknown }> {
  const response = await rawPost(token, 'tools/call', { name, arguments: input });
  if (response.status !== 200) return { status: response.status };
  const body = await messageOf<{ error?: unknown }>(response);
  return { status: 200, ...(body.error !== undefined && { error: body.error }) };
}

describe('the access grants kept per Authorization header (access-cache.ts)', () => {
  it('never outlive the JWT: a token granted a moment ago is refused 401 once it has expired', async () => {
    const token = await issuer.token('short-bot', AUDIENCE);
    // Granted, and kept: the same header again is served from the kept grant.
    expect((await rawList(token)).status).toBe(200);
    expect((await rawList(token)).status).toBe(200);
    // The gateway allows no clock skew here: past `exp` (whole seconds) the token is dead.
    const deadAt = expiry(token) * 1000 + 50;
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, deadAt - Date.now())));
    const response = await rawList(token);
    expect([response.status, response.headers.get('www-authenticate')]).toEqual([
      401,
      `Bearer error="invalid_token", error_description="the token has expired", resource_metadata="${METADATA}"`,
    ]);
  });

  it('never skip the policy: a kept grant still lists and calls only what its caller may', async () => {
    const token = await issuer.token('support-bot', AUDIENCE, 'mcp:read');
    const forbidden = {
      code: -32603,
      message: 'Forbidden: tools/call "get-env" of MCP server "everything" is not allowed for this caller',
      data: { server: 'everything', kind: 'forbidden' },
    };
    for (let round = 0; round < 3; round += 1) {
      const listed = await messageOf<{ result: { tools: { name: string }[] } }>(await rawList(token));
      expect(listed.result.tools.map((tool) => tool.name)).not.toContain('everything__get-env');
      expect(listed.result.tools.map((tool) => tool.name)).toContain('everything__echo');
      expect(await rawCall(token, 'everything__get-env', {})).toEqual({ status: 200, error: forbidden });
    }
  });
});

describe('the access policy', () => {
  it('shows each caller only what it may use, and refuses the rest as forbidden', async () => {
    const admin = await connectAs('admin-bot', 'mcp:admin');
    const support = await connectAs('support-bot', 'mcp:read');
    const holder = await connectWith(TOKEN);
    try {
      expect(names(support)).toEqual([
        'everything__echo',
        'everything__get-annotated-message',
        'everything__get-resource-links',
        'everything__get-resource-reference',
        'everything__get-structured-content',
        'everything__get-sum',
        'everything__get-tiny-image',
      ]);
      expect(names(holder)).toEqual(['everything__echo']);
      expect(names(admin).length).toBeGreaterThan(names(support).length);
      expect(names(admin)).toContain('everything__get-env');
      // The policy holds for calls too, the name read from the request body.
      for (const [client, tool] of [
        [support, 'everything__get-env'],
        [support, 'everything__trigger-long-running-operation'],
        [holder, 'everything__get-sum'],
      ] as const) {
        const error = await client.callTool(tool, {}).catch((thrown: unknown) => thrown);
        expect(error).toBeInstanceOf(MCPCallError);
        expect(error).toMatchObject({ code: -32603, data: { server: 'everything', kind: 'forbidden' } });
        expect((error as MCPCallError).data).toEqual({ server: 'everything', kind: 'forbidden' });
      }
      expect((await support.callTool('everything__echo', { message: 'hi' })).isError).toBeUndefined();
      expect((await admin.callTool('everything__get-env', {})).isError).toBeUndefined();
      // No resources nor prompts for support; the status resource for the admin.
      expect(await support.listResources()).toEqual([]);
      expect(await support.listPrompts()).toEqual([]);
      expect((await admin.listResources()).map((one) => one.uri)).toContain('agentwire-gateway://status');
      const read = await support
        .readResource('agentwire-gateway://status')
        .catch((thrown: unknown) => thrown);
      expect(read).toMatchObject({ code: -32603, data: { server: 'agentwire-gateway', kind: 'forbidden' } });
    } finally {
      await Promise.all([admin.disconnect(), support.disconnect(), holder.disconnect()]);
    }
  });

  it('applies to the stdio caller, which has no token', async () => {
    const stdin = new PassThrough();
    const stdout = new PassThrough();
    const host = gateway.serveStdio({ stdin, stdout });
    const lines: string[] = [];
    stdout.setEncoding('utf8');
    let pending = '';
    const answered = new Map<number, (line: string) => void>();
    stdout.on('data', (chunk: string) => {
      pending += chunk;
      for (let at = pending.indexOf('\n'); at !== -1; at = pending.indexOf('\n')) {
        const line = pending.slice(0, at);
        pending = pending.slice(at + 1);
        lines.push(line);
        const { id } = JSON.parse(line) as { id?: number };
        if (typeof id === 'number') answered.get(id)?.(line);
      }
    });
    const request = (id: number, method: string, params: object) => {
      const answer = new Promise<string>((resolve) => answered.set(id, resolve));
      stdin.write(`${JSON.stringify({ jsonrpc: '2.0', id, method, params })}\n`);
      return answer.then(
        (line) => JSON.parse(line) as { result?: { tools?: { name: string }[] }; error?: object },
      );
    };
    try {
      await request(1, 'initialize', {
        protocolVersion: '2025-11-25',
        capabilities: {},
        clientInfo: { name: 'stdio-caller', version: '1.0.0' },
      });
      stdin.write(`${JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' })}\n`);
      const listed = await request(2, 'tools/list', {});
      expect(listed.result?.tools?.map((tool) => tool.name)).toEqual(['everything__echo']);
      const refused = await request(3, 'tools/call', {
        name: 'everything__get-sum',
        arguments: { a: 1, b: 2 },
      });
      expect(refused.error).toEqual({
        code: -32603,
        message: 'Forbidden: tools/call "get-sum" of MCP server "everything" is not allowed for this caller',
        data: { server: 'everything', kind: 'forbidden' },
      });
    } finally {
      await host.close();
    }
  });
});

describe("tasks under the caller's policy", () => {
  const RESEARCH = 'everything__simulate-research-query';

  it('reads and cancels a task only for the caller that made it, while the policy lets it call the tool', async () => {
    const version = { protocolVersion: '2025-11-25' } as const;
    const admin = await connectWith(await issuer.token('admin-bot', AUDIENCE, 'mcp:admin'), version);
    const support = await connectWith(await issuer.token('support-bot', AUDIENCE, 'mcp:read'), version);
    // The same subject without the admin scope: the same caller, whom the policy now lets call nothing.
    const demoted = await connectWith(await issuer.token('admin-bot', AUDIENCE, 'mcp:read'), version);
    try {
      const handle = admin.callToolAsTask(RESEARCH, { topic: 'tides' });
      await waitFor(() => handle.task !== undefined);
      const id = handle.task?.taskId as string;
      expect(upstreamTaskOf(id)?.bound?.tool).toBe('simulate-research-query');
      expect((await admin.getTask(id)).taskId).toBe(id);
      // Another caller: the task is not found for it, to read or to cancel.
      for (const attempt of [() => support.getTask(id), () => support.cancelTask(id)])
        await expect(attempt()).rejects.toMatchObject({ kind: 'jsonrpc', code: -32602 });
      // The id rebound to the other caller without the gateway's tag: not found either.
      const ref = upstreamTaskOf(id) as NonNullable<ReturnType<typeof upstreamTaskOf>>;
      const forged = gatewayTaskId(ref.server, ref.taskId, {
        tool: ref.bound?.tool as string,
        caller: 'forged-caller-digest',
        tag: () => id.slice(id.indexOf('.') + 1),
      });
      await expect(support.getTask(forged)).rejects.toMatchObject({ kind: 'jsonrpc', code: -32602 });
      // Its own caller, once the policy no longer lets it call the tool: forbidden, as the call would be.
      const refused = await demoted.cancelTask(id).catch((thrown: unknown) => thrown);
      expect(refused).toMatchObject({ code: -32603, data: { server: 'everything', kind: 'forbidden' } });
      // Under a policy, tasks/list shows no caller another's tasks (the upstream sessions are shared).
      expect(await support.listTasks()).toEqual([]);
      expect(await admin.listTasks()).toEqual([]);
      expect((await admin.cancelTask(id))?.status).toBe('cancelled');
      handle.cancel();
      await handle.result.catch(() => {});
    } finally {
      await Promise.all([admin.disconnect(), support.disconnect(), demoted.disconnect()]);
    }
  }, 60_000);
});

describe('rate limits and the audit', () => {
  /** The audit entry of a `tools/call` of server-everything's `name` by support-bot with its JWT. */
  const supportCall = (name: string, decision: string, outcome?: string) => ({
    auth: 'jwt',
    caller: 'support-bot',
    method: 'tools/call',
    server: 'everything',
    name,
    decision,
    outcome,
  });

  it('refuses a call past the per-tool limit with retryAfterMs, and audits every request without arguments', async () => {
    const support = await connectAs('support-bot', 'mcp:read');
    try {
      audit.length = 0;
      expect((await support.callTool('everything__get-sum', { a: 40, b: 2 })).isError).toBeUndefined();
      expect((await support.callTool('everything__get-sum', { a: 40, b: 2 })).isError).toBeUndefined();
      const limited = await support.callTool('everything__get-sum', { a: 40, b: 2 }).catch((e: unknown) => e);
      expect(limited).toMatchObject({ code: -32603, data: { kind: 'rate_limited', limit: 'tool' } });
      const { retryAfterMs } = (limited as MCPCallError).data as { retryAfterMs: number };
      // Two calls per 60 s: the next token comes within 30 s.
      expect(retryAfterMs).toBeGreaterThan(25_000);
      expect(retryAfterMs).toBeLessThanOrEqual(30_000);
      // Another tool is not limited.
      expect((await support.callTool('everything__echo', { message: 'still' })).isError).toBeUndefined();
      const forbidden = await support.callTool('everything__get-env', {}).catch((e: unknown) => e);
      expect(forbidden).toBeInstanceOf(MCPCallError);
      expect(
        audit.map(({ auth, caller, method, server, name, decision, outcome }) => ({
          auth,
          caller,
          method,
          server,
          name,
          decision,
          outcome,
        })),
      ).toEqual([
        supportCall('get-sum', 'allowed', 'ok'),
        supportCall('get-sum', 'allowed', 'ok'),
        supportCall('get-sum', 'rate_limited'),
        supportCall('echo', 'allowed', 'ok'),
        supportCall('get-env', 'forbidden'),
      ]);
      for (const entry of audit) {
        expect(Object.keys(entry)).toEqual(
          Object.keys({
            time: 0,
            auth: 0,
            caller: 0,
            method: 0,
            server: 0,
            name: 0,
            decision: 0,
            ...(entry.outcome && { outcome: 0 }),
            durationMs: 0,
          }),
        );
        expect(entry.durationMs).toBeGreaterThanOrEqual(0);
        expect(JSON.stringify(entry)).not.toContain('still');
      }
    } finally {
      await support.disconnect();
    }
  });
});
