/**
 * `MCPGateway` over Streamable HTTP in front of server-everything, server-filesystem and server-memory
 * (stdio upstreams) and the 2026-07-28-only fixture (an HTTP upstream), checked with the bare official SDK
 * client negotiating `auto` (2026-07-28) and `legacy` (2025-11-25): the merged, prefixed, filtered tool
 * list; results passed through unchanged (compared with the upstream's own answer); progress; cancellation;
 * a relayed elicitation; and the access check (token, Host, Origin, body size).
 */
import { request as httpRequest } from 'node:http';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MCPGateway, readGatewaySettings, STATUS_RESOURCE } from '../../src/gateway/index.js';
import { loadServerConfig } from '../../src/mcp/index.js';
import { type Fleet, GATEWAY_TOOLS, sdkHttpClient, startFleet, TOKEN } from './fleet.js';

let fleet: Fleet;
let gateway: MCPGateway;
let url: string;

beforeAll(async () => {
  fleet = await startFleet();
  const config = await loadServerConfig(fleet.config);
  gateway = MCPGateway.fromConfig(config, {
    ...readGatewaySettings(fleet.config),
    maxRequestBodyBytes: 65_536,
  });
  const results = await gateway.start();
  expect(results.map((result) => [result.name, result.ok])).toEqual([
    ['everything', true],
    ['fs', true],
    ['memory', true],
    ['modern', true],
  ]);
  url = (await gateway.listen({ bearerToken: TOKEN })).url;
}, 60_000);

afterAll(async () => {
  await gateway?.close();
  await fleet?.close();
});

/** The upstream's own answer to a call, for comparing what passed through the gateway. */
const direct = (server: string, tool: string, input: Record<string, unknown>) =>
  gateway.servers.get(server)!.callTool(tool, input);

describe.each([
  ['auto', '2026-07-28'],
  ['legacy', '2025-11-25'],
] as const)('the SDK client, %s negotiation', (mode, version) => {
  let client: Client;
  beforeAll(async () => {
    client = await sdkHttpClient(url, mode);
  });
  afterAll(async () => {
    await client?.close();
  });

  it(`speaks ${version} and lists every upstream's exposed tools, prefixed, in order`, async () => {
    expect(client.getNegotiatedProtocolVersion()).toBe(version);
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name)).toEqual(GATEWAY_TOOLS);
    const sum = tools.find((tool) => tool.name === 'everything__get-sum');
    const upstream = gateway.servers
      .get('everything')!
      .getTools()
      .find((tool) => tool.name === 'get-sum');
    expect(sum?.inputSchema).toEqual(upstream?.definition.inputSchema);
    expect(sum?.description).toBe(upstream?.definition.description);
  });

  it('passes echo, get-sum, the tiny image and structured content through unchanged', async () => {
    const cases: [string, string, Record<string, unknown>][] = [
      ['everything', 'echo', { message: 'through the gateway' }],
      ['everything', 'get-sum', { a: 2, b: 40 }],
      ['everything', 'get-tiny-image', {}],
      ['everything', 'get-structured-content', { location: 'New York' }],
      ['modern', 'add', { a: 2, b: 3 }],
    ];
    for (const [server, tool, input] of cases) {
      const result = await client.callTool({ name: `${server}__${tool}`, arguments: input });
      const { _meta, ...own } = result;
      const { _meta: _upstreamMeta, ...expected } = await direct(server, tool, input);
      expect(own).toEqual(expected);
    }
    const image = await client.callTool({ name: 'everything__get-tiny-image', arguments: {} });
    expect((image.content as { type: string }[]).map((block) => block.type)).toEqual([
      'text',
      'image',
      'text',
    ]);
    expect(await client.callTool({ name: 'everything__get-sum', arguments: { a: 2, b: 40 } })).toMatchObject({
      content: [{ type: 'text', text: 'The sum of 2 and 40 is 42.' }],
    });
  });

  it('forwards progress of a long call', async () => {
    const progress: number[] = [];
    const result = await client.callTool(
      { name: 'everything__trigger-long-running-operation', arguments: { duration: 1, steps: 4 } },
      { onprogress: (update) => progress.push(update.progress) },
    );
    expect(progress).toEqual([1, 2, 3, 4]);
    expect(result.content).toEqual([
      { type: 'text', text: 'Long running operation completed. Duration: 1 seconds, Steps: 4.' },
    ]);
  });

  it('answers an unknown tool with -32602', async () => {
    await expect(client.callTool({ name: 'everything__nope', arguments: {} })).rejects.toMatchObject({
      code: -32602,
    });
  });

  it('lists and reads the status resource', async () => {
    const { resources } = await client.listResources();
    expect(resources[0]).toMatchObject({ uri: STATUS_RESOURCE, mimeType: 'application/json' });
    const read = await client.readResource({ uri: STATUS_RESOURCE });
    const status = JSON.parse((read.contents[0] as { text: string }).text);
    expect(status.upstreams.map((one: { name: string; state: string }) => [one.name, one.state])).toEqual([
      ['everything', 'connected'],
      ['fs', 'connected'],
      ['memory', 'connected'],
      ['modern', 'connected'],
    ]);
  });

  it('reads an upstream resource by its URI', async () => {
    const uri = 'demo://resource/static/document/architecture.md';
    const read = await client.readResource({ uri });
    const upstream = await gateway.servers.get('everything')!.readResource(uri);
    expect(read.contents).toEqual(upstream.contents);
  });
});

