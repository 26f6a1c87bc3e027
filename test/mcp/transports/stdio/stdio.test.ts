import { chmodSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { MCPCallError } from '../../../../src/mcp/protocol/errors.js';
import {
  type NonJsonLineInfo,
  StdioTransport,
} from '../../../../src/mcp/transports/stdio/stdio-transport.js';
import type { TransportCloseInfo } from '../../../../src/mcp/transports/transport.js';
import { callText, closeAll, connect, EVERYTHING, fixture, isRunning, waitFor } from './helpers.js';

const SECRET = 'sk-agentwire-test-secret-0123456789';
let dir: string;

beforeAll(() => {
  dir = realpathSync(mkdtempSync(path.join(tmpdir(), 'agentwire-stdio-')));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));
afterEach(async () => {
  delete process.env.AGENTWIRE_STDIO_PARENT_ONLY;
  vi.restoreAllMocks();
  await closeAll();
});

/** What `start()` rejected with (fails the test when it resolved). */
async function startError(transport: StdioTransport): Promise<MCPCallError> {
  const error = await transport.start().then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!(error instanceof MCPCallError)) throw new Error(`expected an MCPCallError, got ${String(error)}`);
  return error;
}

describe('StdioTransport environment', () => {
  it('passes the safe default environment plus the caller env, and the caller wins', async () => {
    process.env.AGENTWIRE_STDIO_PARENT_ONLY = 'from-parent';
    const transport = fixture([], { env: { API_TOKEN: SECRET, HOME: '/custom-home' } });
    const client = await connect(transport);
    const names = ['API_TOKEN', 'HOME', 'PATH', 'AGENTWIRE_STDIO_PARENT_ONLY'];
    expect(JSON.parse(await callText(client, 'env', { names }))).toEqual({
      API_TOKEN: SECRET,
      HOME: '/custom-home',
      PATH: process.env.PATH,
      AGENTWIRE_STDIO_PARENT_ONLY: null,
    });
  });

  it('passes the whole host environment with inheritEnv, still under the caller env', async () => {
    process.env.AGENTWIRE_STDIO_PARENT_ONLY = 'from-parent';
    const transport = fixture([], { inheritEnv: true, env: { API_TOKEN: SECRET } });
    const client = await connect(transport);
    const names = ['API_TOKEN', 'AGENTWIRE_STDIO_PARENT_ONLY'];
    expect(JSON.parse(await callText(client, 'env', { names }))).toEqual({
      API_TOKEN: SECRET,
      AGENTWIRE_STDIO_PARENT_ONLY: 'from-parent',
    });
  });

  it('runs the server in the given working directory', async () => {
    const client = await connect(fixture([], { cwd: dir }));
    expect(await callText(client, 'cwd')).toBe(dir);
  });
});

describe('StdioTransport spawn failures', () => {
  it('fails start() quickly with kind spawn when the command is not on PATH, leaking no env value', async () => {
    const transport = new StdioTransport({
      command: 'agentwire-no-such-command',
      env: { API_TOKEN: SECRET },
    });
    const started = Date.now();
    const error = await startError(transport);
    expect(Date.now() - started).toBeLessThan(2000);
    expect(error.kind).toBe('spawn');
    expect(error.message).toBe(
      'cannot start server "agentwire-no-such-command": command "agentwire-no-such-command" was not found on PATH',
    );
    expect(transport.closeInfo?.kind).toBe('spawn');
    expect(transport.closeInfo?.message).toBe(error.message);
    expect(
      JSON.stringify({ ...error.details(), message: error.message, cause: String(error.cause) }),
    ).not.toContain(SECRET);
    expect(JSON.stringify(error.details())).not.toContain(process.env.PATH ?? 'no-path');
  });

  it('names the resolved path when a relative command is not found in the working directory', async () => {
    const error = await startError(new StdioTransport({ command: './missing-server.sh', cwd: dir }));
    expect(error.kind).toBe('spawn');
    expect(error.message).toBe(
      `cannot start server "./missing-server.sh": command "./missing-server.sh" was not found ` +
        `(resolved against the working directory: "${dir}/missing-server.sh")`,
    );
  });

  it('says when the working directory does not exist', async () => {
    const cwd = path.join(dir, 'no-such-dir');
    const error = await startError(new StdioTransport({ command: process.execPath, cwd, serverName: 'fs' }));
    expect(error.kind).toBe('spawn');
    expect(error.message).toBe(`cannot start server "fs": working directory "${cwd}" does not exist`);
  });

  it('says when the command is not executable', async () => {
    const script = path.join(dir, 'not-executable.sh');
    writeFileSync(script, '#!/bin/sh\necho hi\n');
    chmodSync(script, 0o644);
    const error = await startError(new StdioTransport({ command: script, serverName: 'noexec' }));
    expect(error.kind).toBe('spawn');
    expect(error.message).toBe(
      `cannot start server "noexec": command "${script}" is not executable (permission denied)`,
    );
  });
});

