/**
 * `agentwire serve` refusing what it cannot serve before it starts anything: a misspelt `gateway` setting
 * (exit 2, naming the key and the file), and an address it cannot bind (exit 3, naming the address, before
 * any upstream is started). Uses the built CLI (dist/).
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureBuilt, plainEnv, runBuilt } from './built-cli.js';

let dir: string;
// An upstream that never answers `initialize`: connecting to it would last the whole connect timeout.
let silent: string;

beforeAll(() => {
  ensureBuilt();
  dir = mkdtempSync(path.join(tmpdir(), 'serve-checks-'));
  silent = path.join(dir, 'silent.json');
  writeFileSync(
    silent,
    JSON.stringify({
      mcpServers: { silent: { command: process.execPath, args: ['-e', 'setInterval(() => {}, 1000)'] } },
    }),
  );
});

afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

describe('agentwire serve, refusals', () => {
  it('refuses an unknown key of the gateway section, exit 2, naming the key and the file', async () => {
    const config = path.join(dir, 'typo.json');
    writeFileSync(
      config,
      JSON.stringify({
        gateway: { bearerTokenEnv: 'GATEWAY_TOKEN', maxSubscription: 8 },
        mcpServers: { e: { command: process.execPath, args: ['-e', ''] } },
      }),
    );
    const run = await runBuilt(['serve', '--stdio', '--config', config], { env: plainEnv() });
    expect(run).toEqual({
      code: 2,
      stdout: '',
      stderr: `error: config ${config}: "gateway.maxSubscription" is not a gateway setting (known: bearerTokenEnv, separator, maxSubscriptions, maxRequestBodyBytes, allowedHosts, redisUrl, redisChannelPrefix)\n`,
    });
  });

  it('exits 3 naming the address when the port is taken, before any upstream is started', async () => {
    const taken = createServer();
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
    const { port } = taken.address() as AddressInfo;
    try {
      const run = await runBuilt(
        ['serve', '--config', silent, '--port', String(port), '--token-env', 'GATEWAY_TOKEN'],
        { env: plainEnv({ GATEWAY_TOKEN: 'serve-checks-token-0123456789' }) },
      );
      expect(run).toEqual({
        code: 3,
        stdout: '',
        stderr: `error: serve: cannot listen on 127.0.0.1:${port}: EADDRINUSE\n`,
      });
    } finally {
      await new Promise((resolve) => taken.close(resolve));
    }
  }, 20_000);

  it('exits 3 naming the address when --host is no address of this machine', async () => {
    const run = await runBuilt(
      ['serve', '--config', silent, '--host', '192.0.2.1', '--port', '0', '--token-env', 'GATEWAY_TOKEN'],
      { env: plainEnv({ GATEWAY_TOKEN: 'serve-checks-token-0123456789' }) },
    );
    expect(run).toEqual({
      code: 3,
      stdout: '',
      stderr: 'error: serve: cannot listen on 192.0.2.1:0: EADDRNOTAVAIL\n',
    });
  }, 20_000);
});