describe('cancellation', () => {
  it('cancels a call mid-way at its upstream (2026-07-28: the request is abandoned)', async () => {
    const client = await sdkHttpClient(url, 'auto');
    const before = fleet.modern.requests.length;
    const controller = new AbortController();
    const call = client.callTool(
      { name: 'modern__slow', arguments: { ms: 30_000 } },
      { signal: controller.signal },
    );
    await waitFor(() =>
      fleet.modern.requests.slice(before).some((request) => request.body.includes('"slow"')),
    );
    controller.abort();
    await expect(call).rejects.toThrow();
    await waitFor(() =>
      fleet.modern.requests
        .slice(before)
        .some((request) => request.body.includes('"slow"') && request.aborted),
    );
    // The gateway and the upstream are still there for the next call.
    expect(await client.callTool({ name: 'modern__echo', arguments: { text: 'after' } })).toMatchObject({
      content: [{ type: 'text', text: 'echo: after' }],
    });
    await client.close();
  });
});

describe('elicitation relayed', () => {
  it('from a 2026-07-28 upstream to a 2026-07-28 client (input_required rounds)', async () => {
    const client = await sdkHttpClient(url, 'auto');
    try {
      expect(
        await client.callTool({ name: 'modern__confirm', arguments: { action: 'deploy' } }),
      ).toMatchObject({
        content: [{ type: 'text', text: 'confirmed deploy' }],
      });
    } finally {
      await client.close();
    }
  });

  it('from a 2025 stdio upstream (elicitation/create) to a 2026-07-28 client', async () => {
    const client = await sdkHttpClient(url, 'auto');
    try {
      const result = await client.callTool({
        name: 'everything__trigger-elicitation-request',
        arguments: {},
      });
      const text = (result.content as { type: string; text: string }[]).map((block) => block.text).join('\n');
      expect(text).toContain('"name": "Ada"');
      expect(result.isError).toBeUndefined();
    } finally {
      await client.close();
    }
  });

  it('sampling from a 2025 stdio upstream to a 2026-07-28 client', async () => {
    const client = new Client(
      { name: 'gateway-sampling-test', version: '1.0.0' },
      { capabilities: { sampling: {} }, versionNegotiation: { mode: 'auto' } },
    );
    const asked: unknown[] = [];
    client.setRequestHandler('sampling/createMessage', async (request) => {
      asked.push(request.params.messages);
      return { role: 'assistant', model: 'test-model', content: { type: 'text', text: 'sampled answer' } };
    });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(url), {
        requestInit: { headers: { authorization: `Bearer ${TOKEN}` } },
      }),
    );
    try {
      const result = await client.callTool({
        name: 'everything__trigger-sampling-request',
        arguments: { prompt: 'say hi', maxTokens: 20 },
      });
      expect(asked).toHaveLength(1);
      const text = (result.content as { text: string }[]).map((block) => block.text).join('\n');
      expect(text).toContain('sampled answer');
    } finally {
      await client.close();
    }
  });

  it('from a 2026-07-28 upstream to a 2025 client over HTTP (its session carries elicitation/create)', async () => {
    const client = await sdkHttpClient(url, 'legacy');
    try {
      expect(
        await client.callTool({ name: 'modern__confirm', arguments: { action: 'deploy' } }),
      ).toMatchObject({
        content: [{ type: 'text', text: 'confirmed deploy' }],
      });
    } finally {
      await client.close();
    }
  });
});

