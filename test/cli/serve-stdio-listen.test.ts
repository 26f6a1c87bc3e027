/**
 * `subscriptions/listen` on `agentwire serve --stdio` (MCP spec 2026-07-28, "Subscriptions"): a listen
 * filter's resource URIs subscribed at the upstream that owns them and its updates delivered on the
 * connection (agentwire's client), and a listen past `gateway.maxSubscriptions` refused naming the limit
 * (the bare SDK client). Uses the built CLI (dist/) in front of server-everything.
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MCPClient } from '../../src/mcp/index.js';
import { EVERYTHING, tempDir } from '../helpers.js';
import { ensureBuilt, MAIN, plainEnv } from './built-cli.js';

let dir: string;
let remove: () => void;
const config = (name: string, gateway: Record<string, unknown> = {}) => {
  const file = path.join(dir, name);
  writeFileSync(
    file,
    JSON.stringify({
      gateway,
      mcpServers: { everything: { command: process.execPath, args: [EVERYTHING] } },
    }),
  );
  return file;
};

beforeAll(() => {
  ensureBuilt();
  ({ dir, remove } = tempDir('agentwire-serve-listen-'));
});

afterAll(() => remove?.());

describe('agentwire serve --stdio, 2026-07-28 subscriptions', () => {
  it("follows a listen filter's resource URI upstream and delivers its updates", async () => {
    const client = MCPClient.fromStdio(
      { command: process.execPath, args: [MAIN, 'serve', '--stdio', '--config', config('updates.json')] },
      { name: 'gateway' },
    );
    try {
      await client.connect();
      expect(client.getProtocolVersion()).toBe('2026-07-28');
      const uri = 'demo://resource/dynamic/text/3';
      const updated = new Promise<string>((resolve) =>
        client.on('resourceUpdated', (event) => resolve(event.uri)),
      );
      await client.subscribeResource(uri);
      // The upstream subscription follows the acknowledgement; updates start with the toggle (every 5 s).
      await new Promise((resolve) => setTimeout(resolve, 300));
      await client.callTool('everything__toggle-subscriber-updates', {});
      expect(await updated).toBe(uri);
    } finally {
      await client.disconnect();
    }
  }, 30_000);

  it('refuses a listen past maxSubscriptions with an error naming the limit', async () => {
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [MAIN, 'serve', '--stdio', '--config', config('limit.json', { maxSubscriptions: 1 })],
      env: plainEnv() as Record<string, string>,
      stderr: 'pipe',
    });
    const client = new Client(
      { name: 'serve-listen', version: '1.0.0' },
      { versionNegotiation: { mode: 'auto' } },
    );
    await client.connect(transport);
    try {
      const listen = () =>
        client.request({
          method: 'subscriptions/listen',
          params: { notifications: { toolsListChanged: true } },
        } as never);
      const first = listen();
      first.catch(() => {});
      await expect(listen()).rejects.toMatchObject({
        code: -32603,
        message:
          'Too many subscriptions: this gateway keeps at most 1 subscriptions/listen subscriptions open (maxSubscriptions); close one or try later',
        data: { kind: 'subscription_limit', maxSubscriptions: 1 },
      });
    } finally {
      await client.close();
    }
  }, 30_000);
});
