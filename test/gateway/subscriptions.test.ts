/**
 * `completion/complete` routed to the upstream that owns the prompt (its prefixed name mapped back) or the
 * resource template, over Streamable HTTP in both eras; and resource subscriptions on a 2025-era stdio
 * connection: `resources/subscribe` reaches the upstream owning the URI, its
 * `notifications/resources/updated` comes back to the subscriber, and `resources/unsubscribe` ends both;
 * and the same through a 2026-07-28 `subscriptions/listen` filter (agentwire's client over HTTP).
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import {
  Client,
  type JSONRPCMessage,
  StreamableHTTPClientTransport,
  type Transport,
} from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MCPGateway } from '../../src/gateway/index.js';
import { loadServerConfig, MCPClient } from '../../src/mcp/index.js';
import { EVERYTHING, tempDir } from '../helpers.js';

const TOKEN = 'gateway-subscriptions-token-0123456789';
let gateway: MCPGateway;
let url: string;
let remove: () => void;

beforeAll(async () => {
  const temp = tempDir('agentwire-gateway-subs-');
  remove = temp.remove;
  const file = path.join(temp.dir, 'servers.json');
  writeFileSync(
    file,
    JSON.stringify({ mcpServers: { everything: { command: process.execPath, args: [EVERYTHING] } } }),
  );
  gateway = MCPGateway.fromConfig(await loadServerConfig(file));
  expect((await gateway.start()).map((result) => result.ok)).toEqual([true]);
  url = (await gateway.listen({ bearerToken: TOKEN })).url;
}, 60_000);

afterAll(async () => {
  await gateway?.close();
  remove?.();
});

describe.each(['auto', 'legacy'] as const)('completion/complete, %s negotiation', (mode) => {
  let client: Client;
  beforeAll(async () => {
    client = new Client({ name: 'gateway-test', version: '1.0.0' }, { versionNegotiation: { mode } });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(url), {
        requestInit: { headers: { authorization: `Bearer ${TOKEN}` } },
      }),
    );
  });
  afterAll(async () => {
    await client?.close();
  });

  it('is offered, and completes a prompt argument under its prefixed name, context included', async () => {
    expect(client.getServerCapabilities()?.completions).toEqual({});
    const ref = { type: 'ref/prompt' as const, name: 'everything__completable-prompt' };
    const first = await client.complete({ ref, argument: { name: 'department', value: 'S' } });
    expect(first.completion.values).toEqual(['Sales', 'Support']);
    const second = await client.complete({
      ref,
      argument: { name: 'name', value: '' },
      context: { arguments: { department: 'Engineering' } },
    });
    expect(second.completion.values).toEqual(['Alice', 'Bob', 'Charlie']);
  });

  it('completes a resource template argument at the upstream that lists the template', async () => {
    const result = await client.complete({
      ref: { type: 'ref/resource', uri: 'demo://resource/dynamic/text/{resourceId}' },
      argument: { name: 'resourceId', value: '7' },
    });
    expect(result.completion.values).toEqual(['7']);
  });

  it('answers an unknown prompt with -32602', async () => {
    await expect(
      client.complete({
        ref: { type: 'ref/prompt', name: 'completable-prompt' },
        argument: { name: 'department', value: '' },
      }),
    ).rejects.toMatchObject({ code: -32602 });
  });
});

/** A client transport over a pair of in-process streams, one JSON-RPC message per line (stdio framing). */
function streamTransport(toServer: PassThrough, fromServer: PassThrough): Transport {
  let buffered = '';
  const transport: Transport = {
    start: async () => {
      fromServer.setEncoding('utf8');
      fromServer.on('data', (chunk: string) => {
        buffered += chunk;
        let end = buffered.indexOf('\n');
        while (end >= 0) {
          const line = buffered.slice(0, end);
          buffered = buffered.slice(end + 1);
          if (line.trim()) transport.onmessage?.(JSON.parse(line) as JSONRPCMessage);
          end = buffered.indexOf('\n');
        }
      });
    },
    send: async (message) => {
      toServer.write(`${JSON.stringify(message)}\n`);
    },
    close: async () => {
      toServer.end();
      transport.onclose?.();
    },
  };
  return transport;
}

describe('resource subscriptions on a 2025-era stdio connection', () => {
  it('subscribes at the owning upstream, forwards its updates, and unsubscribes', async () => {
    const stdin = new PassThrough();
    const stdout = new PassThrough();
    const host = gateway.serveStdio({ stdin, stdout });
    const client = new Client(
      { name: 'gateway-test', version: '1.0.0' },
      { versionNegotiation: { mode: 'legacy' } },
    );
    const updates: string[] = [];
    let notified: () => void = () => {};
    const first = new Promise<void>((resolve) => {
      notified = resolve;
    });
    client.setNotificationHandler('notifications/resources/updated', (notification) => {
      updates.push(notification.params.uri);
      notified();
    });
    try {
      await client.connect(streamTransport(stdin, stdout));
      expect(client.getServerCapabilities()?.resources).toEqual({ listChanged: true, subscribe: true });
      const uri = 'demo://resource/dynamic/text/1';
      await client.subscribeResource({ uri });
      // server-everything sends updates of subscribed URIs once this tool turns them on (then every 5 s).
      const upstream = gateway.servers.get('everything')!;
      await upstream.callTool('toggle-subscriber-updates', {});
      await first;
      expect(updates[0]).toBe(uri);
      await client.unsubscribeResource({ uri });
      await upstream.callTool('toggle-subscriber-updates', {});
      await expect(client.subscribeResource({ uri: 'nowhere://nothing' })).rejects.toMatchObject({
        code: -32602,
      });
    } finally {
      await client.close();
      await host.close();
    }
  }, 30_000);
});

describe('resource subscriptions through a 2026-07-28 listen filter', () => {
  it("follows the filter's URI at the owning upstream and delivers its updates on the listen stream", async () => {
    const client = MCPClient.fromUrl(url, {
      name: 'gateway',
      headers: { authorization: `Bearer ${TOKEN}` },
    });
    const upstream = gateway.servers.get('everything')!;
    try {
      await client.connect();
      expect(client.getProtocolVersion()).toBe('2026-07-28');
      const uri = 'demo://resource/dynamic/text/2';
      const updated = new Promise<string>((resolve) =>
        client.on('resourceUpdated', (event) => resolve(event.uri)),
      );
      await client.subscribeResource(uri);
      // The gateway's upstream subscription follows the listen request; updates start with the toggle.
      await new Promise((resolve) => setTimeout(resolve, 300));
      await upstream.callTool('toggle-subscriber-updates', {});
      expect(await updated).toBe(uri);
    } finally {
      await upstream.callTool('toggle-subscriber-updates', {});
      await client.disconnect();
    }
  }, 30_000);
});