describe('who may call', () => {
  const initialize = JSON.stringify({
    jsonrpc: '2.0',
    id: 1,
    method: 'initialize',
    params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 't', version: '1' } },
  });
  const post = (headers: Record<string, string>, body = initialize) =>
    fetch(url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        ...headers,
      },
      body,
    });

  it('refuses a request without the token, or with another one, with 401 and a challenge', async () => {
    for (const headers of [{}, { authorization: 'Bearer not-the-token' }, { authorization: TOKEN }]) {
      const response = await post(headers);
      expect(response.status).toBe(401);
      expect(response.headers.get('www-authenticate')).toMatch(/^Bearer /);
      const body = await response.text();
      expect(body).not.toContain(TOKEN);
    }
    await expect(sdkHttpClient(url, 'auto', 'wrong')).rejects.toThrow();
  });

  it('refuses a foreign Host or Origin with 403 (DNS rebinding), even with the token', async () => {
    const auth = { authorization: `Bearer ${TOKEN}` };
    expect(await postWithHost('evil.example', auth)).toBe(403);
    expect(await postWithHost(new URL(url).host, auth)).toBe(200);
    expect((await post({ ...auth, origin: 'http://evil.example' })).status).toBe(403);
    expect((await post({ ...auth, origin: 'http://localhost:3000' })).status).toBe(200);
  });

  it('answers a body over maxRequestBodyBytes with 413', async () => {
    const big = JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'ping',
      params: { pad: 'x'.repeat(70_000) },
    });
    expect((await post({ authorization: `Bearer ${TOKEN}` }, big)).status).toBe(413);
  });

  it('serves GET /status to a client with the token only', async () => {
    const statusUrl = url.replace(/\/mcp$/, '/status');
    expect((await fetch(statusUrl)).status).toBe(401);
    const response = await fetch(statusUrl, { headers: { authorization: `Bearer ${TOKEN}` } });
    expect(response.status).toBe(200);
    const document = (await response.json()) as { upstreams: { name: string }[] };
    expect(document.upstreams.map((one) => one.name)).toEqual(['everything', 'fs', 'memory', 'modern']);
  });
});

/** The status of an initialize POST with the given Host header (fetch cannot set one). */
function postWithHost(host: string, headers: Record<string, string>): Promise<number> {
  const body = JSON.stringify({
    jsonrpc: '2.0',
    id: 1,
    method: 'initialize',
    params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 't', version: '1' } },
  });
  return new Promise((resolve, reject) => {
    const request = httpRequest(url, {
      method: 'POST',
      headers: {
        ...headers,
        host,
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
      },
    });
    request.on('response', (response) => {
      response.resume();
      resolve(response.statusCode ?? 0);
    });
    request.on('error', reject);
    request.end(body);
  });
}

async function waitFor(check: () => boolean, ms = 10_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) throw new Error('timed out waiting');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}
