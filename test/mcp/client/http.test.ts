import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { MCPClient } from '../../../src/mcp/client/client.js';
import type { MCPClientEvents } from '../../../src/mcp/client/events.js';
import { MCPCallError } from '../../../src/mcp/protocol/errors.js';
import { type EverythingServer, startEverything } from '../../fixtures/http-everything.js';

const open: MCPClient[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((client) => client.disconnect()));
});
const track = (client: MCPClient) => {
  open.push(client);
  return client;
};

describe('MCPClient against server-everything over Streamable HTTP', () => {
  let server: EverythingServer;
  beforeAll(async () => {
    server = await startEverything('streamableHttp');
  });
  afterAll(async () => {
    await server.stop();
  });

  it('discovers tools and calls echo, get-sum, the tiny image and structured content', async () => {
    const client = track(MCPClient.fromUrl(server.url));
    await client.connect();
    expect(client.name).toBe(new URL(server.url).host);
    const names = client.getTools().map((t) => t.name);
    expect(names).toContain('echo');
    expect(names).toContain('get-structured-content');
    expect(await client.callTool('echo', { message: 'over http' })).toEqual({
      content: [{ type: 'text', text: 'Echo: over http' }],
    });
    const tool = (name: string) => client.getTools().find((t) => t.name === name)!;
    expect(await tool('get-sum').execute({ a: 1, b: 2 })).toBe('The sum of 1 and 2 is 3.');
    expect(await tool('get-tiny-image').execute({})).toBe(
      "Here's the image you requested:\n[image content: image/png, 3.9 KB]\nThe image above is the MCP logo.",
    );
    const structured = await client.callTool('get-structured-content', { location: 'New York' });
    expect(structured.structuredContent).toEqual({ temperature: 33, conditions: 'Cloudy', humidity: 82 });
  });

  it('reports an expired session by type and recovers by reconnecting when enabled', async () => {
    const client = track(
      MCPClient.fromUrl(server.url, {
        reconnect: { enabled: true, initialDelayMs: 10, maxDelayMs: 20, maxRetries: 3 },
      }),
    );
    const events: string[] = [];
    client.on('disconnected', () => events.push('disconnected'));
    client.on('reconnected', () => events.push('reconnected'));
    await client.connect();
    const echo = client.getTools().find((t) => t.name === 'echo')!;
    // End the session behind the client's back, as a server restart or an idle-session reaper would.
    const other = track(MCPClient.fromUrl(server.url, { transport: 'streamable-http' }));
    await other.connect();
    await fetch(server.url, { method: 'DELETE', headers: { 'mcp-session-id': sessionOf(client) } });
    const result = await echo.execute({ message: 'again' });
    expect(result).toBe('Echo: again');
    expect(events).toEqual(['disconnected', 'reconnected']);
    expect(client.getTools().find((t) => t.name === 'echo')).toBe(echo);
  });

  it('without reconnection, fails the call with kind session_expired', async () => {
    const client = track(MCPClient.fromUrl(server.url));
    await client.connect();
    await fetch(server.url, { method: 'DELETE', headers: { 'mcp-session-id': sessionOf(client) } });
    const error = (await client.callTool('echo', { message: 'x' }).catch((e) => e)) as MCPCallError;
    expect(error).toBeInstanceOf(MCPCallError);
    expect(error.kind).toBe('session_expired');
    expect(client.getState()).toBe('failed');
  });
});

describe('MCPClient against a restarted HTTP server', () => {
  it('recovers when the server process is replaced and every session is lost', async () => {
    let server = await startEverything('streamableHttp');
    const port = Number(new URL(server.url).port);
    try {
      const client = track(
        MCPClient.fromUrl(server.url, {
          reconnect: { enabled: true, initialDelayMs: 50, maxDelayMs: 200, maxRetries: 20 },
        }),
      );
      const events: (keyof MCPClientEvents)[] = [];
      for (const name of ['disconnected', 'reconnecting', 'reconnected'] as const)
        client.on(name, () => events.push(name));
      await client.connect();
      await server.stop();
      server = await startEverything('streamableHttp', 15_000, port);
      expect(await client.callTool('echo', { message: 'new process' })).toEqual({
        content: [{ type: 'text', text: 'Echo: new process' }],
      });
      expect(events[0]).toBe('disconnected');
      expect(events.at(-1)).toBe('reconnected');
    } finally {
      await server.stop();
    }
  });
});

describe('MCPClient against an HTTP server that is down for a while', () => {
  it('waits for the server to come back instead of failing the call (reconnect enabled)', async () => {
    let server = await startEverything('streamableHttp');
    const port = Number(new URL(server.url).port);
    try {
      const client = track(
        MCPClient.fromUrl(server.url, {
          reconnect: { enabled: true, initialDelayMs: 100, maxDelayMs: 300, maxRetries: 30 },
        }),
      );
      const states: string[] = [];
      client.on('disconnected', () => states.push(client.getState()));
      await client.connect();
      await server.stop();
      const pending = client.callTool('get-sum', { a: 20, b: 22 }, { timeoutMs: 20_000 });
      await new Promise((resolve) => setTimeout(resolve, 500));
      server = await startEverything('streamableHttp', 15_000, port);
      const result = await pending;
      expect(result.content).toEqual([{ type: 'text', text: 'The sum of 20 and 22 is 42.' }]);
      expect(states).toEqual(['reconnecting']);
      expect(client.getState()).toBe('connected');
    } finally {
      await server.stop();
    }
  });
});

describe('MCPClient against server-everything in legacy SSE mode', () => {
  let server: EverythingServer;
  beforeAll(async () => {
    server = await startEverything('sse');
  });
  afterAll(async () => {
    await server.stop();
  });

  it('falls back to HTTP+SSE automatically and calls echo', async () => {
    const client = track(MCPClient.fromUrl(server.url));
    const logs: string[] = [];
    client.on('log', (entry) => logs.push(entry.message));
    await client.connect();
    expect(await client.callTool('echo', { message: 'legacy' })).toEqual({
      content: [{ type: 'text', text: 'Echo: legacy' }],
    });
    expect(logs).toEqual([
      `MCP server "${client.name}": initialize over Streamable HTTP was refused; trying the 2024-11-05 HTTP+SSE transport`,
    ]);
  });

  it('uses HTTP+SSE directly with transport: sse', async () => {
    const client = track(MCPClient.fromUrl(server.url, { transport: 'sse' }));
    await client.connect();
    expect(client.getTools().map((t) => t.name)).toContain('echo');
  });
});

/** The client's current Mcp-Session-Id, read through the transport (HTTP only). */
function sessionOf(client: MCPClient): string {
  const id = client.sessionId;
  if (!id) throw new Error('no session id');
  return id;
}
