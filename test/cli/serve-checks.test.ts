/**
 * `agentwire serve` refusing what it cannot serve before it starts anything: a misspelt `gateway` setting
 * (exit 2, naming the key and the file), and an address it cannot bind (exit 3, naming the address, before
 * any upstream is started). Uses the built CLI (dist/).
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sdkHttpClient } from '../gateway/fleet.js';
import { EVERYTHING, SCRIPTED, waitUntil } from '../helpers.js';
import { ensureBuilt, MAIN, plainEnv, runBuilt, startCli } from './built-cli.js';

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

/** An SDK client connected to `agentwire serve --stdio --config <config>`, and what serve wrote to stderr so far. */
async function connectToServe(config: string): Promise<{ client: Client; stderr: () => string }> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [MAIN, 'serve', '--stdio', '--config', config],
    env: plainEnv() as Record<string, string>,
    stderr: 'pipe',
  });
  let stderr = '';
  transport.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const client = new Client({ name: 'serve-checks', version: '1.0.0' });
  await client.connect(transport);
  return { client, stderr: () => stderr };
}

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
      stderr: `error: config ${config}: "gateway.maxSubscription" is not a gateway setting (known: bearerTokenEnv, separator, maxSubscriptions, maxRequestBodyBytes, allowedHosts, redisUrl, redisChannelPrefix, jwt, policy, rateLimits, audit, sessionSecretEnv)\n`,
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

describe('agentwire serve, an entry that cannot be used', () => {
  it('serves the good entry, warns of the other at start, and does not stop', async () => {
    const config = path.join(dir, 'mixed.json');
    writeFileSync(
      config,
      JSON.stringify({
        mcpServers: {
          s: { command: process.execPath, args: [SCRIPTED] },
          remote: {
            url: 'https://mcp.example.com/mcp',
            // biome-ignore lint/suspicious/noTemplateCurlyInString: a configuration-file ${…} reference.
            headers: { Authorization: 'Bearer ${AGENTWIRE_SERVE_CHECKS_UNSET}' },
          },
        },
      }),
    );
    const { client, stderr } = await connectToServe(config);
    try {
      const { tools } = await client.listTools();
      expect(tools.some((tool) => tool.name.startsWith('s__'))).toBe(true);
      expect(stderr()).toContain(
        `warning: config ${config}: server "remote": "headers.Authorization" uses \${AGENTWIRE_SERVE_CHECKS_UNSET}, which is not set in the environment\n`,
      );
    } finally {
      await client.close();
    }
  }, 30_000);
});

describe('agentwire serve, an upstream that dies', () => {
  it("writes the upstream's stderr to its own stderr; the client's error names only the exit code", async () => {
    const STDERR = 'Error: cannot open /srv/private/billing.sqlite';
    const config = path.join(dir, 'dying.json');
    const script = `process.stderr.write(${JSON.stringify(`${STDERR}\n`)}); import(process.argv[1]);`;
    writeFileSync(
      config,
      JSON.stringify({ mcpServers: { s: { command: process.execPath, args: ['-e', script, SCRIPTED] } } }),
    );
    const { client, stderr } = await connectToServe(config);
    try {
      await expect(client.callTool({ name: 's__exit', arguments: { code: 7 } })).rejects.toMatchObject({
        code: -32603,
        message: 'MCP server "s": tools/call "exit" failed: the server exited with code 7',
        data: { server: 's', kind: 'connection_closed', exitCode: 7 },
      });
      await waitUntil(() => stderr().includes('lost s: '), 10_000, 'the line on stderr');
      expect(stderr()).toContain(
        `lost s: MCP server "s": connection failed: server "s" exited with code 7; last stderr: ${STDERR}\n`,
      );
    } finally {
      await client.close();
    }
  }, 30_000);
});

/** The live (not zombie) processes whose parent is `pid` (Linux /proc). */
function childrenOf(pid: number): number[] {
  const found: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const fields = readFileSync(`/proc/${entry}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
      if (Number(fields[1]) === pid && fields[0] !== 'Z') found.push(Number(entry));
    } catch {
      // exited while we looked
    }
  }
  return found;
}

const alive = (pid: number) => {
  try {
    return readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.[0] !== 'Z';
  } catch {
    return false;
  }
};

describe('agentwire serve, SIGINT with a call in flight', () => {
  const TOKEN = 'serve-checks-token-0123456789';
  const serve = (extra: string[]) => {
    const config = path.join(dir, 'everything.json');
    writeFileSync(
      config,
      JSON.stringify({ mcpServers: { everything: { command: process.execPath, args: [EVERYTHING] } } }),
    );
    const cli = startCli(
      ['serve', '--config', config, '--port', '0', '--token-env', 'GATEWAY_TOKEN', ...extra],
      {
        env: plainEnv({ GATEWAY_TOKEN: TOKEN }),
      },
    );
    const url = cli.onStderr('serving on ', () => /serving on (\S+)/.exec(cli.stderr())?.[1] as string);
    return { cli, url };
  };
  const longCall = async (url: string, seconds: number) => {
    const client = await sdkHttpClient(url, 'auto', TOKEN);
    const call = client.callTool({
      name: 'everything__trigger-long-running-operation',
      arguments: { duration: seconds, steps: 1 },
    });
    call.catch(() => {});
    // Time for the request to reach the gateway and its upstream.
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    return { client, call };
  };

  it('lets the call finish within the grace period, then exits 0 with nothing left running', async () => {
    const { cli, url } = serve([]);
    const { client, call } = await longCall(await url, 2);
    const upstreams = childrenOf(cli.child.pid as number);
    expect(upstreams.length).toBe(1);
    cli.child.kill('SIGINT');
    expect(await call).toMatchObject({
      content: [{ type: 'text', text: expect.stringContaining('Long running operation completed') }],
    });
    expect(await cli.exited).toBe(0);
    await waitUntil(() => !upstreams.some(alive), 10_000, 'the upstream to stop');
    await client.close();
  }, 30_000);

  it('answers a call still running after the grace period with a JSON-RPC error naming the shutdown', async () => {
    const { cli, url } = serve(['--shutdown-grace', '200']);
    const { client, call } = await longCall(await url, 20);
    cli.child.kill('SIGINT');
    await expect(call).rejects.toMatchObject({
      code: -32603,
      message: 'The gateway shut down before the request finished (it had 200 ms to)',
      data: { kind: 'shutdown', shutdownGraceMs: 200 },
    });
    expect(await cli.exited).toBe(0);
    await client.close();
  }, 30_000);
});
