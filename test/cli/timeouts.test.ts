/**
 * Time that means what it says, through the built executable: `--connect-timeout` and `--timeout` apart,
 * a timeout or Ctrl-C reported the moment it happens (while a server that ignores SIGTERM is still being
 * stopped), no teardown warnings after a cancelled HTTP call, and a stdio server that never answers
 * explained by its stderr.
 */
import { randomUUID } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { type EverythingServer, startEverything } from '../fixtures/http-everything.js';
import { processesMatching } from '../fixtures/processes.js';
import { ROOT, readLog, tempDir, waitUntil } from '../helpers.js';
import { ensureBuilt, runBuilt, startCli } from './built-cli.js';
import { type RecordingProxy, startRecordingProxy } from './recording-proxy.js';

const WRAPPER = path.join(ROOT, 'test', 'fixtures', 'stdio-wrapper.sh');
const SCRIPTED = path.join(ROOT, 'test', 'fixtures', 'scripted-server.mjs');

beforeAll(ensureBuilt, 120_000);

/** How many processes other than `except` have `marker` in their command line. */
function running(marker: string, except: number | undefined): number {
  return processesMatching(marker).filter(({ pid }) => pid !== except).length;
}

/** A scripted server behind a wrapper that ignores SIGTERM: stopping it takes the whole kill sequence. */
function stubbornServer(marker: string): string {
  return `sh ${WRAPPER} ${process.execPath} ${SCRIPTED} ${marker}`;
}

