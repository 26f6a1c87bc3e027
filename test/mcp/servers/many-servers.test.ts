/**
 * Many servers connected under one signal (`MCPServers.connectAll({ signal })`, as every CLI command that
 * talks to servers does): the signal gets one `abort` listener from the connect attempts however many
 * servers there are, so Node prints no `MaxListenersExceededWarning` (its limit is 10 per event target),
 * and an abort still reaches every attempt.
 */
import { getEventListeners } from 'node:events';
import { afterEach, describe, expect, it } from 'vitest';
import { MCPClient } from '../../../src/mcp/client/client.js';
import { MCPServers } from '../../../src/mcp/servers/servers.js';
import { listenOnLoopback } from '../../fixtures/loopback.js';
import { waitUntil } from '../../helpers.js';

const SERVERS = 12;
const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

describe('twelve servers connected under one signal', () => {
  it('add one abort listener to it, print no warning, and all stop when it fires', async () => {
    // Every request is held unanswered: each connect attempt waits until the signal fires.
    let held = 0;
    const server = await listenOnLoopback((req) => {
      req.resume();
      held += 1;
    });
    cleanups.push(() => server.close());
    const warnings: Error[] = [];
    const onWarning = (warning: Error) => warnings.push(warning);
    process.on('warning', onWarning);
    cleanups.push(async () => {
      process.off('warning', onWarning);
    });
    const servers = new MCPServers();
    for (let n = 1; n <= SERVERS; n += 1) {
      servers.add(MCPClient.fromUrl(`${server.origin}/mcp`, { name: `s${n}`, transport: 'streamable-http' }));
    }
    cleanups.unshift(() => servers.disconnectAll());
    const controller = new AbortController();
    const connecting = servers.connectAll({ signal: controller.signal });
    await waitUntil(() => held === SERVERS, 10_000, 'a request from every server');
    expect(getEventListeners(controller.signal, 'abort')).toHaveLength(1);

    controller.abort(new Error('stop'));
    const results = await connecting;
    expect(results.map((result) => (result.ok ? 'connected' : result.error.kind))).toEqual(
      Array.from({ length: SERVERS }, () => 'aborted'),
    );
    // Node emits the warning on the next tick after the listener that passes the limit is added.
    await new Promise((resolve) => setImmediate(resolve));
    expect(warnings.map((warning) => warning.name)).toEqual([]);
  });
});
