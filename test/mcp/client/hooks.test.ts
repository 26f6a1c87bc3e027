/**
 * A client's hooks (`hooks` option, lists run in order): `beforeRequest` changes what the server receives
 * (arguments and `_meta` on any transport, headers over HTTP), `afterResult` changes a result before it is
 * rendered, `beforeRetry` vetoes a reconnect, and `onWire` is what `onWireMessage` is a shorthand for.
 * Real servers: the scripted stdio server (its log is what it received) and the scriptable HTTP fixture.
 */
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  MCPCallError,
  MCPClient,
  type MCPOutgoingRequest,
  type MCPRetry,
  type MCPWireMessage,
} from '../../../src/index.js';
import { HttpFixture, type JsonRpcLike } from '../../fixtures/http-server.js';
import { readLog, SCRIPTED, tempDir } from '../../helpers.js';

const open: MCPClient[] = [];
const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((client) => client.disconnect()));
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

/** A scripted stdio server logging what it receives to a file of a fresh directory. */
function scripted(options: Parameters<typeof MCPClient.fromStdio>[1] = {}): {
  client: MCPClient;
  log: string;
} {
  const dir = tempDir();
  cleanups.push(() => dir.remove());
  const log = path.join(dir.dir, 'log.jsonl');
  const client = MCPClient.fromStdio(
    { command: process.execPath, args: [SCRIPTED], env: { FIXTURE_LOG: log } },
    { name: 'scripted', ...options },
  );
  open.push(client);
  return { client, log };
}

describe('hooks', () => {
  it('beforeRequest changes the arguments and _meta the stdio server receives; stdio has no headers', async () => {
    const seen: unknown[] = [];
    const { client, log } = scripted({
      hooks: {
        beforeRequest: [
          (request: MCPOutgoingRequest) => {
            const { method, toolName, run, attempt } = request.context;
            seen.push([request.transport, request.headers, method, toolName, run, attempt]);
            request.arguments = { text: `${String(request.arguments?.text)} (first)` };
          },
          (request: MCPOutgoingRequest) => {
            request.arguments = { text: `${String(request.arguments?.text)} (second)` };
            if (request._meta) request._meta['com.example/tenant'] = 't1';
          },
        ],
      },
    });
    await client.connect();
    const result = await client.callTool('echo', { text: 'hi' }, { context: { tenant: 't1' } });
    expect(result.content).toEqual([{ type: 'text', text: 'echo: hi (first) (second)' }]);
    expect(seen).toEqual([['stdio', undefined, 'tools/call', 'echo', { tenant: 't1' }, 1]]);
    const calls = readLog(log).filter((message) => message.method === 'tools/call');
    expect(calls.map((message) => message.params)).toEqual([
      { name: 'echo', arguments: { text: 'hi (first) (second)' }, _meta: { 'com.example/tenant': 't1' } },
    ]);
  });

  it('beforeRequest sets headers on the HTTP requests of a tool call and of ping', async () => {
    const fixture = await HttpFixture.start();
    cleanups.push(() => fixture.close());
    const client = MCPClient.fromUrl(fixture.url, {
      name: 'http',
      transport: 'streamable-http',
      protocolVersion: '2025-11-25',
      hooks: {
        beforeRequest: [
          (request) => {
            if (request.transport === 'http') request.headers['x-hooked'] = request.context.method;
          },
        ],
      },
    });
    open.push(client);
    await client.connect();
    await client.callTool('anything', {});
    await client.ping();
    const headerOf = (method: string) =>
      fixture.requestsFor('POST', method).map((request) => request.headers['x-hooked']);
    expect([headerOf('initialize'), headerOf('tools/call'), headerOf('ping')]).toEqual([
      [undefined],
      ['tools/call'],
      ['ping'],
    ]);
  });

  it('afterResult changes a result before a tool renders it, each hook over the last', async () => {
    const contexts: unknown[] = [];
    const { client } = scripted({
      hooks: {
        afterResult: [
          (result, context) => {
            contexts.push([context.method, context.toolName, context.run]);
            return {
              ...result,
              content: [{ type: 'text', text: `checked: ${JSON.stringify(result.content)}` }],
            };
          },
          () => undefined,
        ],
      },
    });
    await client.connect();
    const echo = client.getTools().find((tool) => tool.name === 'echo');
    const rendered = await echo?.execute({ text: 'raw' }, { runContext: { tenant: 'r' } });
    expect(rendered).toBe('checked: [{"type":"text","text":"echo: raw"}]');
    expect(contexts).toEqual([['tools/call', 'echo', { tenant: 'r' }]]);
  });

  it('beforeRetry vetoes a reconnect: the client ends failed and the server sees no second initialize', async () => {
    const fixture = await HttpFixture.start();
    cleanups.push(() => fixture.close());
    // The server forgets the session: the call fails as `session_expired` and the connection is lost.
    fixture.onMethod('tools/call', (_req, res) => {
      res.writeHead(404).end();
    });
    const retries: MCPRetry[] = [];
    const client = MCPClient.fromUrl(fixture.url, {
      name: 'vetoed',
      transport: 'streamable-http',
      protocolVersion: '2025-11-25',
      reconnect: { enabled: true, initialDelayMs: 1, maxDelayMs: 1 },
      hooks: {
        beforeRetry: [
          (retry) => {
            retries.push(retry);
            return false;
          },
        ],
      },
    });
    open.push(client);
    const events: string[] = [];
    client.on('reconnecting', () => events.push('reconnecting'));
    client.on('disconnected', ({ willReconnect }) => events.push(`disconnected:${willReconnect}`));
    client.on('error', (error) => events.push(`error:${(error as MCPCallError).kind}`));
    await client.connect();
    const error = await client.callTool('lost', {}).catch((failure: unknown) => failure);
    expect(error).toBeInstanceOf(MCPCallError);
    // The call met the 404 itself and its tool is not marked readOnlyHint/idempotentHint: it is not re-sent
    // (engine/replay-decision.ts) whatever the reconnect does; the session's loss ends the client failed.
    expect((error as MCPCallError).kind).toBe('may_have_run');
    await expect.poll(() => client.getState()).toBe('failed');
    expect(events).toEqual(['disconnected:true', 'error:session_expired']);
    expect(
      retries.map(({ reason, server, method, attempt, error }) => [
        reason,
        server,
        method,
        attempt,
        (error as MCPCallError).kind,
      ]),
    ).toEqual([['reconnect', 'vetoed', 'connect', 1, 'session_expired']]);
    expect(fixture.requestsFor('POST', 'initialize')).toHaveLength(1);
  });

  it('onWire hooks see exactly what onWireMessage sees, the shorthand first', async () => {
    const order: string[] = [];
    const byShorthand: MCPWireMessage[] = [];
    const byHook: MCPWireMessage[] = [];
    const { client } = scripted({
      onWireMessage: (message) => {
        order.push('shorthand');
        byShorthand.push(message);
      },
      hooks: {
        onWire: [
          (message) => {
            order.push('hook');
            byHook.push(message);
          },
        ],
      },
    });
    await client.connect();
    await client.callTool('echo', { text: 'wire' });
    expect(byHook).toEqual(byShorthand);
    expect(order.slice(0, 2)).toEqual(['shorthand', 'hook']);
    const sentCalls = byHook.filter(
      (entry) => entry.direction === 'send' && (entry.message as JsonRpcLike).method === 'tools/call',
    );
    expect(sentCalls.map((entry) => (entry.message as JsonRpcLike).params)).toEqual([
      { name: 'echo', arguments: { text: 'wire' } },
    ]);
  });
});