describe('timeouts and interrupts are reported at once', () => {
  it('prints a --timeout of a call while the server is still being stopped', async () => {
    const marker = `marker=${randomUUID()}`;
    const cli = startCli([
      'call',
      '--stdio',
      stubbornServer(marker),
      '--timeout',
      '1500',
      'sleep',
      '{"ms":60000}',
    ]);
    const line = 'error: MCP server "stdio-wrapper.sh": tools/call "sleep" failed: timed out after 1500 ms\n';
    // The wrapper ignores SIGTERM: it is still there when the line is printed, and gone after the exit.
    expect(await cli.onStderr(line, () => running(marker, cli.child.pid))).toBeGreaterThan(0);
    expect(await cli.exited).toBe(3);
    expect(cli.stderr()).toBe(line);
    expect(running(marker, cli.child.pid)).toBe(0);
  }, 30_000);

  it('prints a Ctrl-C while the server is still being stopped', async () => {
    const marker = `marker=${randomUUID()}`;
    const dir = tempDir();
    onTestFinished(dir.remove);
    const log = path.join(dir.dir, 'scripted.log');
    const cli = startCli([
      'call',
      '--stdio',
      stubbornServer(marker),
      '--env',
      `FIXTURE_LOG=${log}`,
      'sleep',
      '{"ms":60000}',
    ]);
    // Interrupted once the server has the call (its log says so): the CLI is then past connecting.
    await waitUntil(
      () => readLog(log).some((message) => message.method === 'tools/call'),
      20_000,
      'the server to receive the tools/call',
    );
    cli.child.kill('SIGINT');
    const line =
      'error: MCP server "stdio-wrapper.sh": tools/call "sleep" failed: aborted (interrupted by SIGINT)\n';
    expect(await cli.onStderr(line, () => running(marker, cli.child.pid))).toBeGreaterThan(0);
    expect(await cli.exited).toBe(130);
    expect(cli.stderr()).toBe(line);
  }, 30_000);

  it('prints a --connect-timeout the moment it expires, while the server that never answered is still being stopped', async () => {
    const marker = `marker=${randomUUID()}`;
    const dir = tempDir();
    try {
      const script = path.join(dir.dir, 'mute.mjs');
      writeFileSync(script, 'process.stdin.resume();\n');
      const cli = startCli([
        'tools',
        '--stdio',
        `sh ${WRAPPER} ${process.execPath} ${script} ${marker}`,
        '--connect-timeout',
        '1000',
      ]);
      const line = 'error: MCP server "stdio-wrapper.sh": initialize failed: timed out after 1000 ms\n';
      // The wrapper ignores SIGTERM: stopping it takes the whole kill sequence, after the line.
      expect(await cli.onStderr(line, () => running(marker, cli.child.pid))).toBeGreaterThan(0);
      expect(await cli.exited).toBe(3);
      // Printed before the server was stopped: no "Terminated" from the wrapper in a stderr tail.
      expect(cli.stderr()).toBe(line);
      expect(running(marker, cli.child.pid)).toBe(0);
    } finally {
      dir.remove();
    }
  }, 30_000);

  it('prints a Ctrl-C while connecting at once, while the server is still being stopped', async () => {
    const marker = `marker=${randomUUID()}`;
    const dir = tempDir();
    try {
      const script = path.join(dir.dir, 'mute.mjs');
      writeFileSync(script, 'process.stdin.resume();\n');
      const cli = startCli(['tools', '--stdio', `sh ${WRAPPER} ${process.execPath} ${script} ${marker}`]);
      await waitUntil(() => running(marker, cli.child.pid) === 2, 10_000, 'the wrapper and its server');
      cli.child.kill('SIGINT');
      const line = 'error: interrupted while connecting\n';
      expect(await cli.onStderr(line, () => running(marker, cli.child.pid))).toBeGreaterThan(0);
      expect(await cli.exited).toBe(130);
      expect(cli.stderr()).toBe(line);
      expect(running(marker, cli.child.pid)).toBe(0);
    } finally {
      dir.remove();
    }
  }, 30_000);

  it('keeps --connect-timeout and --timeout apart', async () => {
    // Connecting is bounded by --connect-timeout, not by a short --timeout meant for the call.
    const fast = await runBuilt([
      'call',
      '--stdio',
      `${process.execPath} ${SCRIPTED}`,
      '--timeout',
      '300',
      'sleep',
      '{"ms":1}',
    ]);
    expect(fast).toEqual({ code: 0, stdout: 'slept 1\n', stderr: '' });
    const slow = await runBuilt([
      'call',
      '--stdio',
      `${process.execPath} ${SCRIPTED}`,
      '--connect-timeout',
      '30000',
      '--timeout',
      '300',
      'sleep',
      '{"ms":20000}',
    ]);
    expect(slow).toEqual({
      code: 3,
      stdout: '',
      stderr: 'error: MCP server "scripted-server": tools/call "sleep" failed: timed out after 300 ms\n',
    });
  }, 60_000);

  it('shows the stderr of a stdio server that never answers with the connect timeout', async () => {
    const dir = tempDir();
    try {
      const script = path.join(dir.dir, 'silent.mjs');
      writeFileSync(
        script,
        "process.stderr.write('starting\\nwaiting for a licence key on stdin\\n'); setInterval(() => {}, 1000);\n",
      );
      const cli = startCli([
        'tools',
        '--stdio',
        `${process.execPath} ${script}`,
        '--connect-timeout',
        '2000',
      ]);
      expect(await cli.exited).toBe(3);
      expect(cli.stderr()).toBe(
        'error: MCP server "silent": initialize failed: timed out after 2000 ms\n' +
          'server stderr (last lines):\n  starting\n  waiting for a licence key on stdin\n',
      );
    } finally {
      dir.remove();
    }
  }, 30_000);
});

describe('a cancelled HTTP call', () => {
  let server: EverythingServer;
  let proxy: RecordingProxy;
  beforeAll(async () => {
    server = await startEverything('streamableHttp');
    proxy = await startRecordingProxy(server.url);
  });
  afterAll(async () => {
    await proxy?.close();
    await server?.stop();
  });

  it('ends with the interrupt alone: no warning about the cancellation', async () => {
    const cli = startCli([
      'call',
      '--url',
      proxy.url,
      'trigger-long-running-operation',
      '{"duration":30,"steps":30}',
    ]);
    // The call is under way once the tools/call has been forwarded to the server.
    await waitUntil(() => proxy.methods.includes('tools/call'), 20_000, 'the tools/call to reach the server');
    cli.child.kill('SIGINT');
    expect(await cli.exited).toBe(130);
    expect(cli.stderr()).toBe(
      'error: MCP server "127.0.0.1:' +
        new URL(proxy.url).port +
        '": tools/call "trigger-long-running-operation" failed: aborted (interrupted by SIGINT)\n',
    );
  }, 30_000);
});
