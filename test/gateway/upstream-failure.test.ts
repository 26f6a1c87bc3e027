/**
 * An upstream's failure as the gateway's client sees it: the upstream named, what failed (kind, exit code)
 * in the JSON-RPC error's message and data, and none of what the upstream wrote on its stderr, neither in
 * the error nor in the status resource (those lines are the gateway operator's, not its clients').
 */
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MCPGateway, STATUS_RESOURCE } from '../../src/gateway/index.js';
import { MCPCallError, MCPClient, MCPServers } from '../../src/mcp/index.js';
import { ROOT, SCRIPTED, waitUntil } from '../helpers.js';
import { TOKEN } from './fleet.js';

// What a crashing server says on its way out: paths, users, hosts, nothing a gateway client should read.
const STDERR = 'Error: cannot open /srv/private/billing.sqlite as alice@db-internal';

const CONTEXT_SERVER = path.join(ROOT, 'test', 'agent', 'fixtures', 'context-server.mjs');

let gateway: MCPGateway;
let client: MCPClient;

beforeAll(async () => {
  const servers = new MCPServers();
  const script = `process.stderr.write(${JSON.stringify(`${STDERR}\n`)}); import(process.argv[1]);`;
  servers.add(
    MCPClient.fromStdio({ command: process.execPath, args: ['-e', script, SCRIPTED] }, { name: 'scripted' }),
  );
  // Its tool `bad` is answered with a JSON-RPC error (-32602 "bad args", with data).
  servers.add(MCPClient.fromStdio({ command: process.execPath, args: [CONTEXT_SERVER] }, { name: 'ctx' }));
  gateway = new MCPGateway(servers);
  await gateway.start();
  const { url } = await gateway.listen({ bearerToken: TOKEN });
  client = MCPClient.fromUrl(url, { name: 'gw', headers: { authorization: `Bearer ${TOKEN}` } });
  await client.connect();
}, 60_000);

afterAll(async () => {
  await client?.disconnect();
  await gateway?.close();
});

describe('an upstream that dies mid-call', () => {
  it('is named with its exit code in the error and the status, its stderr in neither', async () => {
    const error = await client.callTool('scripted__exit', { code: 7 }).catch((thrown: unknown) => thrown);
    expect(error).toBeInstanceOf(MCPCallError);
    expect(error).toMatchObject({
      kind: 'jsonrpc',
      code: -32603,
      reason:
        'server returned JSON-RPC error -32603: MCP server "scripted": tools/call "exit" failed: the server exited with code 7',
      data: { server: 'scripted', kind: 'connection_closed', exitCode: 7 },
    });
    // The upstream's own client has the whole story, stderr included, for the operator.
    const upstream = () => gateway.servers.status()[0]!;
    await waitUntil(() => upstream().error !== undefined, 10_000, 'the upstream failure');
    expect(upstream().error?.message).toContain(STDERR);
    const [contents] = (await client.readResource(STATUS_RESOURCE)).contents as { text: string }[];
    const [status] = JSON.parse(contents!.text).upstreams;
    expect(status.lastFailure).toEqual({
      kind: 'connection_closed',
      message: 'MCP server "scripted": connection failed: the server exited with code 7',
      at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
    });
  });
});

describe("an upstream's JSON-RPC error", () => {
  it('reaches the client with its own code and message, the code stated once', async () => {
    const error = await client.callTool('ctx__bad', {}).catch((thrown: unknown) => thrown);
    expect(error).toBeInstanceOf(MCPCallError);
    expect(error).toMatchObject({
      kind: 'jsonrpc',
      code: -32602,
      serverMessage: 'bad args',
      reason: 'server returned JSON-RPC error -32602: bad args',
      data: { field: 'x', hint: 'use y' },
    });
  });
});
