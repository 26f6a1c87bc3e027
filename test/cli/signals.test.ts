/**
 * The built `agentwire` executable, stopped by signals the way a terminal, `timeout` or a supervisor stops
 * it: no server process may outlive it (issue 7, item 8).
 */
import { execFileSync, spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { ROOT, waitUntil } from '../helpers.js';

const MAIN = path.join(ROOT, 'dist', 'cli', 'main.js');
const WRAPPER = path.join(ROOT, 'test', 'fixtures', 'stdio-wrapper.sh');
const SERVER = path.join(ROOT, 'test', 'fixtures', 'scripted-server.mjs');

beforeAll(() => {
  // `npm test` builds before the suite; a bare `vitest run` may not have.
  if (!existsSync(MAIN)) execFileSync('npx', ['tsc', '-p', 'tsconfig.build.json'], { cwd: ROOT });
}, 120_000);

/** Processes whose command line holds `marker`, other than `except` (the CLI, whose --stdio names it too). */
function count(marker: string, except: number | undefined): number {
  try {
    const pids = execFileSync('pgrep', ['-f', marker], { encoding: 'utf8' }).split('\n').filter(Boolean);
    return pids.filter((pid) => Number(pid) !== except).length;
  } catch {
    return 0;
  }
}

/** Starts `agentwire call … sleep` through a wrapper that ignores SIGTERM; resolves once the call is running. */
async function startLongCall(marker: string) {
  const stdio = `sh ${WRAPPER} ${process.execPath} ${SERVER} ${marker}`;
  const cli = spawn(process.execPath, [MAIN, 'call', '--stdio', stdio, 'sleep', '{"ms":30000}'], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  cli.stderr.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const exited = new Promise<number | null>((resolve) => cli.on('exit', (code) => resolve(code)));
  const servers = () => count(marker, cli.pid);
  try {
    await waitUntil(() => servers() === 2, 10_000, 'the wrapper and its server');
  } catch (error) {
    cli.kill('SIGKILL');
    execFileSync('pkill', ['-KILL', '-f', marker]);
    throw error;
  }
  await new Promise((resolve) => setTimeout(resolve, 300));
  return { cli, exited, stderr: () => stderr, servers };
}

describe('agentwire stopped by a signal', () => {
  it.each(['SIGTERM', 'SIGHUP', 'SIGINT'] as const)('stops the server tree on %s', async (signal) => {
    const marker = `marker=${randomUUID()}`;
    const { cli, exited, stderr, servers } = await startLongCall(marker);
    cli.kill(signal);
    expect(await exited).toBe(130);
    expect(stderr()).toContain(`aborted (interrupted (${signal}))`);
    await waitUntil(() => servers() === 0, 10_000, 'no server process left');
  });

  it('exits at once on a second signal, and the exit hook kills the server tree', async () => {
    const marker = `marker=${randomUUID()}`;
    const { cli, exited, servers } = await startLongCall(marker);
    cli.kill('SIGINT');
    await new Promise((resolve) => setTimeout(resolve, 100));
    cli.kill('SIGINT');
    expect(await exited).toBe(130);
    await waitUntil(() => servers() === 0, 5_000, 'no server process left');
  });
});
