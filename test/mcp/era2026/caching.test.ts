/**
 * The response cache (client/response-cache.ts; MCP spec 2026-07-28, "Server > Utilities > Caching") and
 * 2026-07-28 pagination through `MCPClient`, against the real fixtures (test/fixtures/era2026/) returning
 * `ttlMs` / `cacheScope`, with every request counted: the HTTP fixture records them, the stdio one logs
 * every line it receives (`--log`).
 */

import { randomUUID } from 'node:crypto';
import { readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { MCPClient, type MCPClientOptions } from '../../../src/mcp/client/client.js';
import { type Era2026HttpServer, startEra2026Http } from '../../fixtures/era2026/http-server.js';
import { TOOL_NAMES } from '../../fixtures/era2026/server.mjs';
import { children, ROOT, waitUntil } from '../../helpers.js';

const STDIO_SERVER = path.join(ROOT, 'test/fixtures/era2026/stdio-server.mjs');
const HINTS = {
  'tools/list': { ttlMs: 60_000, cacheScope: 'public' as const },
  'prompts/list': { ttlMs: 60_000, cacheScope: 'public' as const },
  'resources/read': { ttlMs: 60_000, cacheScope: 'private' as const },
};

const open: MCPClient[] = [];
const logs: string[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((client) => client.disconnect()));
  for (const log of logs.splice(0)) rmSync(log, { force: true });
});

function http(url: string, options: MCPClientOptions = {}): MCPClient {
  const created = MCPClient.fromUrl(url, { name: 'cached', ...options });
  open.push(created);
  return created;
}

/** The JSON-RPC methods (and `cursor` / `uri` params) of the recorded POSTs. */
function calls(server: Era2026HttpServer): string[] {
  return server.requests
    .filter((r) => r.method === 'POST')
    .map((r) => {
      const { method, params } = JSON.parse(r.body) as { method: string; params?: Record<string, unknown> };
      const shaping = params?.uri ?? params?.cursor;
      return shaping === undefined ? method : `${method} ${JSON.stringify(shaping)}`;
    });
}

/**
 * `sent` without its `subscriptions/listen` requests, and how many there were. Every 2026-07-28 connection
 * opens one (the fixture declares `tools.listChanged`; MCP spec 2026-07-28, "Basic > Patterns >
 * Subscriptions"), cached list or not, since change notifications (which make a cached list stale) come
 * only on it. Over HTTP it goes out beside the first `tools/list`, so their order at the server is not fixed.
 */
function split(sent: string[]): { requests: string[]; listens: number } {
  const requests = sent.filter((method) => method !== 'subscriptions/listen');
  return { requests, listens: sent.length - requests.length };
}

describe('the response cache over Streamable HTTP (2026-only fixture with cache hints)', () => {
  let server: Era2026HttpServer;
  beforeAll(async () => {
    server = await startEra2026Http({
      modernOnly: true,
      cacheHints: HINTS,
      resources: true,
      pagedPrompts: true,
    });
  });
  afterAll(() => server.close());

  it('sends no second tools/list within its ttlMs: connect again reuses the list', async () => {
    server.requests.length = 0;
    const mcp = http(server.url);
    await mcp.connect();
    await mcp.disconnect();
    await mcp.connect();
    expect(mcp.getTools().map((tool) => tool.name)).toEqual(TOOL_NAMES);
    expect(split(calls(server))).toEqual({
      requests: ['server/discover', 'tools/list', 'server/discover'],
      listens: 2,
    });
  });

  it('refreshTools() asks the server, and stores what it answered', async () => {
    server.requests.length = 0;
    const mcp = http(server.url);
    await mcp.connect();
    const refreshed = await mcp.refreshTools();
    expect(refreshed.map((tool) => tool.name)).toEqual(TOOL_NAMES);
    await mcp.disconnect();
    await mcp.connect();
    expect(split(calls(server))).toEqual({
      requests: ['server/discover', 'tools/list', 'tools/list', 'server/discover'],
      listens: 2,
    });
  });

  it('answers resources/read per URI from the cache within its ttlMs', async () => {
    server.requests.length = 0;
    const mcp = http(server.url);
    await mcp.connect();
    const first = await mcp.readResource('fixture://a');
    const again = await mcp.readResource('fixture://a');
    const other = await mcp.readResource('fixture://b');
    expect(first.contents).toEqual([
      { uri: 'fixture://a', mimeType: 'text/plain', text: 'contents of fixture://a' },
    ]);
    expect(again).toEqual(first);
    expect(again).not.toBe(first);
    expect(other.contents[0]).toMatchObject({ text: 'contents of fixture://b' });
    expect(split(calls(server))).toEqual({
      requests: [
        'server/discover',
        'tools/list',
        'resources/read "fixture://a"',
        'resources/read "fixture://b"',
      ],
      listens: 1,
    });
  });

  it('follows an empty-string cursor to the end, and caches each page', async () => {
    server.requests.length = 0;
    const mcp = http(server.url);
    await mcp.connect();
    expect((await mcp.listPrompts()).map((prompt) => prompt.name)).toEqual(['first', 'second', 'third']);
    expect((await mcp.listPrompts()).map((prompt) => prompt.name)).toEqual(['first', 'second', 'third']);
    expect(split(calls(server))).toEqual({
      requests: ['server/discover', 'tools/list', 'prompts/list', 'prompts/list ""', 'prompts/list "last"'],
      listens: 1,
    });
  });

  it('sends every request with cache: false', async () => {
    server.requests.length = 0;
    const mcp = http(server.url, { cache: false });
    await mcp.connect();
    await mcp.readResource('fixture://a');
    await mcp.readResource('fixture://a');
    await mcp.disconnect();
    await mcp.connect();
    expect(split(calls(server))).toEqual({
      requests: [
        'server/discover',
        'tools/list',
        'resources/read "fixture://a"',
        'resources/read "fixture://a"',
        'server/discover',
        'tools/list',
      ],
      listens: 2,
    });
  });
});

