/**
 * The gateway's bounds and its discretion: at most `maxSubscriptions` open `subscriptions/listen` streams
 * (a further one answered -32603, its client still working), and an upstream's credentials (its
 * environment, which a careless upstream quotes in its errors and its dying words) in none of what the
 * gateway's client sees: errors, the status resource, `GET /status`.
 */
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MCPGateway, STATUS_RESOURCE } from '../../src/gateway/index.js';
import { MCPClient, type MCPClientLogEntry, MCPServers } from '../../src/mcp/index.js';
import { MEMORY, ROOT, waitUntil } from '../helpers.js';
import { sdkHttpClient, TOKEN } from './fleet.js';

const SECRET = 'upstream-secret-7f3a9c';
const CARELESS = path.join(ROOT, 'test/fixtures/env-echo-server.mjs');

let gateway: MCPGateway;
let url: string;
const downstream: MCPClient[] = [];

beforeAll(async () => {
  const servers = new MCPServers();
  servers.add(MCPClient.fromStdio({ command: process.execPath, args: [MEMORY] }, { name: 'memory' }));
  servers.add(
    MCPClient.fromStdio(
      { command: process.execPath, args: [CARELESS], env: { FIXTURE_SECRET_TOKEN: SECRET } },
      { name: 'careless' },
    ),
  );
  gateway = new MCPGateway(servers, { maxSubscriptions: 1 });
  await gateway.start();
  url = (await gateway.listen({ bearerToken: TOKEN })).url;
}, 60_000);

afterAll(async () => {
  await Promise.all(downstream.map((client) => client.disconnect()));
  await gateway?.close();
});

const connect = async (name: string) => {
  const client = MCPClient.fromUrl(url, { name, headers: { authorization: `Bearer ${TOKEN}` } });
  downstream.push(client);
  const logs: MCPClientLogEntry[] = [];
  client.on('log', (entry) => logs.push(entry));
  await client.connect();
  return { client, logs };
};

describe('limits', () => {
  it('answers a listen stream over maxSubscriptions with -32603; that client still calls tools', async () => {
    const first = await connect('first');
    const second = await connect('second');
    await waitUntil(() => second.logs.length > 0, 10_000, 'the refused listen');
    expect(second.logs).toEqual([
      {
        level: 'warn',
        message:
          'MCP server "second": the server answered subscriptions/listen with JSON-RPC error -32603; change notifications are off for this connection',
      },
    ]);
    expect(first.logs).toEqual([]);
    expect((await second.client.callTool('memory__read_graph', {})).isError).toBeUndefined();
  });

  it('names the limit in the refusal and its data (the bare SDK client)', async () => {
    const client = await sdkHttpClient(url, 'auto');
    try {
      await expect(
        client.request({
          method: 'subscriptions/listen',
          params: { notifications: { toolsListChanged: true } },
        } as never),
      ).rejects.toMatchObject({
        code: -32603,
        message:
          'Too many subscriptions: this gateway keeps at most 1 subscriptions/listen subscriptions open (maxSubscriptions); close one or try later',
        data: { kind: 'subscription_limit', maxSubscriptions: 1 },
      });
    } finally {
      await client.close();
    }
  });
});

describe("an upstream's credentials", () => {
  it('are in none of its errors, nor in the status', async () => {
    const { client } = await connect('secrets');
    const leak = await client.callTool('careless__leak', {}).catch((error: unknown) => error);
    const die = await client.callTool('careless__die', {}).catch((error: unknown) => error);
    await waitUntil(() => gateway.servers.get('careless')!.getState() === 'failed', 10_000, 'the death');
    const status = (await client.readResource(STATUS_RESOURCE)).contents;
    const statusHttp = await (
      await fetch(url.replace(/\/mcp$/, '/status'), { headers: { authorization: `Bearer ${TOKEN}` } })
    ).text();
    for (const seen of [leak, die]) {
      expect(seen).toBeInstanceOf(Error);
      expect(JSON.stringify({ message: (seen as Error).message, ...(seen as object) })).not.toContain(SECRET);
    }
    expect(JSON.stringify(status)).not.toContain(SECRET);
    expect(statusHttp).not.toContain(SECRET);
    // Down, and being connected again (the gateway never gives an upstream up).
    expect(JSON.parse(statusHttp).upstreams[1]).toMatchObject({
      name: 'careless',
      state: 'reconnecting',
      lastFailure: { kind: 'connection_closed' },
    });
  });
});
