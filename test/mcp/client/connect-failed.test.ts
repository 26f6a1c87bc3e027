/**
 * `connectFailed`: a failed connect is told the moment it fails, before the server it started is stopped
 * (which, for a stdio server that ignores SIGTERM, takes the whole kill sequence); `connect()` rejects with
 * the same error once it is.
 */
import { randomUUID } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { MCPCallError, MCPClient, MCPClientEvent } from '../../../src/mcp/index.js';
import { children, ROOT, tempDir } from '../../helpers.js';

const WRAPPER = path.join(ROOT, 'test', 'fixtures', 'stdio-wrapper.sh');

describe('MCPClient connectFailed', () => {
  it('is emitted at the connect timeout, while the server is still running, with the error connect() rejects with', async () => {
    const dir = tempDir();
    const marker = `marker=${randomUUID()}`;
    try {
      const script = path.join(dir.dir, 'mute.mjs');
      writeFileSync(script, 'process.stdin.resume();\n');
      const client = MCPClient.fromStdio(
        { command: 'sh', args: [WRAPPER, process.execPath, script, marker] },
        { connectTimeoutMs: 500 },
      );
      const seen: { error: MCPCallError; running: number }[] = [];
      client.on(MCPClientEvent.CONNECT_FAILED, ({ error }) => {
        seen.push({ error, running: children(marker).length });
      });
      const rejected = await client.connect().catch((error: unknown) => error);
      expect(rejected).toBeInstanceOf(MCPCallError);
      expect(seen).toHaveLength(1);
      expect(seen[0]!.error).toBe(rejected);
      expect(seen[0]!.running).toBeGreaterThan(0);
      expect((rejected as MCPCallError).message).toBe(
        'MCP server "stdio-wrapper.sh": initialize failed: timed out after 500 ms',
      );
      expect(children(marker)).toEqual([]);
    } finally {
      dir.remove();
    }
  }, 30_000);

  it('is not emitted for a connect stopped by disconnect()', async () => {
    const client = MCPClient.fromStdio({ command: process.execPath, args: ['-e', 'process.stdin.resume()'] });
    let failed = 0;
    client.on('connectFailed', () => {
      failed += 1;
    });
    const connecting = client.connect().catch(() => undefined);
    await new Promise((resolve) => setTimeout(resolve, 200));
    await client.disconnect();
    await connecting;
    expect(failed).toBe(0);
  }, 30_000);
});
