/**
 * The gateway as agentwire's own client sees it: the same merged tool list; an upstream's `list_changed`
 * becoming the gateway's own (on the 2026-07-28 `subscriptions/listen` stream); an upstream killed mid-call
 * (a typed error naming it, the others unaffected, the status resource saying so) and working again after
 * its client reconnects.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MCPGateway, readGatewaySettings, STATUS_RESOURCE } from '../../src/gateway/index.js';
import { loadServerConfig, MCPCallError, MCPClient } from '../../src/mcp/index.js';
import { children, EVERYTHING, waitUntil } from '../helpers.js';
import { type Fleet, GATEWAY_TOOLS, startFleet, TOKEN } from './fleet.js';

let fleet: Fleet;
let gateway: MCPGateway;
let client: MCPClient;

beforeAll(async () => {
  fleet = await startFleet();
  const config = await loadServerConfig(fleet.config);
  gateway = MCPGateway.fromConfig(config, {
    ...readGatewaySettings(fleet.config),
    reconnect: { initialDelayMs: 50, maxDelayMs: 200 },
  });
  await gateway.start();
  const { url } = await gateway.listen({ bearerToken: TOKEN });
  client = MCPClient.fromUrl(url, { name: 'gateway', headers: { authorization: `Bearer ${TOKEN}` } });
  await client.connect();
}, 60_000);

afterAll(async () => {
  await client?.disconnect();
  await gateway?.close();
  await fleet?.close();
});

const text = (result: { content: unknown[] }) =>
  (result.content as { type: string; text?: string }[]).map((block) => block.text ?? block.type).join('\n');

describe("agentwire's client through the gateway", () => {
  it('negotiates 2026-07-28 and sees the merged tool list', async () => {
    expect(client.getProtocolVersion()).toBe('2026-07-28');
    expect(client.getTools().map((tool) => tool.name)).toEqual(GATEWAY_TOOLS);
    expect(text(await client.callTool('everything__echo', { message: 'hi' }))).toBe('Echo: hi');
    expect(text(await client.callTool('mem__read_graph', {}))).toBe(
      text(await gateway.servers.get('memory')!.callTool('read_graph', {})),
    );
  });

  it("turns an upstream's tools/list_changed into its own", async () => {
    const changed = new Promise<string[]>((resolve) =>
      client.once('toolsChanged', ({ tools }) => resolve(tools.map((tool) => tool.name))),
    );
    expect(text(await client.callTool('modern__change', { what: 'tool', name: 'extra' }))).toBe(
      'changed tool',
    );
    // The fixture registers the new tool before its `change` tool, so it comes before it in the list.
    expect(await changed).toEqual([...GATEWAY_TOOLS.slice(0, -1), 'modern__extra', 'modern__change']);
  });

  it('reports an upstream killed mid-call, keeps the others working, and recovers after its reconnect', async () => {
    const [pid] = children(EVERYTHING);
    expect(pid).toBeTypeOf('number');
    const call = client.callTool('everything__trigger-long-running-operation', { duration: 20, steps: 20 });
    const failed = call.then(
      () => undefined,
      (error: unknown) => error,
    );
    await new Promise((resolve) => setTimeout(resolve, 300));
    process.kill(pid as number, 'SIGKILL');
    const error = await failed;
    expect(error).toBeInstanceOf(MCPCallError);
    expect(error).toMatchObject({
      kind: 'jsonrpc',
      code: -32603,
      data: { server: 'everything', kind: 'connection_closed' },
    });
    // The others are unaffected.
    expect(text(await client.callTool('modern__echo', { text: 'still here' }))).toBe('echo: still here');
    expect(text(await client.callTool('fs__list_directory', { path: fleet.dir }))).toContain('note.txt');
    // Its own client reconnects it (a new process), and calls go through again.
    await waitUntil(() => gateway.servers.get('everything')!.getState() === 'connected', 20_000, 'reconnect');
    expect(children(EVERYTHING)).not.toContain(pid);
    expect(text(await client.callTool('everything__echo', { message: 'back' }))).toBe('Echo: back');
    const [contents] = (await client.readResource(STATUS_RESOURCE)).contents as { text: string }[];
    const status = JSON.parse(contents!.text) as {
      upstreams: { name: string; state: string }[];
    };
    expect(status.upstreams.map((one) => [one.name, one.state])).toEqual([
      ['everything', 'connected'],
      ['fs', 'connected'],
      ['memory', 'connected'],
      ['modern', 'connected'],
    ]);
  }, 60_000);
});