describe('the response cache when the ttlMs runs out', () => {
  let server: Era2026HttpServer;
  beforeAll(async () => {
    server = await startEra2026Http({ modernOnly: true, cacheHints: { 'tools/list': { ttlMs: 200 } } });
  });
  afterAll(() => server.close());

  it('lists again once the list is stale', async () => {
    server.requests.length = 0;
    const mcp = http(server.url);
    await mcp.connect();
    await mcp.disconnect();
    await new Promise((resolve) => setTimeout(resolve, 300));
    await mcp.connect();
    expect(split(calls(server))).toEqual({
      requests: ['server/discover', 'tools/list', 'server/discover', 'tools/list'],
      listens: 2,
    });
  });
});

describe('a 2025-era connection to the same dual-era fixture', () => {
  let server: Era2026HttpServer;
  beforeAll(async () => {
    server = await startEra2026Http({
      modernOnly: false,
      cacheHints: HINTS,
      resources: true,
      pagedPrompts: true,
    });
  });
  afterAll(() => server.close());

  it('is served as before: no ttlMs, every request sent, an empty cursor ends the list', async () => {
    server.requests.length = 0;
    const mcp = http(server.url, { protocolVersion: '2025-11-25' });
    await mcp.connect();
    expect(mcp.getProtocolVersion()).toBe('2025-11-25');
    const read = await mcp.readResource('fixture://a');
    expect(read).not.toHaveProperty('ttlMs');
    await mcp.readResource('fixture://a');
    expect((await mcp.listPrompts()).map((prompt) => prompt.name)).toEqual(['first']);
    await mcp.disconnect();
    await mcp.connect();
    expect(calls(server)).toEqual([
      'initialize',
      'notifications/initialized',
      'tools/list',
      'resources/read "fixture://a"',
      'resources/read "fixture://a"',
      'prompts/list',
      'initialize',
      'notifications/initialized',
      'tools/list',
    ]);
  });
});

describe('the response cache over stdio (2026-only fixture, requests logged)', () => {
  /** A fixture command whose received lines go to a fresh log file; `marker` finds its process. */
  function stdio(marker: string): { server: { command: string; args: string[] }; methods: () => string[] } {
    const log = path.join(tmpdir(), `agentwire-cache-${randomUUID()}.jsonl`);
    logs.push(log);
    const args = [STDIO_SERVER, '--modern-only', `--cache-hints=${JSON.stringify(HINTS)}`, '--tools-changed'];
    const methods = () => {
      let text = '';
      try {
        text = readFileSync(log, 'utf8');
      } catch {
        return [];
      }
      return text
        .split('\n')
        .filter((line) => line.trim() !== '')
        .map((line) => (JSON.parse(line) as { method?: string }).method ?? 'response');
    };
    return { server: { command: process.execPath, args: [...args, `--log=${log}`, marker] }, methods };
  }

  it('reuses the list at a reconnect inside its ttlMs (a new server process, no tools/list)', async () => {
    const marker = `marker=${randomUUID()}`;
    const { server, methods } = stdio(marker);
    const mcp = MCPClient.fromStdio(server, { reconnect: { enabled: true, initialDelayMs: 10 } });
    open.push(mcp);
    await mcp.connect();
    const [first] = children(marker);
    const reconnected = new Promise((resolve) => mcp.once('reconnected', resolve));
    process.kill(first as number, 'SIGKILL');
    await reconnected;
    await waitUntil(() => children(marker).length === 1 && children(marker)[0] !== first);
    expect(mcp.getTools().map((tool) => tool.name)).toEqual([...TOOL_NAMES, 'change_tools']);
    // One pipe, so the order is fixed: each connection's listen goes out before its first request, and the
    // new process gets one too (its notifications need it), though its tool list comes from the cache.
    expect(methods()).toEqual([
      'server/discover',
      'subscriptions/listen',
      'tools/list',
      'server/discover',
      'subscriptions/listen',
    ]);
  });

  it('makes the list stale on notifications/tools/list_changed', async () => {
    const { server, methods } = stdio(`marker=${randomUUID()}`);
    const mcp = MCPClient.fromStdio(server, { refreshToolsOnListChanged: false });
    open.push(mcp);
    await mcp.connect();
    await mcp.callTool('change_tools', {});
    await mcp.disconnect();
    await mcp.connect();
    // The list_changed that made the list stale came on the first connection's listen.
    expect(methods()).toEqual([
      'server/discover',
      'subscriptions/listen',
      'tools/list',
      'tools/call',
      'server/discover',
      'subscriptions/listen',
      'tools/list',
    ]);
  });
});
