/**
 * 2026-07-28 change notifications over Streamable HTTP (session/listen.ts, client/subscriptions.ts), against
 * the real fixtures with changeable tools, prompts and resources (test/fixtures/era2026/, `changes`): one
 * `subscriptions/listen` for what the server declares, the same events as in 2025, resource subscriptions as
 * re-opened listens, a dropped stream re-opened, `disconnect()` ending it, no idle timeout on it, and a
 * server answering the listen with an error. A 2025 pin sends no listen at all.
 */

import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { MCPClient, type MCPClientOptions } from '../../../src/mcp/client/client.js';
import { MCPCallError } from '../../../src/mcp/protocol/errors.js';
import { type Era2026HttpServer, startEra2026Http } from '../../fixtures/era2026/http-server.js';
import { waitUntil } from '../../helpers.js';
import {
  cancelled,
  ENVELOPE,
  LIST_CHANGES,
  listens,
  next,
  pause,
  type Sent,
  watch,
} from './listen-helpers.js';

const open: MCPClient[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((client) => client.disconnect()));
});

function client(url: string, options: MCPClientOptions & { idleTimeoutMs?: number } = {}): MCPClient {
  const created = MCPClient.fromUrl(url, { name: 'http', listChangedDebounceMs: 10, ...options });
  open.push(created);
  return created;
}

/** The JSON-RPC messages the fixture received, from `from` on. */
function sent(server: Era2026HttpServer, from = 0): Sent[] {
  return server.requests.slice(from).flatMap((r) => (r.body === '' ? [] : [JSON.parse(r.body) as Sent]));
}

