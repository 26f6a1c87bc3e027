/**
 * A client's hooks (`hooks` option, lists run in order): `beforeRequest` changes what the server receives
 * (arguments and `_meta` on any transport, headers over HTTP), `afterResult` changes a result before it is
 * rendered, `beforeRetry` vetoes a reconnect, and `onWire` is what `onWireMessage` is a shorthand for.
 * Each shorthand option (`onWireMessage`, `formatResult`, `callOptions` as a function, a call's
 * `onTaskCreated`) gives what the equivalent hook gives, and runs first among its list's hooks. Real
 * servers: the scripted stdio server (its log is what it received), the scriptable HTTP fixture, and
 * server-everything (whose `simulate-research-query` always runs as a task).
 */
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  type CallToolResult,
  MCPCallError,
  MCPClient,
  type MCPClientOptions,
  type MCPOutgoingRequest,
  type MCPRetry,
  type MCPToolCallOptions,
  type MCPWireMessage,
} from '../../../src/index.js';
import { CallDefaults } from '../../../src/mcp/client/call-defaults.js';
import { RequestHooks } from '../../../src/mcp/client/hooks/request-hooks.js';
import { callOptionsThroughHooks } from '../../../src/mcp/session/call-options.js';
import { HttpFixture, type JsonRpcLike } from '../../fixtures/http-server.js';
import { everythingStdio, readLog, SCRIPTED, tempDir } from '../../helpers.js';

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
  it('an async onWire hook that rejects is ignored: no unhandled rejection, and the call completes', async () => {
    const unhandled: unknown[] = [];
    const onUnhandled = (reason: unknown) => unhandled.push(reason);
    process.on('unhandledRejection', onUnhandled);
    try {
      let seen = 0;
      const { client } = scripted({
        hooks: {
          onWire: [
            async () => {
              seen += 1;
              throw new Error('a tracing hook failed');
            },
          ],
        },
      });
      await client.connect();
      const result = await client.callTool('echo', { text: 'still' });
      expect(result.content).toEqual([{ type: 'text', text: 'echo: still' }]);
      // Let the rejections of the hook's promises settle before looking for unhandled ones.
      await new Promise((resolve) => setImmediate(resolve));
      expect(seen).toBeGreaterThanOrEqual(4);
      expect(unhandled).toEqual([]);
    } finally {
      process.off('unhandledRejection', onUnhandled);
    }
  });
});

/** The `tools/call` params the scripted server at `log` received, in order. */
const callsIn = (log: string) =>
  readLog(log)
    .filter((message) => message.method === 'tools/call')
    .map((message) => message.params);

