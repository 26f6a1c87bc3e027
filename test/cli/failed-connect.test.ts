/**
 * A stdio server that fails the handshake ends the command without waiting out the shutdown's grace period
 * when the server has already exited (MCP spec 2025-11-25, "Lifecycle > Shutdown": the grace is how long a
 * running server gets to exit after stdin is closed, and a server that exited has nothing left to wait for).
 * One that is still running gets the spec's order: stdin closed, the grace waited, then SIGTERM.
 *
 * Each grace-length timer that fires is counted (the real timer still runs): none fires for a server that
 * has exited, one does for a server that ignores the end of its stdin.
 */
import { quote } from 'shell-quote';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { DEFAULT_CLOSE_GRACE_MS } from '../../src/mcp/transports/stdio/options.js';
import { cli, processesWith } from './run-cli.js';

afterEach(() => {
  vi.restoreAllMocks();
});

/** Counts the timers of the grace's length that fire from now on (until the mocks are restored). */
function countGraceTimers(): () => number {
  let fired = 0;
  const real = globalThis.setTimeout;
  vi.spyOn(globalThis, 'setTimeout').mockImplementation(((
    callback: (...args: unknown[]) => void,
    ms?: number,
    ...args: unknown[]
  ) => {
    if (ms !== DEFAULT_CLOSE_GRACE_MS) return real(callback, ms, ...args);
    return real(() => {
      fired += 1;
      callback(...args);
    }, ms);
  }) as typeof setTimeout);
  return () => fired;
}

const node = (script: string) => quote([process.execPath, '-e', script]);

describe('a stdio server that fails the handshake', () => {
  it('that has exited: the error names its exit code, and no grace period is waited', async () => {
    const graceTimers = countGraceTimers();
    const run = await cli(['tools', '--stdio', node('process.exit(3)')]);
    expect(run).toEqual({
      code: 3,
      stdout: '',
      stderr: 'error: MCP server "node": initialize failed: server "node" exited with code 3\n',
    });
    expect(graceTimers()).toBe(0);
  }, 30_000);

  it('that writes a line that is not JSON-RPC and exits: no grace period is waited', async () => {
    const graceTimers = countGraceTimers();
    const run = await cli(['tools', '--stdio', node('console.log("hello"); process.exit(0)')]);
    expect(run).toEqual({
      code: 3,
      stdout: '',
      stderr:
        'warning: server "node" wrote a stdout line that is not JSON, skipped: hello\n' +
        'error: MCP server "node": initialize failed: server "node" exited with code 0\n',
    });
    expect(graceTimers()).toBe(0);
  }, 30_000);

  it('that is still running and ignores the end of its stdin: the grace is waited, then it is ended', async () => {
    const marker = `agentwire-failed-connect-${process.pid}`;
    const graceTimers = countGraceTimers();
    const run = await cli([
      'tools',
      '--stdio',
      node(
        `/* ${marker} */ process.stdin.resume(); process.stdin.on('end', () => {}); setInterval(() => {}, 1000)`,
      ),
      '--connect-timeout',
      '300',
    ]);
    expect(run).toEqual({
      code: 3,
      stdout: '',
      stderr: 'error: MCP server "node": initialize failed: timed out after 300 ms\n',
    });
    // stdin closed, one grace waited, then SIGTERM ended it (a second grace would precede SIGKILL).
    expect(graceTimers()).toBe(1);
    expect(processesWith(marker)).toEqual([]);
  }, 30_000);
});
