/**
 * The client sends only what the server's declared capabilities allow, in both eras (MCP spec 2025-11-25 and
 * 2026-07-28, "Lifecycle > Capability Negotiation"; each feature's "Capabilities" section), against a server
 * of the SDK's server package that declares one feature at a time (test/fixtures/capabilities/) and logs
 * every line it receives: lists of what it does not offer are empty without a request, other requests fail
 * with kind `unsupported` naming the capability, and nothing gated reaches the server.
 */
import { randomUUID } from 'node:crypto';
import { rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { Agent } from '../../../src/agent/index.js';
import { MCPClient, type MCPClientOptions } from '../../../src/mcp/client/client.js';
import { MCPCallError } from '../../../src/mcp/protocol/errors.js';
import { MCPServers } from '../../../src/mcp/servers/servers.js';
import { anthropic } from '../../../src/providers/index.js';
import {
  type CapabilityFeature,
  createCapabilityServer,
  FEATURES,
} from '../../fixtures/capabilities/server.mjs';
import { type Era2026HttpServer, startEra2026Http } from '../../fixtures/era2026/http-server.js';
import { ROOT, readLog } from '../../helpers.js';

const STDIO = path.join(ROOT, 'test/fixtures/capabilities/stdio.mjs');
const ERAS = ['2025-11-25', '2026-07-28'] as const;
/** The requests a capability gates (capabilities.ts). */
const GATED = new Set([
  'tools/list',
  'prompts/list',
  'prompts/get',
  'resources/list',
  'resources/templates/list',
  'resources/read',
  'resources/subscribe',
  'resources/unsubscribe',
  'logging/setLevel',
  'completion/complete',
]);

const open: MCPClient[] = [];
const logs: string[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((client) => client.disconnect()));
  for (const log of logs.splice(0)) rmSync(log, { force: true });
});

/** A stdio client of the fixture declaring `declared`, and the file its received lines go to. */
function stdioClient(declared: readonly string[], options: MCPClientOptions = {}) {
  const log = path.join(tmpdir(), `agentwire-capabilities-${randomUUID()}.jsonl`);
  logs.push(log);
  const args = [STDIO, `--declare=${declared.join(',')}`, `--log=${log}`];
  const client = MCPClient.fromStdio({ command: process.execPath, args }, { name: 'caps', ...options });
  open.push(client);
  return { client, log };
}

/** The gated requests among `messages`, in order. */
function gated(messages: { method?: string }[]): string[] {
  return messages.flatMap((message) =>
    message.method !== undefined && GATED.has(message.method) ? [message.method] : [],
  );
}

/** What each request of the client came to: `[n]` items, `ok`, or the error's kind and capability. */
async function outcomes(client: MCPClient): Promise<Record<string, string>> {
  const outcome = async (request: () => Promise<unknown>) => {
    try {
      const value = await request();
      return Array.isArray(value) ? `[${value.length}]` : 'ok';
    } catch (error) {
      if (!(error instanceof MCPCallError)) throw error;
      return `${error.kind}${error.capability === undefined ? '' : `:${error.capability}`}`;
    }
  };
  const uri = 'fixture://doc';
  return {
    tools: `[${client.getTools().length}]`,
    refreshTools: await outcome(() => client.refreshTools()),
    listPrompts: await outcome(() => client.listPrompts()),
    getPrompt: await outcome(() => client.getPrompt('hello')),
    listResources: await outcome(() => client.listResources()),
    listResourceTemplates: await outcome(() => client.listResourceTemplates()),
    readResource: await outcome(() => client.readResource(uri)),
    subscribeResource: await outcome(() => client.subscribeResource(uri)),
    unsubscribeResource: await outcome(() => client.unsubscribeResource(uri)),
    setLoggingLevel: await outcome(() => client.setLoggingLevel('info')),
    complete: await outcome(() =>
      client.complete({ ref: { type: 'ref/prompt', name: 'hello' }, argument: { name: 'a', value: '' } }),
    ),
  };
}

/** What a server declaring nothing comes to: every list empty, every other request `unsupported`. */
const NOTHING: Record<string, string> = {
  tools: '[0]',
  refreshTools: '[0]',
  listPrompts: '[0]',
  getPrompt: 'unsupported:prompts',
  listResources: '[0]',
  listResourceTemplates: '[0]',
  readResource: 'unsupported:resources',
  subscribeResource: 'unsupported:resources.subscribe',
  unsubscribeResource: 'ok',
  setLoggingLevel: 'unsupported:logging',
  complete: 'unsupported:completions',
};

const RESOURCES = { listResources: '[1]', listResourceTemplates: '[0]', readResource: 'ok' };

/** What changes when the server declares `feature` alone. */
const OFFERED: Record<CapabilityFeature, Record<string, string>> = {
  tools: { tools: '[1]', refreshTools: '[1]' },
  prompts: { listPrompts: '[1]', getPrompt: 'ok' },
  resources: RESOURCES,
  subscribe: { ...RESOURCES, subscribeResource: 'ok' },
  logging: { setLoggingLevel: 'ok' },
  completions: { complete: 'ok' },
};

