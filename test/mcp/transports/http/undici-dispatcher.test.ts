/**
 * agentwire's undici path leaves the process's `fetch` as it was: when no global dispatcher is set, Node's
 * own `Agent` becomes it (as the first `fetch` would make it), not an `Agent` of the undici package.
 * A file of its own, without a static import of undici: importing the package installs its own `Agent`.
 */
import { afterEach, expect, it } from 'vitest';
import { closeAll, connect } from '../../../fixtures/http-client.js';

afterEach(closeAll);

const GLOBAL_DISPATCHER = Symbol.for('undici.globalDispatcher.1');

it("leaves Node's own Agent as the global dispatcher, the one fetch uses", async () => {
  const dispatcher = () => (globalThis as Record<symbol, unknown>)[GLOBAL_DISPATCHER];
  expect(dispatcher()).toBeUndefined();
  const { client, fixture } = await connect();
  await client.callTool({ name: 'echo', arguments: {} });
  expect(fixture.requests.filter((r) => r.method === 'POST')).toHaveLength(3);
  const { Agent } = await import('undici');
  expect(dispatcher()).toBeDefined();
  expect(dispatcher() instanceof Agent).toBe(false);
  // fetch still works on it.
  expect((await fetch(fixture.url, { method: 'GET' })).status).toBe(405);
});