describe('shorthands', () => {
  it('formatResult and the equivalent formatResult hook hand execute() the same value', async () => {
    const format = (result: CallToolResult, context: { toolName: string; server: string }) =>
      `${context.server}/${context.toolName}: ${JSON.stringify(result.content)}`;
    const values: unknown[] = [];
    for (const options of [
      { formatResult: format },
      { hooks: { formatResult: [(value: unknown, context) => format(value as CallToolResult, context)] } },
    ] satisfies MCPClientOptions[]) {
      const { client } = scripted(options);
      await client.connect();
      values.push(
        await client
          .getTools()
          .find((tool) => tool.name === 'echo')
          ?.execute({ text: 'f' }),
      );
    }
    expect(values).toEqual([
      'scripted/echo: [{"type":"text","text":"echo: f"}]',
      'scripted/echo: [{"type":"text","text":"echo: f"}]',
    ]);
  });

  it('formatResult runs after afterResult and before the formatResult hooks, each given the last value', async () => {
    const order: unknown[] = [];
    const { client } = scripted({
      formatResult: (result, context) => {
        order.push(['option', context.result === result, context.toolName]);
        return (result.content[0] as { text: string }).text;
      },
      hooks: {
        afterResult: [
          (result) => {
            order.push('afterResult');
            return {
              content: [{ type: 'text', text: `checked ${(result.content[0] as { text: string }).text}` }],
            };
          },
        ],
        formatResult: [
          async (value) => {
            order.push(['hook 1', value]);
            return `${String(value)} (1)`;
          },
          (value, context) => {
            order.push(['hook 2', value, context.result.content]);
            return `${String(value)} (2)`;
          },
        ],
      },
    });
    await client.connect();
    const echo = client.getTools().find((tool) => tool.name === 'echo');
    expect(await echo?.execute({ text: 'o' })).toBe('checked echo: o (1) (2)');
    expect(await client.callTool('echo', { text: 'raw' })).toEqual({
      content: [{ type: 'text', text: 'checked echo: raw' }],
    });
    expect(order).toEqual([
      'afterResult',
      ['option', true, 'echo'],
      ['hook 1', 'checked echo: o'],
      ['hook 2', 'checked echo: o (1)', [{ type: 'text', text: 'checked echo: o' }]],
      'afterResult',
    ]);
  });

  it('callOptions as a function and the equivalent callOptions hook send the same request', async () => {
    const logs: string[] = [];
    for (const options of [
      { callOptions: ({ toolName }) => ({ _meta: { 'com.example/tool': toolName } }) },
      {
        hooks: {
          callOptions: [
            (defaults, { toolName }) => ({ ...defaults, _meta: { 'com.example/tool': toolName } }),
          ],
        },
      },
    ] satisfies MCPClientOptions[]) {
      const { client, log } = scripted(options);
      await client.connect();
      await client.callTool('echo', { text: 'c' });
      logs.push(log);
    }
    const expected = [{ name: 'echo', arguments: { text: 'c' }, _meta: { 'com.example/tool': 'echo' } }];
    expect(logs.map(callsIn)).toEqual([expected, expected]);
  });

  it('callOptions runs first among the callOptions hooks, before beforeRequest; setCallOptions keeps the hooks', async () => {
    const order: unknown[] = [];
    const fixed = { _meta: { 'com.example/from': 'object' } };
    const { client, log } = scripted({
      callOptions: ({ toolName }) => {
        order.push(['option', toolName]);
        return { _meta: { 'com.example/from': 'function' } };
      },
      hooks: {
        callOptions: [
          (defaults) => {
            order.push(['hook 1', defaults]);
            return { _meta: { ...defaults._meta, 'com.example/hook': 1 } };
          },
          (defaults, context) => {
            order.push(['hook 2', defaults, context]);
            return undefined;
          },
        ],
        beforeRequest: [(request) => void order.push(['beforeRequest', request._meta])],
      },
    });
    await client.connect();
    await client.callTool('echo', { text: 'a' });
    client.setCallOptions(fixed);
    await client.callTool('echo', { text: 'b' }, { _meta: { 'com.example/own': true } });
    const function1 = { _meta: { 'com.example/from': 'function', 'com.example/hook': 1 } };
    const object1 = { _meta: { 'com.example/from': 'object', 'com.example/hook': 1 } };
    expect(order).toEqual([
      ['option', 'echo'],
      ['hook 1', { _meta: { 'com.example/from': 'function' } }],
      ['hook 2', function1, { toolName: 'echo' }],
      ['beforeRequest', function1._meta],
      ['hook 1', fixed],
      ['hook 2', object1, { toolName: 'echo' }],
      ['beforeRequest', { 'com.example/own': true }],
    ]);
    // The object given to setCallOptions is handed to the hooks as a copy: it stays as it was.
    expect(fixed).toEqual({ _meta: { 'com.example/from': 'object' } });
    expect(callsIn(log)).toEqual([
      { name: 'echo', arguments: { text: 'a' }, _meta: function1._meta },
      { name: 'echo', arguments: { text: 'b' }, _meta: { 'com.example/own': true } },
    ]);
  });

  it("a call's onTaskCreated and the equivalent taskCreated hook end a task-backed call with the same result", async () => {
    const answer = (created: Record<string, unknown>): CallToolResult => ({
      content: [{ type: 'text', text: `task ${typeof created.taskId} ${String(created.status)}` }],
    });
    const results: CallToolResult[] = [];
    for (const [options, call] of [
      [{}, { onTaskCreated: answer }],
      [{ hooks: { taskCreated: [answer] } }, {}],
    ] satisfies [MCPClientOptions, MCPToolCallOptions][]) {
      const client = MCPClient.fromStdio(everythingStdio(), options);
      open.push(client);
      await client.connect();
      results.push(await client.callTool('simulate-research-query', { topic: 't' }, call));
    }
    const expected = { content: [{ type: 'text', text: 'task string working' }] };
    expect(results).toEqual([expected, expected]);
  });

  it("asks a call's onTaskCreated first, then the taskCreated hooks until one returns a result", async () => {
    const order: unknown[] = [];
    const client = MCPClient.fromStdio(everythingStdio(), {
      name: 'everything',
      hooks: {
        taskCreated: [
          (created, context) => {
            order.push(['hook 1', created.status, context.method, context.toolName, context.run]);
            return undefined;
          },
          async () => {
            order.push('hook 2');
            return { content: [{ type: 'text', text: 'left to the caller' }] };
          },
          () => {
            order.push('hook 3');
            return undefined;
          },
        ],
      },
    });
    open.push(client);
    await client.connect();
    const result = await client.callTool(
      'simulate-research-query',
      { topic: 't' },
      { context: { tenant: 'x' }, onTaskCreated: (created) => void order.push(['option', created.status]) },
    );
    expect(result).toEqual({ content: [{ type: 'text', text: 'left to the caller' }] });
    expect(order).toEqual([
      ['option', 'working'],
      ['hook 1', 'working', 'tools/call', 'simulate-research-query', { tenant: 'x' }],
      'hook 2',
    ]);
  });
});

describe('the plain path', () => {
  it('runs no hook machinery for a call without request hooks: the send promise is returned as it is', async () => {
    const result: CallToolResult = { content: [] };
    const sent = Promise.resolve(result);
    const send = () => sent;
    // callOptions and formatResult hooks alone are not request hooks: the call path stays plain.
    const options: MCPClientOptions = {
      formatResult: () => 'formatted',
      hooks: { formatResult: [(value) => value], callOptions: [() => undefined] },
    };
    const hooks = new RequestHooks('plain', 'stdio', options);
    expect(hooks.resolved).toBeUndefined();
    expect(hooks.plain(undefined)).toBe(true);
    expect(hooks.callTool('echo', {}, {}, send)).toBe(sent);
    expect(new RequestHooks('hooked', 'stdio', { hooks: { taskCreated: [() => undefined] } }).plain({})).toBe(
      false,
    );
  });

  it('keeps the call defaults as given without callOptions hooks, so a plain call resolves once per tool', () => {
    const fixed = { timeoutMs: 5 };
    expect(callOptionsThroughHooks(fixed, { callOptions: [] })).toBe(fixed);
    expect(callOptionsThroughHooks(undefined, {})).toBeUndefined();
    const defaults = new CallDefaults(callOptionsThroughHooks(undefined, undefined), { emit: () => true });
    expect(defaults.resolve('echo', undefined)).toBe(defaults.resolve('echo', undefined));
  });
});
