/**
 * `agentwire serve` as a process: over Streamable HTTP (the bearer token from the environment, clients
 * without it refused, SIGTERM stopping every upstream and closing the port) and over stdio (the bare SDK
 * client in both negotiation modes: the tool list, an elicitation relayed as a 2025 server request, a call
 * cancelled mid-way; the end of stdin stopping everything). Uses the built CLI (dist/).
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { alive, childrenOf } from '../fixtures/processes.js';
import { type Fleet, GATEWAY_TOOLS, sdkHttpClient, startFleet, TOKEN } from '../gateway/fleet.js';
import { waitUntil } from '../helpers.js';
import { ensureBuilt, MAIN, plainEnv, runBuilt, startCli } from './built-cli.js';

let fleet: Fleet;

beforeAll(async () => {
  ensureBuilt();
  fleet = await startFleet();
}, 60_000);

afterAll(async () => {
  await fleet?.close();
});

describe('agentwire serve over HTTP', () => {
  it('serves the fleet behind the token and stops everything on SIGTERM', async () => {
    const cli = startCli(['serve', '--config', fleet.config, '--port', '0'], {
      env: plainEnv({ GATEWAY_TOKEN: TOKEN }),
    });
    const url = await cli.onStderr('serving on ', () => /serving on (\S+)/.exec(cli.stderr())?.[1] as string);
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
    expect(cli.stderr()).toContain('connected everything (10 tools)\n');
    const client = await sdkHttpClient(url, 'auto');
    expect((await client.listTools()).tools.map((tool) => tool.name)).toEqual(GATEWAY_TOOLS);
    await client.close();
    const refused = await fetch(url, {
      method: 'POST',
      body: '{}',
      headers: { 'content-type': 'application/json' },
    });
    expect(refused.status).toBe(401);

    const upstreams = childrenOf(cli.child.pid as number);
    expect(upstreams.length).toBe(3);
    cli.child.kill('SIGTERM');
    expect(await cli.exited).toBe(0);
    await waitUntil(() => upstreams.every((pid) => !alive(pid)), 10_000, 'the upstreams to stop');
    await expect(fetch(url)).rejects.toThrow();
    expect(cli.stdout()).toBe('');
    expect(cli.stderr()).not.toContain(TOKEN);
  }, 60_000);

  it('refuses to serve HTTP without a token, naming the variable but never a value', async () => {
    const run = await runBuilt(['serve', '--config', fleet.config, '--port', '0'], { env: plainEnv() });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('GATEWAY_TOKEN');
  });

  it('refuses to start, exit 2, when an entry of the configuration is malformed', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'serve-config-'));
    const config = path.join(dir, 'bad.json');
    writeFileSync(
      config,
      JSON.stringify({ mcpServers: { e: { command: 'node', args: ['x.js'], maxConcurrentCalls: -1 } } }),
    );
    try {
      const run = await runBuilt(['serve', '--stdio', '--config', config], { env: plainEnv() });
      expect(run).toMatchObject({
        code: 2,
        stdout: '',
        stderr: `error: config ${config}: server "e": "maxConcurrentCalls" must be a whole number of at least 1\n`,
      });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('exits 3 when the port is taken', async () => {
    const taken = createServer();
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
    const { port } = taken.address() as AddressInfo;
    try {
      const run = await runBuilt(['serve', '--config', fleet.config, '--port', String(port)], {
        env: plainEnv({ GATEWAY_TOKEN: TOKEN }),
      });
      expect(run.code).toBe(3);
      expect(run.stderr).toContain(`error: serve: cannot listen on 127.0.0.1:${port}: EADDRINUSE\n`);
    } finally {
      await new Promise((resolve) => taken.close(resolve));
    }
  }, 60_000);
});

describe.each(['auto', 'legacy'] as const)('agentwire serve --stdio, SDK client in %s mode', (mode) => {
  it('serves the fleet, relays an elicitation, cancels a call, and stops at the end of stdin', async () => {
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [MAIN, 'serve', '--stdio', '--config', fleet.config],
      env: plainEnv() as Record<string, string>,
      stderr: 'pipe',
    });
    const client = new Client(
      { name: 'gateway-stdio-test', version: '1.0.0' },
      { capabilities: { elicitation: { form: {} } }, versionNegotiation: { mode } },
    );
    client.setRequestHandler('elicitation/create', async () => ({
      action: 'accept',
      content: { confirm: true },
    }));
    await client.connect(transport);
    const pid = transport.pid as number;
    try {
      expect(client.getNegotiatedProtocolVersion()).toBe(mode === 'auto' ? '2026-07-28' : '2025-11-25');
      expect((await client.listTools()).tools.map((tool) => tool.name)).toEqual(GATEWAY_TOOLS);
      expect(await client.callTool({ name: 'modern__confirm', arguments: { action: 'ship' } })).toMatchObject(
        {
          content: [{ type: 'text', text: 'confirmed ship' }],
        },
      );
      const before = fleet.modern.requests.length;
      const controller = new AbortController();
      const slow = client.callTool(
        { name: 'modern__slow', arguments: { ms: 30_000 } },
        { signal: controller.signal },
      );
      await waitUntil(() => fleet.modern.requests.slice(before).some((one) => one.body.includes('"slow"')));
      controller.abort();
      await expect(slow).rejects.toThrow();
      await waitUntil(
        () => fleet.modern.requests.slice(before).some((one) => one.body.includes('"slow"') && one.aborted),
        10_000,
        'the upstream request to be abandoned',
      );
    } finally {
      const upstreams = childrenOf(pid);
      await client.close();
      await waitUntil(() => !alive(pid), 10_000, 'the gateway to exit');
      await waitUntil(() => upstreams.every((one) => !alive(one)), 10_000, 'the upstreams to stop');
    }
  }, 60_000);
});
