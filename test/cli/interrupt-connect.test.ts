/**
 * `tools` and `call` interrupted before or while connecting: exit 130 with one line, and nothing left
 * running (the stdio server stopped, the HTTP request aborted) by the time the command returns.
 */
import { randomUUID } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { HttpFixture } from '../fixtures/http-server.js';
import { children, waitUntil } from '../helpers.js';
import { cli } from './run-cli.js';

/** A `--stdio` command line for a server that starts and never answers, tagged with `marker`. */
const silent = (marker: string) => `${process.execPath} -e "setInterval(() => {}, 60000)" ${marker}`;

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

describe('interrupted while connecting', () => {
  it('tools: stops the stdio server that never answers and exits 130', async () => {
    const marker = `agentwire-silent-${randomUUID()}`;
    const interrupt = new AbortController();
    const run = cli(['tools', '--stdio', silent(marker)], interrupt.signal);
    await waitUntil(() => children(marker).length === 1, 5000, 'the server to be spawned');
    interrupt.abort(new Error('interrupted by SIGINT'));
    expect(await run).toEqual({ code: 130, stdout: '', stderr: 'error: interrupted while connecting\n' });
    expect(children(marker)).toEqual([]);
  });

  it('call: aborts the initialize request of an HTTP server that never answers it, and exits 130', async () => {
    const fixture = await HttpFixture.start();
    cleanups.push(() => fixture.close());
    let released: Promise<void> | undefined;
    // The first request of a connect is 'auto''s server/discover probe (MCP spec 2026-07-28, "Server >
    // Discover"), then initialize: whichever comes is held.
    for (const method of ['server/discover', 'initialize'])
      fixture.onMethod(method, (_req, res) => {
        released = new Promise((resolve) => res.on('close', () => resolve()));
      });
    const interrupt = new AbortController();
    const run = cli(['call', '--url', fixture.url, 'echo'], interrupt.signal);
    await fixture.waitForRequest((request) => request.method === 'POST');
    interrupt.abort(new Error('interrupted by SIGINT'));
    expect(await run).toEqual({ code: 130, stdout: '', stderr: 'error: interrupted while connecting\n' });
    await expect(released).resolves.toBeUndefined();
  });
});

describe('interrupted before connecting', () => {
  it.each([
    ['tools', []],
    ['call', ['echo', '{}']],
  ])('%s: starts nothing and exits 130', async (command, rest) => {
    const marker = `agentwire-silent-${randomUUID()}`;
    const run = await cli(
      [command, ...rest, '--stdio', silent(marker)],
      AbortSignal.abort(new Error('interrupted by SIGINT')),
    );
    expect(run).toEqual({ code: 130, stdout: '', stderr: 'error: interrupted before connecting\n' });
    expect(children(marker)).toEqual([]);
  });
});