describe('StdioTransport stderr', () => {
  it('keeps only the last stderrTailLines lines of stderr', async () => {
    const lines = ['one', 'two', 'three', 'four', 'five'].flatMap((line) => ['--stderr', line]);
    const transport = fixture(lines, { stderrTailLines: 3 });
    await connect(transport);
    await waitFor(() => transport.stderrTail.at(-1) === 'five', 'the last stderr line');
    expect(transport.stderrTail).toEqual(['three', 'four', 'five']);
  });

  it('forwards each stderr line to a callback', async () => {
    const seen: string[] = [];
    const transport = fixture(['--stderr', 'alpha', '--stderr', 'beta'], {
      stderr: (line) => seen.push(line),
    });
    await connect(transport);
    await waitFor(() => seen.length === 2, 'two stderr lines');
    expect(seen).toEqual(['alpha', 'beta']);
  });

  it("forwards stderr to the host's stderr with 'inherit'", async () => {
    const written: string[] = [];
    vi.spyOn(process.stderr, 'write').mockImplementation((chunk: string | Uint8Array) => {
      written.push(Buffer.from(chunk).toString('utf8'));
      return true;
    });
    const transport = fixture(['--stderr', 'inherited line'], { stderr: 'inherit' });
    await connect(transport);
    await waitFor(() => transport.stderrTail.length === 1, 'the stderr line');
    expect(written.join('')).toBe('inherited line\n');
    expect(transport.stderrTail).toEqual(['inherited line']);
  });
});

describe('StdioTransport stdout that is not JSON-RPC', () => {
  it('skips a banner and log lines, reports the first five, and keeps working', async () => {
    const reports: [string, NonJsonLineInfo][] = [];
    const transport = fixture(['--banner', 'Server v1 starting', '--noise'], {
      onNonJsonLine: (line, info) => reports.push([line, info]),
    });
    const client = await connect(transport);
    for (let i = 0; i < 8; i++)
      expect(await callText(client, 'echo', { text: `call ${i}` })).toBe(`echo: call ${i}`);
    const log = 'log: handling a request';
    const first = { reason: 'not_json', suppressed: 0 };
    expect(reports).toEqual([
      ['Server v1 starting', first],
      [log, first],
      [log, first],
      [log, first],
      [log, first],
    ]);
  });

  it('reports a JSON line that is not a JSON-RPC message to onerror when onNonJsonLine is unset', async () => {
    const errors: Error[] = [];
    const transport = fixture(['--json-noise']);
    transport.onerror = (error) => errors.push(error);
    const client = await connect(transport);
    expect(await callText(client, 'echo', { text: 'still fine' })).toBe('echo: still fine');
    expect(errors[0]).toBeInstanceOf(MCPCallError);
    expect((errors[0] as MCPCallError).kind).toBe('protocol');
    expect(errors[0]?.message).toBe(
      'server "fixture" wrote a stdout line that is JSON but not a JSON-RPC message, skipped: ' +
        '{"level":"info","msg":"handling a request"}',
    );
  });

  it('does not throw when no handler at all is set', async () => {
    const transport = fixture(['--banner', 'hello', '--stderr', 'warming up']);
    await transport.start();
    await waitFor(() => transport.stderrTail.length === 1, 'the stderr line');
    await transport.close();
    expect(transport.closeInfo?.kind).toBe('not_connected');
  });
});

