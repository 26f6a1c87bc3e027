/**
 * The built `agentwire` executable, stopped by signals the way a terminal, `timeout` or a supervisor stops
 * it: no server process may outlive it (issue 7, item 8).
 */
import { execFileSync, spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { killAllWith, processesMatching } from '../fixtures/processes.js';
import { ROOT, readLog, tempDir, waitUntil } from '../helpers.js';

const MAIN = path.join(ROOT, 'dist', 'cli', 'main.js');
const WRAPPER = path.join(ROOT, 'test', 'fixtures', 'stdio-wrapper.sh');
const SERVER = path.join(ROOT, 'test', 'fixtures', 'scripted-server.mjs');

beforeAll(() => {
  // `npm test` builds before the suite; a bare `vitest run` may not have.
  if (!existsSync(MAIN)) execFileSync('npx', ['tsc', '-p', 'tsconfig.build.json'], { cwd: ROOT });
}, 120_000);

/** Processes whose command line holds `marker`, other than `except` (the CLI, whose --stdio names it too). */
function count(marker: string, except: number | undefined): number {
  return processesMatching(marker).filter(({ pid }) => pid !== except).length;
}

/**
 * Starts `agentwire call … sleep` through a wrapper that ignores SIGTERM; resolves once the server has
 * received the `tools/call` (its FIXTURE_LOG says so), so that a signal then meets the call, not the
 * handshake, however slowly a loaded machine starts the processes.
 */
async function startLongCall(marker: string) {
  const logDir = tempDir();
  onTestFinished(logDir.remove);
  const log = path.join(logDir.dir, 'scripted.log');
  const stdio = `sh ${WRAPPER} ${process.execPath} ${SERVER} ${marker}`;
  const args = ['call', '--stdio', stdio, '--env', `FIXTURE_LOG=${log}`, 'sleep', '{"ms":30000}'];
  const cli = spawn(process.execPath, [MAIN, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  cli.stderr.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const exited = new Promise<number | null>((resolve) => cli.on('exit', (code) => resolve(code)));
  const servers = () => count(marker, cli.pid);
  try {
    await waitUntil(
      () => readLog(log).some((message) => message.method === 'tools/call'),
      20_000,
      'the server to receive the tools/call',
    );
  } catch (error) {
    cli.kill('SIGKILL');
    killAllWith(marker);
    throw error;
  }
  return { cli, exited, stderr: () => stderr, servers };
}

describe('agentwire stopped by a signal', () => {
  it.each(['SIGTERM', 'SIGHUP', 'SIGINT'] as const)('stops the server tree on %s', async (signal) => {
    const marker = `marker=${randomUUID()}`;
    const { cli, exited, stderr, servers } = await startLongCall(marker);
    cli.kill(signal);
    expect(await exited).toBe(130);
    expect(stderr()).toContain(`aborted (interrupted by ${signal})`);
    await waitUntil(() => servers() === 0, 10_000, 'no server process left');
  });

  it('exits at once on a second signal, and the exit hook kills the server tree', async () => {
    const marker = `marker=${randomUUID()}`;
    const { cli, exited, stderr, servers } = await startLongCall(marker);
    cli.kill('SIGINT');
    // The second signal is sent once the first has been handled (its line printed) and the server tree,
    // whose wrapper ignores SIGTERM, is still being stopped; two signals sent together could merge into one.
    await waitUntil(
      () => stderr().includes('aborted (interrupted by SIGINT)'),
      20_000,
      'the first interrupt',
    );
    cli.kill('SIGINT');
    expect(await exited).toBe(130);
    await waitUntil(() => servers() === 0, 5_000, 'no server process left');
  });
});