describe.each([
  ['2026-only', true],
  ['dual-era', false],
])('the %s HTTP fixture with changes', (_label, modernOnly) => {
  let server: Era2026HttpServer;
  beforeAll(async () => {
    server = await startEra2026Http({ modernOnly, changes: true });
  });
  afterAll(() => server.close());

  it('opens one subscriptions/listen for what the server declares, and reports tool, prompt and resource list changes', async () => {
    const from = server.requests.length;
    const mcp = client(server.url);
    const seen = watch(mcp);
    await mcp.connect();
    const before = mcp.getTools();
    const messages = sent(server, from);
    // The listen goes out beside the first tools/list: either POST may arrive first.
    expect(messages[0]?.method).toBe('server/discover');
    expect(
      messages
        .slice(1)
        .map((m) => m.method)
        .sort(),
    ).toEqual(['subscriptions/listen', 'tools/list']);
    expect(messages.find((m) => m.method === 'subscriptions/listen')).toEqual({
      jsonrpc: '2.0',
      id: 'listen:0',
      method: 'subscriptions/listen',
      params: { _meta: ENVELOPE, notifications: LIST_CHANGES },
    });
    const post = server.requests.slice(from).find((r) => r.body.includes('"subscriptions/listen"'));
    expect([post?.headers['mcp-method'], post?.headers['mcp-protocol-version']]).toEqual([
      'subscriptions/listen',
      '2026-07-28',
    ]);
    await waitUntil(() => server.openListenStreams === 1, 5000, 'the listen stream');

    const name = `added_${modernOnly}`;
    const toolsChanged = next(mcp, 'toolsChanged');
    await mcp.callTool('change', { what: 'tool', name });
    await toolsChanged;
    // Unchanged tools keep their identity, as on a 2025 list_changed.
    const after = new Map(mcp.getTools().map((tool) => [tool.name, tool]));
    expect(after.size).toBe(before.length + 1);
    for (const tool of before) expect(after.get(tool.name)).toBe(tool);
    expect((await mcp.callTool(name)).content).toEqual([{ type: 'text', text: `added ${name}` }]);

    const promptsChanged = next(mcp, 'promptsChanged');
    await mcp.callTool('change', { what: 'prompt', name: `prompt_${modernOnly}` });
    await promptsChanged;
    const resourcesChanged = next(mcp, 'resourcesChanged');
    await mcp.callTool('change', { what: 'resources', name: `r_${modernOnly}` });
    await resourcesChanged;
    expect((await mcp.listPrompts()).map((p) => p.name)).toContain(`prompt_${modernOnly}`);
    expect((await mcp.listResources()).map((r) => r.uri)).toContain(`fixture://r_${modernOnly}`);

    expect(seen).toEqual([
      ['toolsChanged', { added: [name], removed: [], changed: [] }],
      ['promptsChanged', {}],
      ['resourcesChanged', {}],
    ]);
    expect(listens(sent(server, from))).toEqual([['listen:0', LIST_CHANGES]]);
  });

  it('subscribes and unsubscribes by re-opening the listen, and reports updates of the subscribed URI only', async () => {
    const from = server.requests.length;
    const mcp = client(server.url);
    const seen = watch(mcp);
    await mcp.connect();
    await mcp.subscribeResource('fixture://a');
    const subscribed = { ...LIST_CHANGES, resourceSubscriptions: ['fixture://a'] };
    expect(listens(sent(server, from))).toEqual([
      ['listen:0', LIST_CHANGES],
      ['listen:1', subscribed],
    ]);
    // The new listen is acknowledged before the old one is cancelled.
    expect(cancelled(sent(server, from))).toEqual(['listen:0']);
    await waitUntil(() => server.openListenStreams === 1, 5000, 'one listen stream');
    // Subscribing again changes nothing.
    await mcp.subscribeResource('fixture://a');
    expect(listens(sent(server, from))).toHaveLength(2);

    const updated = next(mcp, 'resourceUpdated');
    await mcp.callTool('change', { what: 'resource', uri: 'fixture://b' });
    await mcp.callTool('change', { what: 'resource', uri: 'fixture://a' });
    await updated;
    const version = server.changes?.resources.get('fixture://a');
    expect((await mcp.readResource('fixture://a')).contents).toEqual([
      { uri: 'fixture://a', mimeType: 'text/plain', text: `fixture://a v${version}` },
    ]);

    await mcp.unsubscribeResource('fixture://a');
    expect(listens(sent(server, from))).toEqual([
      ['listen:0', LIST_CHANGES],
      ['listen:1', subscribed],
      ['listen:2', LIST_CHANGES],
    ]);
    const promptsChanged = next(mcp, 'promptsChanged');
    await mcp.callTool('change', { what: 'resource', uri: 'fixture://a' });
    await mcp.callTool('change', { what: 'prompt', name: `after_${modernOnly}` });
    await promptsChanged;
    expect(seen).toEqual([
      ['resourceUpdated', { uri: 'fixture://a' }],
      ['promptsChanged', {}],
    ]);
  });

  it('re-opens a listen stream the server drops, after a backoff, with the same filter', async () => {
    const from = server.requests.length;
    const mcp = client(server.url);
    const seen = watch(mcp);
    await mcp.connect();
    await mcp.subscribeResource('fixture://b');
    await waitUntil(() => server.openListenStreams === 1, 5000, 'the listen stream');
    expect(server.dropListenStreams()).toBe(1);
    await waitUntil(() => listens(sent(server, from)).length === 3, 5000, 'the re-opened listen');
    const subscribed = { ...LIST_CHANGES, resourceSubscriptions: ['fixture://b'] };
    expect(listens(sent(server, from))).toEqual([
      ['listen:0', LIST_CHANGES],
      ['listen:1', subscribed],
      ['listen:2', subscribed],
    ]);
    await waitUntil(() => server.openListenStreams === 1, 5000, 'the re-opened stream');
    expect(mcp.getState()).toBe('connected');

    const updated = next(mcp, 'resourceUpdated');
    await mcp.callTool('change', { what: 'resource', uri: 'fixture://b' });
    await updated;
    expect(seen).toEqual([
      [
        'log',
        {
          level: 'info',
          message: 'MCP server "http": the subscriptions/listen stream dropped; re-opening it',
        },
      ],
      ['resourceUpdated', { uri: 'fixture://b' }],
    ]);
  });

  it('ends the listen stream on disconnect(), and leaves no re-open behind', async () => {
    const mcp = client(server.url);
    await mcp.connect();
    await waitUntil(() => server.openListenStreams === 1, 5000, 'the listen stream');
    await mcp.disconnect();
    await waitUntil(() => server.openListenStreams === 0, 5000, 'the listen stream to end');

    // A drop, then disconnect() during the backoff: nothing is re-opened.
    const again = client(server.url);
    await again.connect();
    await waitUntil(() => server.openListenStreams === 1, 5000, 'the listen stream');
    const from = server.requests.length;
    expect(server.dropListenStreams()).toBe(1);
    await again.disconnect();
    await pause(800);
    expect(sent(server, from)).toEqual([]);
    expect(server.openListenStreams).toBe(0);
  });

  it('keeps a quiet listen stream open past the idle timeout', async () => {
    const from = server.requests.length;
    const mcp = client(server.url, { idleTimeoutMs: 1000 });
    const seen = watch(mcp);
    await mcp.connect();
    // The fixture's keep-alive comes every 15 s: the stream is silent for 2.5 idle timeouts.
    await pause(2500);
    expect(server.openListenStreams).toBe(1);
    const toolsChanged = next(mcp, 'toolsChanged');
    await mcp.callTool('change', { what: 'tool', name: `quiet_${modernOnly}` });
    await toolsChanged;
    expect(listens(sent(server, from))).toEqual([['listen:0', LIST_CHANGES]]);
    expect(seen).toEqual([['toolsChanged', { added: [`quiet_${modernOnly}`], removed: [], changed: [] }]]);
  });
});

