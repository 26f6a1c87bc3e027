/**
 * A 2026-07-28 server whose `subscriptions/listen` acknowledgment is held back, as a proxy that buffers
 * response streams holds it (test/fixtures/era2026/raw-server.mjs with RAW_LATE_ACK=1): `connect()` does not
 * wait for it beyond LISTEN_ACK_CONNECT_WAIT_MS (the connect timeout here is far longer, so a connect that
 * waited for the acknowledgment would fail the test's own timeout), and the acknowledgment that arrives later
 * refreshes the tool list once, which finds the tool added while nobody listened.
 */
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { MCPClient } from '../../../src/mcp/client/client.js';
import { LISTEN_ACK_CONNECT_WAIT_MS } from '../../../src/mcp/client/connection.js';
import { ROOT, readLog, tempDir } from '../../helpers.js';

const RAW_SERVER = path.join(ROOT, 'test/fixtures/era2026/raw-server.mjs');

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

describe('a listen acknowledged late', () => {
  it(
    'does not hold up connect, and its late acknowledgment refreshes the tools',
    async () => {
      const temp = tempDir();
      const log = path.join(temp.dir, 'log.jsonl');
      const mcp = MCPClient.fromStdio(
        { command: process.execPath, args: [RAW_SERVER], env: { RAW_LOG: log, RAW_LATE_ACK: '1' } },
        { name: 'raw', connectTimeoutMs: 120_000 },
      );
      cleanups.push(temp.remove, () => mcp.disconnect());
      const changes: string[][] = [];
      mcp.on('toolsChanged', ({ added }) => changes.push(added.map((tool) => tool.name)));

      await mcp.connect();
      expect(mcp.getTools().map((tool) => tool.name)).toEqual([
        'ask_sampling',
        'bad_method',
        'odd_type',
        'no_type',
        'release',
      ]);
      expect(readLog(log).filter((m) => m.method === 'subscriptions/listen')).toHaveLength(1);

      // The server acknowledges now; the client re-lists once and finds the tool it could not hear about.
      expect(await mcp.callTool('release', {})).toMatchObject({
        content: [{ type: 'text', text: 'released' }],
      });
      await expect.poll(() => changes, { timeout: 10_000 }).toEqual([['late_tool']]);
      await mcp.whenToolsSettled();
      expect(readLog(log).filter((m) => m.method === 'tools/list')).toHaveLength(2);
    },
    10_000 + LISTEN_ACK_CONNECT_WAIT_MS * 2,
  );
});
