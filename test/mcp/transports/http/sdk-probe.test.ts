/**
 * Measurements of the SDK's own `StreamableHTTPClientTransport` (2.4.0) against our fixture: the gaps that
 * made us write our own transport (see the header of src/mcp/transports/streamable-http.ts). If one of
 * these starts failing, the SDK closed a gap and our layer may be able to shrink.
 */
import { Client, SdkError, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterEach, describe, expect, it } from 'vitest';
import { HttpFixture } from '../../../fixtures/http-server.js';

let fixture: HttpFixture | undefined;
let client: Client | undefined;
afterEach(async () => {
  await client?.close().catch(() => {});
  await fixture?.close();
  client = undefined;
  fixture = undefined;
});

async function sdkClient(script: (f: HttpFixture) => void) {
  fixture = await HttpFixture.start();
  script(fixture);
  const transport = new StreamableHTTPClientTransport(new URL(fixture.url));
  client = new Client({ name: 't', version: '0' });
  await client.connect(transport);
  return { transport, client, fixture };
}

describe('the SDK Streamable HTTP transport (measured gaps)', () => {
  it('waits for the request timeout on an empty text/event-stream answer', async () => {
    const { client } = await sdkClient((f) =>
      f.onMethod(
        'tools/call',
        (_req, res) => void res.writeHead(200, { 'content-type': 'text/event-stream' }).end(),
      ),
    );
    const started = Date.now();
    const error = await client
      .callTool({ name: 'x', arguments: {} }, { timeout: 300 })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SdkError);
    expect(Date.now() - started).toBeGreaterThanOrEqual(290);
  });

  it('sends no DELETE from close()', async () => {
    const { client, fixture } = await sdkClient(() => {});
    await client.close();
    expect(fixture.requestsFor('DELETE')).toEqual([]);
  });

  it('keeps the stale session id after a 404', async () => {
    const { client, transport } = await sdkClient((f) =>
      f.onMethod('tools/call', (_req, res) => void res.writeHead(404).end()),
    );
    await client.callTool({ name: 'x', arguments: {} }).catch(() => {});
    expect(transport.sessionId).toBe('session-1');
  });
});