describe('a server that answers subscriptions/listen with an error', () => {
  let server: Era2026HttpServer;
  beforeAll(async () => {
    server = await startEra2026Http({ modernOnly: true, changes: true, maxSubscriptions: 0 });
  });
  afterAll(() => server.close());

  it('keeps the connection, says so once, and fails a subscription with the error', async () => {
    const mcp = client(server.url);
    const seen = watch(mcp);
    await mcp.connect();
    expect(mcp.getState()).toBe('connected');
    expect((await mcp.callTool('add', { a: 1, b: 2 })).structuredContent).toEqual({ sum: 3 });
    const error = await mcp.subscribeResource('fixture://a').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(MCPCallError);
    expect(error).toMatchObject({
      kind: 'jsonrpc',
      code: -32603,
      method: 'subscriptions/listen',
      server: 'http',
    });
    await pause(600);
    expect(listens(sent(server))).toEqual([
      ['listen:0', LIST_CHANGES],
      ['listen:1', { ...LIST_CHANGES, resourceSubscriptions: ['fixture://a'] }],
    ]);
    expect(seen).toEqual([
      [
        'log',
        {
          level: 'warn',
          message:
            'MCP server "http": the server answered subscriptions/listen with JSON-RPC error -32603; change notifications are off for this connection',
        },
      ],
    ]);
    expect(mcp.getState()).toBe('connected');
  });
});

describe('the HTTP fixture without resources', () => {
  let server: Era2026HttpServer;
  beforeAll(async () => {
    server = await startEra2026Http({ modernOnly: true });
  });
  afterAll(() => server.close());

  it('listens for tool changes only, and refuses a resource subscription without sending anything', async () => {
    const mcp = client(server.url);
    await mcp.connect();
    expect(listens(sent(server))).toEqual([['listen:0', { toolsListChanged: true }]]);
    const from = server.requests.length;
    const error = await mcp.subscribeResource('fixture://a').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(MCPCallError);
    expect(error).toMatchObject({
      kind: 'unsupported',
      capability: 'resources.subscribe',
      method: 'resources/subscribe',
      server: 'http',
    });
    expect((error as MCPCallError).reason).toBe(
      'the server does not declare the "resources.subscribe" capability, so it was not sent',
    );
    expect(server.requests.length).toBe(from);
  });
});

describe('the dual-era HTTP fixture pinned to 2025-11-25', () => {
  let server: Era2026HttpServer;
  beforeAll(async () => {
    server = await startEra2026Http({ modernOnly: false, changes: true });
  });
  afterAll(() => server.close());

  it('sends no subscriptions/listen, and resources/subscribe as before', async () => {
    const mcp = client(server.url, { protocolVersion: '2025-11-25' });
    await mcp.connect();
    await mcp.subscribeResource('fixture://a');
    await mcp.unsubscribeResource('fixture://a');
    const messages = sent(server);
    expect(messages.map((m) => m.method)).toEqual([
      'initialize',
      'notifications/initialized',
      'tools/list',
      'resources/subscribe',
      'resources/unsubscribe',
    ]);
    expect(messages.slice(3)).toEqual([
      { method: 'resources/subscribe', params: { uri: 'fixture://a' }, jsonrpc: '2.0', id: 2 },
      { method: 'resources/unsubscribe', params: { uri: 'fixture://a' }, jsonrpc: '2.0', id: 3 },
    ]);
  });
});
