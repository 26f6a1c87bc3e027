/**
 * agentwire's undici path leaves the process's `fetch` as it was: it never makes an `Agent` of the undici
 * package the global dispatcher (Node's `fetch` would then run on another undici than the one Node
 * bundles), and it sends through the dispatcher set with `setGlobalDispatcher`.
 * A file of its own, without a static import of undici: importing the package installs its own `Agent`
 * when no global dispatcher is set yet.
 *
 * What is there before anything runs depends on Node. Node 20: nothing, until the first `fetch` loads the
 * undici Node bundles (which installs its `Agent`). Node >= 22: Node's own `Agent` already (on Node 26
 * inside the `Dispatcher1Wrapper` its undici 8 offers undici 6 and 7), because `node:http` has a lazy
 * `WebSocket` export that loads the bundled undici, and importing `node:http` from ESM (this file does, and
 * so does Vitest) reads every export to build the module's namespace.
 */
import http from 'node:http';
import { afterEach, expect, it } from 'vitest';
import { closeAll, connect } from '../../../fixtures/http-client.js';

afterEach(closeAll);

const GLOBAL_DISPATCHER = Symbol.for('undici.globalDispatcher.1');
const dispatcher = () => (globalThis as Record<symbol, unknown>)[GLOBAL_DISPATCHER];

it("leaves Node's own Agent as the global dispatcher, the one fetch uses", async () => {
  const before = dispatcher();
  // `in` reads no getter: it does not load anything.
  expect(before === undefined).toBe(!('WebSocket' in http));
  const { client, fixture } = await connect();
  await client.callTool({ name: 'echo', arguments: {} });
  expect(fixture.requests.filter((r) => r.method === 'POST')).toHaveLength(3);
  const { Agent } = await import('undici');
  const after = dispatcher();
  expect(after).toBeDefined();
  expect(after instanceof Agent).toBe(false);
  // The one Node installed stays (Node >= 22); on Node 20 the first fetch installed Node's own.
  if (before !== undefined) expect(after).toBe(before);
  // fetch still works on it.
  expect((await fetch(fixture.url, { method: 'GET' })).status).toBe(405);
});

it('sends its POSTs through the dispatcher set with setGlobalDispatcher, with options undici 8 takes too', async () => {
  const { getGlobalDispatcher, setGlobalDispatcher } = await import('undici');
  const original = getGlobalDispatcher();
  const seen: string[] = [];
  const recording = {
    dispatch: (...args: Parameters<typeof original.dispatch>) => {
      // Node 26's dispatcher (undici 8) refuses this option: every POST would fail.
      if ('dispatcher' in args[0]) throw new Error('opts.dispatcher is not supported by instance methods');
      seen.push(`${args[0].method} ${args[0].path}`);
      return original.dispatch(...args);
    },
    close: () => original.close(),
    destroy: () => original.destroy(),
  } as unknown as typeof original;
  setGlobalDispatcher(recording);
  try {
    const { client } = await connect();
    await client.callTool({ name: 'echo', arguments: {} });
    expect(seen.filter((line) => line.startsWith('POST '))).toEqual(['POST /mcp', 'POST /mcp', 'POST /mcp']);
  } finally {
    setGlobalDispatcher(original);
  }
});