describe('StdioTransport when the server exits', () => {
  it('records exit code and stderr tail in closeInfo before calling onclose', async () => {
    const transport = fixture();
    let infoAtClose: TransportCloseInfo | undefined;
    transport.onclose = () => {
      infoAtClose = transport.closeInfo;
    };
    const client = await connect(transport);
    await expect(
      client.callTool({ name: 'crash', arguments: { code: 3, stderr: ['fatal: out of cheese'] } }),
    ).rejects.toThrow();
    expect(infoAtClose).toEqual({
      kind: 'connection_closed',
      message: 'server "fixture" exited with code 3; last stderr: fatal: out of cheese',
      server: 'fixture',
      exitCode: 3,
      signal: null,
      stderrTail: ['fatal: out of cheese'],
    });
  });

  it('fails the handshake instead of hanging when the server exits at once, then refuses sends', async () => {
    const transport = fixture(['--stderr', 'config file missing', '--exit', '2']);
    const started = Date.now();
    await expect(connect(transport)).rejects.toThrow();
    expect(Date.now() - started).toBeLessThan(5000);
    expect(transport.closeInfo).toMatchObject({
      kind: 'connection_closed',
      message: 'server "fixture" exited with code 2; last stderr: config file missing',
      exitCode: 2,
      stderrTail: ['config file missing'],
    });
    const error = await transport.send({ jsonrpc: '2.0', id: 1, method: 'ping' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(MCPCallError);
    expect(error).toMatchObject({
      kind: 'connection_closed',
      exitCode: 2,
      stderrTail: ['config file missing'],
    });
  });

  it('reports the signal that killed the server', async () => {
    const transport = fixture();
    await connect(transport);
    process.kill(transport.pid!, 'SIGKILL');
    await waitFor(() => transport.closeInfo !== undefined, 'closeInfo');
    expect(transport.closeInfo).toMatchObject({
      kind: 'connection_closed',
      message: 'server "fixture" was killed by signal SIGKILL',
      exitCode: null,
      signal: 'SIGKILL',
    });
  });

  it('closes with kind protocol when a message exceeds maxMessageBytes', async () => {
    const transport = fixture([], { maxMessageBytes: 1000 });
    const client = await connect(transport);
    await expect(client.callTool({ name: 'big', arguments: { chars: 5000 } })).rejects.toThrow();
    expect(transport.closeInfo?.kind).toBe('protocol');
    expect(transport.closeInfo?.message).toBe(
      'server "fixture" sent a message over maxMessageBytes (1000 bytes)',
    );
    await waitFor(() => !isRunning(transport.pid!), 'the server to be ended');
  });
});

describe('StdioTransport send and close', () => {
  it('refuses to send before start() with kind not_connected', async () => {
    const error = await fixture()
      .send({ jsonrpc: '2.0', id: 1, method: 'ping' })
      .catch((e: unknown) => e);
    expect(error).toMatchObject({
      kind: 'not_connected',
      message: 'server "fixture" is not connected: the transport was not started',
    });
  });

  it('closes idempotently, calls onclose once, and then refuses to send with kind not_connected', async () => {
    // close() right after start(): the fixture may still be booting (node startup, slow under load) when its
    // stdin ends, and a 200 ms grace would SIGTERM it before it reads the EOF (exitCode null). The grace is
    // a bound, not a wait: close() resolves as soon as the server exits on the EOF, with code 0.
    const transport = fixture([], { closeGraceMs: 10_000 });
    let closes = 0;
    transport.onclose = () => closes++;
    await transport.start();
    const pid = transport.pid!;
    await Promise.all([transport.close(), transport.close()]);
    await transport.close();
    expect(closes).toBe(1);
    expect(isRunning(pid)).toBe(false);
    expect(transport.closeInfo).toMatchObject({
      kind: 'not_connected',
      message: 'server "fixture" is not connected: the transport was closed',
      exitCode: 0,
      signal: null,
    });
    const error = await transport.send({ jsonrpc: '2.0', id: 1, method: 'ping' }).catch((e: unknown) => e);
    expect(error).toMatchObject({ kind: 'not_connected' });
  });

  it('escalates to SIGTERM and then SIGKILL for a server that ignores stdin EOF and SIGTERM', async () => {
    const transport = fixture(['--ignore-stdin-end', '--ignore-sigterm'], { closeGraceMs: 150 });
    await connect(transport);
    const pid = transport.pid!;
    const started = Date.now();
    await transport.close();
    const took = Date.now() - started;
    expect(took).toBeGreaterThanOrEqual(290);
    expect(took).toBeLessThan(3000);
    expect(isRunning(pid)).toBe(false);
    expect(transport.closeInfo).toMatchObject({ kind: 'not_connected', signal: 'SIGKILL', exitCode: null });
  });

  it('refuses a second start()', async () => {
    const transport = fixture();
    await transport.start();
    await expect(transport.start()).rejects.toMatchObject({
      kind: 'transport',
      message: 'the transport of server "fixture" was already started',
    });
  });

  it('drives the real server-everything: handshake, tools/list, tools/call, close', async () => {
    const transport = new StdioTransport({
      command: process.execPath,
      args: [EVERYTHING],
      serverName: 'everything',
    });
    const client = await connect(transport);
    const pid = transport.pid!;
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name)).toContain('echo');
    expect(await callText(client, 'echo', { message: 'hi' })).toBe('Echo: hi');
    await client.close();
    expect(isRunning(pid)).toBe(false);
    expect(transport.closeInfo?.kind).toBe('not_connected');
  });
});
