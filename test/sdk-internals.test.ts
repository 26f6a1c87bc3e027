/**
 * What agentwire uses of the pinned MCP SDK that is not its public API, each with a probe that fails when
 * the SDK changes it: the protected members the gateway reaches (`_wireCodec` and `_outboundServerInfo` on
 * the stdio and HTTP fast paths, src/gateway/fast-call.ts and http-fast-call.ts; the `_wrapHandler` override of src/gateway/task-handlers.ts)
 * and the text of the SDK's late-message reports (src/mcp/session/sdk-signals.ts).
 *
 * The inventory is checked against src/ first: a file of src/ that imports the SDK and names an
 * underscore member (a `._name` access, or a `_name` member declared or overridden) must be listed here,
 * so a new use of an SDK internal comes with its probe, and a use that is gone leaves the list.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import { Client, InMemoryTransport } from '@modelcontextprotocol/client';
import { createMcpHandler, type McpRequestContext, Server } from '@modelcontextprotocol/server';
import { StdioServerTransport, serveStdio } from '@modelcontextprotocol/server/stdio';
import { describe, expect, it } from 'vitest';
import { GatewayServer } from '../src/gateway/task-handlers.js';
import { isSdkLateMessageReport } from '../src/mcp/session/engine/sdk-signals.js';
import { ROOT } from './helpers.js';

const SRC = path.join(ROOT, 'src');

/** Each non-public SDK member used in src/, by file (relative to src/), sorted: probed below. */
const INVENTORY: { file: string; members: string[] }[] = [
  { file: 'gateway/fast-call.ts', members: ['_outboundServerInfo', '_wireCodec'] },
  { file: 'gateway/http-fast-call.ts', members: ['_outboundServerInfo', '_wireCodec'] },
  { file: 'gateway/task-handlers.ts', members: ['_wrapHandler'] },
];

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return entry.name.endsWith('.ts') ? [full] : [];
  });
}

/** The underscore members `text` names (`_meta`, a field of MCP messages, is no SDK member). */
function underscoreMembers(text: string): string[] {
  const code = text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/^\s*\/\/.*$/gm, '');
  const pattern =
    /\._([A-Za-z]\w*)|^\s*(?:(?:protected|public|override|readonly|static|async)\s+)*_([A-Za-z]\w*)\s*\??\s*[(:]/gm;
  const names = new Set<string>();
  for (const match of code.matchAll(pattern)) {
    const name = `_${match[1] ?? match[2]}`;
    if (name !== '_meta') names.add(name);
  }
  return [...names].sort();
}

describe('non-public SDK members used in src/', () => {
  it('are exactly the inventory', () => {
    const found = sourceFiles(SRC)
      .map((file) => ({ file, text: readFileSync(file, 'utf8') }))
      .filter(({ text }) => text.includes("from '@modelcontextprotocol/"))
      .map(({ file, text }) => ({
        file: path.relative(SRC, file).split(path.sep).join('/'),
        members: underscoreMembers(text),
      }))
      .filter(({ members }) => members.length > 0)
      .sort((a, b) => a.file.localeCompare(b.file));
    expect(found).toEqual(INVENTORY);
  });
});

/** A raw stdio connection to an SDK server made by `factory` (the SDK's `serveStdio`, as the gateway's). */
function stdioServer(factory: (context: McpRequestContext) => Server) {
  const stdin = new PassThrough();
  const stdout = new PassThrough();
  const lines: string[] = [];
  const waiting = new Map<number, (line: string) => void>();
  let pending = '';
  stdout.setEncoding('utf8');
  stdout.on('data', (chunk: string) => {
    pending += chunk;
    for (let at = pending.indexOf('\n'); at !== -1; at = pending.indexOf('\n')) {
      const line = pending.slice(0, at);
      pending = pending.slice(at + 1);
      lines.push(line);
      const { id } = JSON.parse(line) as { id?: number };
      if (typeof id === 'number') waiting.get(id)?.(line);
    }
  });
  const handle = serveStdio(factory, { transport: new StdioServerTransport(stdin, stdout) });
  return {
    request(id: number, method: string, params: object): Promise<string> {
      const answered = new Promise<string>((resolve) => waiting.set(id, resolve));
      stdin.write(`${JSON.stringify({ jsonrpc: '2.0', id, method, params })}\n`);
      return answered;
    },
    notify(method: string, params: object = {}) {
      stdin.write(`${JSON.stringify({ jsonrpc: '2.0', method, params })}\n`);
    },
    close: () => handle.close(),
  };
}

const ENVELOPE = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientCapabilities': {},
  'io.modelcontextprotocol/clientInfo': { name: 'sdk-probe', version: '1.0.0' },
};
const INFO = { name: 'probe', version: '1.0.0' };
const RESULT = { content: [{ type: 'text', text: 'hi' }], structuredContent: { n: 1 }, isError: false };

/** The protected members fast-call.ts reads, as it reads them. */
interface ServerInternals {
  _wireCodec: () => { encodeResult(method: string, result: object, serverInfo: unknown): object };
  _outboundServerInfo: () => unknown;
}

