/**
 * A `tools/call`'s `_meta` passes through the gateway to the upstream (MCP spec 2025-11-25, "Basic > General
 * fields > _meta"): the recording fixture (a real stdio MCP server that logs each call's `_meta`) sees the
 * keys the gateway's client sent, over HTTP in both eras (the keys the client layer owns, the progress
 * token and the MCP-reserved prefixes, are its own: src/mcp/session/call-meta.ts).
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MCPGateway } from '../../src/gateway/index.js';
import { MCPClient, MCPServers } from '../../src/mcp/index.js';
import { ROOT, tempDir } from '../helpers.js';
import { TOKEN } from './fleet.js';

const RECORDER = path.join(ROOT, 'test', 'fixtures', 'recording-server.mjs');
const META = { 'com.example/tenant': 'acme', note: 'from the caller', nested: { depth: [1, 2] } };

const temp = tempDir('agentwire-call-meta-');
const log = path.join(temp.dir, 'calls.jsonl');
let gateway: MCPGateway;
let url: string;

beforeAll(async () => {
  const servers = new MCPServers().add(
    MCPClient.fromStdio({ command: process.execPath, args: [RECORDER, '--log', log] }, { name: 'rec' }),
  );
  gateway = new MCPGateway(servers);
  await gateway.start();
  ({ url } = await gateway.listen({ bearerToken: TOKEN }));
}, 60_000);

afterAll(async () => {
  await gateway?.close();
  temp.remove();
});

/** The `_meta` the upstream saw on the call whose text is `text`. */
function seen(text: string): unknown {
  const lines = readFileSync(log, 'utf8').trim().split('\n');
  const calls = lines
    .map((line) => JSON.parse(line) as { arguments: { text: string }; meta: unknown; phase: string })
    .filter((call) => call.arguments.text === text && call.phase === 'done');
  expect(calls).toHaveLength(1);
  return calls[0]?.meta;
}

describe("a tools/call's _meta", () => {
  it.each(['auto', '2025-11-25'] as const)(
    'reaches the upstream exactly, from a %s client over HTTP',
    async (version) => {
      const client = MCPClient.fromUrl(url, {
        name: 'gw',
        headers: { authorization: `Bearer ${TOKEN}` },
        protocolVersion: version,
      });
      try {
        await client.connect();
        const text = `http ${version}`;
        const result = await client.callTool('rec__record', { text }, { _meta: META });
        expect(result.isError).not.toBe(true);
        expect(seen(text)).toEqual(META);
      } finally {
        await client.disconnect();
      }
    },
    30_000,
  );
});