/** The gated requests that reach a server declaring `feature` alone, in the order `outcomes` makes them. */
function expectedRequests(feature: CapabilityFeature, era: (typeof ERAS)[number]): string[] {
  const legacy = era === '2025-11-25';
  const resources = ['resources/list', 'resources/templates/list', 'resources/read'];
  switch (feature) {
    case 'tools':
      return ['tools/list', 'tools/list'];
    case 'prompts':
      return ['prompts/list', 'prompts/get'];
    case 'resources':
      return resources;
    case 'subscribe':
      // 2026-07-28 subscribes through subscriptions/listen (MCP spec 2026-07-28, "Subscriptions").
      return legacy ? [...resources, 'resources/subscribe', 'resources/unsubscribe'] : resources;
    case 'logging':
      // 2026-07-28 removed logging/setLevel: the level goes in each request's `_meta`.
      return legacy ? ['logging/setLevel'] : [];
    case 'completions':
      return ['completion/complete'];
  }
}

describe.each(ERAS)('a server declaring one capability alone, over stdio (%s)', (era) => {
  it.each(FEATURES)(
    '%s: only its requests are sent, the others answered from the capabilities',
    async (feature) => {
      const { client, log } = stdioClient([feature], { protocolVersion: era });
      await client.connect();
      expect(client.getProtocolVersion()).toBe(era);
      expect(await outcomes(client)).toEqual({ ...NOTHING, ...OFFERED[feature] });
      expect(gated(readLog(log))).toEqual(expectedRequests(feature, era));
    },
  );

  it('connects to a server that declares nothing, sending no tools/list', async () => {
    const { client, log } = stdioClient([], { protocolVersion: era });
    await client.connect();
    expect(client.getServerCapabilities()).toEqual({});
    expect(await outcomes(client)).toEqual(NOTHING);
    expect(gated(readLog(log))).toEqual([]);
  });

  it('connects with the logLevel option to a server without logging, sending no level', async () => {
    const { client, log } = stdioClient(['resources'], { protocolVersion: era, logLevel: 'debug' });
    await client.connect();
    expect(await client.listResources()).toHaveLength(1);
    const messages = readLog(log);
    expect(gated(messages)).toEqual(['resources/list']);
    // Nor in 2026-07-28's `_meta` (MCP spec 2026-07-28, "Utilities > Logging").
    expect(messages.some((message) => JSON.stringify(message).includes('logLevel'))).toBe(false);
  });

  it('sends the logLevel option to a server that declares logging', async () => {
    const { client, log } = stdioClient(['logging', 'resources'], {
      protocolVersion: era,
      logLevel: 'debug',
    });
    await client.connect();
    await client.listResources();
    const messages = readLog(log);
    if (era === '2025-11-25') {
      expect(gated(messages)).toEqual(['logging/setLevel', 'resources/list']);
    } else {
      const list = messages.find((message) => message.method === 'resources/list');
      expect(list?.params?._meta).toMatchObject({ 'io.modelcontextprotocol/logLevel': 'debug' });
    }
  });

  it('names the missing capability in the error', async () => {
    const { client } = stdioClient(['resources'], { protocolVersion: era });
    await client.connect();
    const error = await client.subscribeResource('fixture://doc').catch((thrown: unknown) => thrown);
    expect(error).toBeInstanceOf(MCPCallError);
    expect((error as MCPCallError).message).toBe(
      'MCP server "caps": resources/subscribe failed: the server does not declare the "resources.subscribe" capability, so it was not sent',
    );
  });
});

describe.each(ERAS)('a server declaring only resources, over Streamable HTTP (%s)', (era) => {
  let server: Era2026HttpServer;
  beforeAll(async () => {
    server = await startEra2026Http({
      modernOnly: false,
      createServer: () => createCapabilityServer(['resources']),
    });
  });
  afterAll(() => server.close());

  it('connects without tools/list and lists what it offers', async () => {
    const client = MCPClient.fromUrl(server.url, { name: 'caps', protocolVersion: era });
    open.push(client);
    await client.connect();
    expect(client.getProtocolVersion()).toBe(era);
    expect(client.getTools()).toEqual([]);
    expect((await client.listResources()).map((resource) => resource.uri)).toEqual(['fixture://doc']);
    expect(await client.listPrompts()).toEqual([]);
    const methods = server.requests
      .filter((request) => request.method === 'POST')
      .map((request) => (JSON.parse(request.body) as { method?: string }).method ?? '');
    expect(gated(methods.map((method) => ({ method })))).toEqual(['resources/list']);
  });
});

describe('servers without tools in MCPServers and the agent', () => {
  it('contribute no tools, and no error', async () => {
    const resources = stdioClient(['resources'], { name: 'docs' }).client;
    const tools = stdioClient(['tools'], { name: 'pinger' }).client;
    const servers = new MCPServers().add(resources).add(tools);
    const results = await servers.connectAll();
    expect(results).toEqual([
      { name: 'docs', ok: true, toolCount: 0 },
      { name: 'pinger', ok: true, toolCount: 1 },
    ]);
    expect(servers.getTools().map((tool) => tool.name)).toEqual(['pong_tool']);

    const model = anthropic({ model: 'claude-test', apiKey: 'k', baseURL: 'http://127.0.0.1:9' });
    const agent = new Agent({ model });
    await agent.addMcpServer(resources);
    await agent.addMcpServer(tools);
    expect([...agent.getTools().keys()]).toEqual(['pong_tool']);
  });
});
