/**
 * The stdio fast path of `tools/call` (src/gateway/fast-call.ts) against the SDK server's own path, over
 * raw newline-delimited JSON-RPC in both eras: for each kind of outcome (text, an image, structured
 * content, an upstream's tool error and JSON-RPC error, an unknown tool) a request the SDK serves (its
 * `_meta` not seen before) and the same request on the fast path (its `_meta` learnt) are answered with the
 * same bytes; a fast call cancelled mid-way is not answered, and the connection goes on; a progress token
 * used twice gets its progress both times (the ordinary path forwards it).
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MCPGateway } from '../../src/gateway/index.js';
import { loadServerConfig } from '../../src/mcp/index.js';
import { EVERYTHING, tempDir } from '../helpers.js';

let gateway: MCPGateway;
let remove: () => void;

beforeAll(async () => {
  const temp = tempDir('agentwire-gateway-fast-');
  remove = temp.remove;
  const file = path.join(temp.dir, 'servers.json');
  writeFileSync(
    file,
    JSON.stringify({ mcpServers: { everything: { command: process.execPath, args: [EVERYTHING] } } }),
  );
  gateway = MCPGateway.fromConfig(await loadServerConfig(file));
  expect((await gateway.start()).map((result) => result.ok)).toEqual([true]);
}, 60_000);

afterAll(async () => {
  await gateway?.close();
  remove?.();
});

const ENVELOPE = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientCapabilities': {},
  'io.modelcontextprotocol/clientInfo': { name: 'fast-call-test', version: '1.0.0' },
};

/** A raw stdio connection to the gateway: lines written, answers read by id. */
function connect() {
  const stdin = new PassThrough();
  const stdout = new PassThrough();
  const host = gateway.serveStdio({ stdin, stdout });
  const answers = new Map<number, string>();
  const notifications: { method: string; params?: Record<string, unknown> }[] = [];
  const waiting = new Map<number, (line: string) => void>();
  let pending = '';
  stdout.setEncoding('utf8');
  stdout.on('data', (chunk: string) => {
    pending += chunk;
    let newline = pending.indexOf('\n');
    while (newline !== -1) {
      const line = pending.slice(0, newline);
      pending = pending.slice(newline + 1);
      const message = JSON.parse(line) as { id?: number; method?: string };
      const { id } = message;
      if (id === undefined && message.method) notifications.push(message as (typeof notifications)[0]);
      if (typeof id === 'number') {
        answers.set(id, line);
        waiting.get(id)?.(line);
      }
      newline = pending.indexOf('\n');
    }
  });
  let nextId = 0;
  const send = (message: object) => stdin.write(`${JSON.stringify({ jsonrpc: '2.0', ...message })}\n`);
  return {
    answers,
    notifications,
    send,
    /** Sends a request; resolves with its answer's line, its id replaced by 0. */
    request(method: string, params: object, id = ++nextId): Promise<string> {
      const answered = new Promise<string>((resolve) => waiting.set(id, resolve));
      send({ id, method, params });
      return answered.then((line) => line.replace(`"id":${id}`, '"id":0'));
    },
    close: async () => {
      stdin.end();
      await host.close();
    },
  };
}

const CASES: [string, object][] = [
  ['everything__echo', { message: 'hi' }],
  ['everything__get-tiny-image', {}],
  ['everything__get-structured-content', { location: 'Chicago' }],
  ['everything__get-sum', { a: 'one', b: 2 }],
  ['everything__echo', []],
  ['nobody__echo', { message: 'hi' }],
];

describe.each(['2025-11-25', '2026-07-28'])('tools/call over stdio, %s', (revision) => {
  const modern = revision === '2026-07-28';
  const meta = (extra: object = {}) =>
    modern || Object.keys(extra).length > 0 ? { _meta: { ...(modern && ENVELOPE), ...extra } } : {};

  async function open() {
    const connection = connect();
    if (modern) await connection.request('server/discover', { _meta: ENVELOPE });
    else {
      await connection.request('initialize', {
        protocolVersion: revision,
        capabilities: {},
        clientInfo: { name: 'fast-call-test', version: '1.0.0' },
      });
      connection.send({ method: 'notifications/initialized' });
    }
    // The SDK server accepts this `_meta` once: later calls with it take the fast path.
    const first = await connection.request('tools/call', {
      name: 'everything__echo',
      arguments: {},
      ...meta(),
    });
    expect(first).toContain('"result"');
    return connection;
  }

  it('answers every kind of outcome with the bytes of the SDK server', async () => {
    const connection = await open();
    try {
      for (const [index, [name, args]] of CASES.entries()) {
        const sdk = await connection.request('tools/call', {
          name,
          arguments: args,
          ...meta({ case: index }),
        });
        const fast = await connection.request('tools/call', { name, arguments: args, ...meta() });
        expect({ name, fast }).toEqual({ name, fast: sdk });
      }
    } finally {
      await connection.close();
    }
  }, 30_000);

  it('leaves a cancelled call unanswered, and serves the next one', async () => {
    const connection = await open();
    try {
      const id = 1000;
      connection.send({
        id,
        method: 'tools/call',
        params: {
          name: 'everything__trigger-long-running-operation',
          arguments: { duration: 30, steps: 30 },
          ...meta(),
        },
      });
      connection.send({ method: 'notifications/cancelled', params: { requestId: id, reason: 'test' } });
      const next = await connection.request('tools/call', {
        name: 'everything__echo',
        arguments: { message: 'after' },
        ...meta(),
      });
      expect(JSON.parse(next).result.content).toEqual([{ type: 'text', text: 'Echo: after' }]);
      expect(connection.answers.has(id)).toBe(false);
    } finally {
      await connection.close();
    }
  }, 30_000);

  it('forwards progress to a token used on every call', async () => {
    const connection = await open();
    try {
      for (const round of [1, 2]) {
        const answer = await connection.request('tools/call', {
          name: 'everything__trigger-long-running-operation',
          arguments: { duration: 0.4, steps: 2 },
          ...meta({ progressToken: 'same' }),
        });
        expect(JSON.parse(answer).result.content[0].type).toBe('text');
        const progress = connection.notifications.filter(
          (one) => one.method === 'notifications/progress' && one.params?.progressToken === 'same',
        );
        expect(progress.length).toBe(2 * round);
      }
    } finally {
      await connection.close();
    }
  }, 30_000);
});

describe('tools/call over stdio, 2026-07-28, with the tasks extension declared', () => {
  it('leaves a tool that may run as a task to the task pass-through, every time', async () => {
    const connection = connect();
    const tasksEnvelope = {
      ...ENVELOPE,
      'io.modelcontextprotocol/clientCapabilities': { extensions: { 'io.modelcontextprotocol/tasks': {} } },
    };
    try {
      await connection.request('server/discover', { _meta: tasksEnvelope });
      const params = {
        name: 'everything__simulate-research-query',
        arguments: { topic: 'tides' },
        _meta: tasksEnvelope,
      };
      // The second call's `_meta` has been accepted once: without the exception it took the fast path, and
      // the gateway waited for the task's end itself.
      for (const _ of [1, 2]) {
        const answer = JSON.parse(await connection.request('tools/call', params));
        expect([answer.result.resultType, answer.result.status]).toEqual(['task', 'working']);
        expect(typeof answer.result.taskId).toBe('string');
      }
    } finally {
      await connection.close();
    }
  }, 30_000);
});