describe('Server._wireCodec and Server._outboundServerInfo (the stdio fast path)', () => {
  it('encode a tools/call result into the very line the SDK server writes, in both eras', async () => {
    const instances: Server[] = [];
    const connection = stdioServer(() => {
      const server = new Server(INFO, { capabilities: { tools: {} } });
      server.setRequestHandler('tools/call', () => RESULT as never);
      instances.push(server);
      return server;
    });
    try {
      const modern = await connection.request(1, 'tools/call', { name: 't', arguments: {}, _meta: ENVELOPE });
      const server = instances.at(-1) as Server & ServerInternals;
      expect(typeof server._wireCodec).toBe('function');
      expect(typeof server._outboundServerInfo).toBe('function');
      // 2026-07-28: the server's `serverInfo` rides in the result's `_meta`, stamped from this member.
      expect(server._outboundServerInfo()).toEqual(INFO);
      const encoded = server._wireCodec().encodeResult('tools/call', RESULT, server._outboundServerInfo());
      expect(modern).toBe(JSON.stringify({ result: encoded, jsonrpc: '2.0', id: 1 }));
      expect(JSON.parse(modern).result).toMatchObject({ ...RESULT, resultType: 'complete' });
    } finally {
      await connection.close();
    }
    const legacy = stdioServer(() => {
      const server = new Server(INFO, { capabilities: { tools: {} } });
      server.setRequestHandler('tools/call', () => RESULT as never);
      instances.push(server);
      return server;
    });
    try {
      await legacy.request(1, 'initialize', {
        protocolVersion: '2025-11-25',
        capabilities: {},
        clientInfo: { name: 'sdk-probe', version: '1.0.0' },
      });
      legacy.notify('notifications/initialized');
      const line = await legacy.request(2, 'tools/call', { name: 't', arguments: {} });
      const server = instances.at(-1) as Server & ServerInternals;
      // The same info; the 2025 codec stamps nothing with it.
      expect(server._outboundServerInfo()).toEqual(INFO);
      const encoded = server._wireCodec().encodeResult('tools/call', RESULT, server._outboundServerInfo());
      expect(line).toBe(JSON.stringify({ result: encoded, jsonrpc: '2.0', id: 2 }));
      expect(JSON.parse(line).result).toEqual(RESULT);
    } finally {
      await legacy.close();
    }
  });
});

describe('Server._wireCodec and Server._outboundServerInfo (the HTTP fast path)', () => {
  it("encode a tools/call result into the very body the SDK's HTTP handler answers", async () => {
    const instances: Server[] = [];
    const handler = createMcpHandler(() => {
      const server = new Server(INFO, { capabilities: { tools: {} } });
      server.setRequestHandler('tools/call', () => RESULT as never);
      instances.push(server);
      return server;
    });
    try {
      const response = await handler.fetch(
        new Request('http://probe/mcp', {
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            accept: 'application/json, text/event-stream',
            'mcp-protocol-version': '2026-07-28',
            'mcp-method': 'tools/call',
            'mcp-name': 't',
          },
          body: JSON.stringify({
            jsonrpc: '2.0',
            id: 1,
            method: 'tools/call',
            params: { name: 't', arguments: {}, _meta: ENVELOPE },
          }),
        }),
      );
      expect([response.status, response.headers.get('content-type')]).toEqual([200, 'application/json']);
      const server = instances.at(-1) as Server & ServerInternals;
      const encoded = server._wireCodec().encodeResult('tools/call', RESULT, server._outboundServerInfo());
      // http-fast-call.ts writes this layout, key for key.
      expect(await response.text()).toBe(JSON.stringify({ result: encoded, jsonrpc: '2.0', id: 1 }));
    } finally {
      await handler.close();
    }
  });
});

describe('Server._wrapHandler (the 2025 task answer of task-handlers.ts)', () => {
  it('wraps each registered handler after the result check, so a task answer leaves without content', async () => {
    const task = { taskId: 't-1', status: 'working', createdAt: '2026-01-01T00:00:00Z', ttl: null };
    const legacy = stdioServer(() => {
      const server = new GatewayServer(INFO, { capabilities: { tools: {} } });
      server.setRequestHandler('tools/call', () => ({ content: [], task }) as never);
      return server;
    });
    try {
      await legacy.request(1, 'initialize', {
        protocolVersion: '2025-11-25',
        capabilities: {},
        clientInfo: { name: 'sdk-probe', version: '1.0.0' },
      });
      legacy.notify('notifications/initialized');
      const line = await legacy.request(2, 'tools/call', { name: 't', arguments: {}, task: { ttl: 1000 } });
      expect(JSON.parse(line)).toEqual({ jsonrpc: '2.0', id: 2, result: { task } });
    } finally {
      await legacy.close();
    }
  });
});

describe("the SDK client's late-message reports (sdk-signals.ts)", () => {
  it('are told apart by their text: a response and a progress notification for nothing pending', async () => {
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    const server = new Server(INFO, { capabilities: {} });
    await server.connect(serverSide);
    const client = new Client({ name: 'sdk-probe', version: '1.0.0' });
    const reports: Error[] = [];
    client.onerror = (error) => reports.push(error);
    await client.connect(clientSide);
    try {
      await serverSide.send({ jsonrpc: '2.0', id: 987_654, result: {} });
      await serverSide.send({
        jsonrpc: '2.0',
        method: 'notifications/progress',
        params: { progressToken: 987_655, progress: 1 },
      });
      await new Promise((resolve) => setImmediate(resolve));
      expect(reports.map((report) => [report.constructor, isSdkLateMessageReport(report)])).toEqual([
        [Error, true],
        [Error, true],
      ]);
    } finally {
      await client.close();
      await server.close();
    }
  });
});
