import path from 'node:path';
import { Client } from '@modelcontextprotocol/client';
import { afterEach, describe, expect, it } from 'vitest';
import { MCPCallError } from '../../../../src/mcp/protocol/errors.js';
import { stderrSummary } from '../../../../src/mcp/transports/stdio/close-info.js';
import { StdioTransport } from '../../../../src/mcp/transports/stdio/stdio-transport.js';
import { waitUntil } from '../../../helpers.js';
import { isRunning, ROOT } from './helpers.js';

const MISBEHAVING = path.join(ROOT, 'test/fixtures/misbehaving-server.mjs');

const opened: { transport: StdioTransport; client: Client }[] = [];
afterEach(async () => {
  await Promise.all(opened.splice(0).map(({ client }) => client.close()));
});

async function connected(): Promise<{ transport: StdioTransport; client: Client }> {
  const transport = new StdioTransport({
    command: process.execPath,
    args: [MISBEHAVING],
    serverName: 'fixture',
    closeGraceMs: 200,
  });
  const client = new Client({ name: 'agentwire-test', version: '0.0.0' });
  opened.push({ transport, client });
  await client.connect(transport);
  return { transport, client };
}

describe('StdioTransport when the server closes its stdout but keeps running', () => {
  it('ends the connection and the process instead of leaving the call to time out', async () => {
    const { transport, client } = await connected();
    const pid = transport.pid!;
    const started = Date.now();
    const error = await client
      .callTool({ name: 'close-stdout', arguments: {} }, { timeout: 20_000 })
      .catch((e: unknown) => e);
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(error).toBeInstanceOf(Error);
    expect(transport.closeInfo).toEqual({
      kind: 'connection_closed',
      message: 'server "fixture" closed its stdout while still running',
      server: 'fixture',
      exitCode: undefined,
      signal: undefined,
      stderrTail: [],
    });
    await waitUntil(() => !isRunning(pid), 5_000, 'the server process to be ended');
    const refused = await transport.send({ jsonrpc: '2.0', id: 9, method: 'ping' }).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(MCPCallError);
    expect(refused).toMatchObject({
      kind: 'connection_closed',
      message: 'server "fixture" closed its stdout while still running',
    });
  });
});

describe('StdioTransport summary of a crashed server', () => {
  it("quotes the uncaught Error's line, not the dump's closing brace or Node's version banner", async () => {
    const { transport, client } = await connected();
    await client.callTool({ name: 'crash', arguments: {} }).catch(() => undefined);
    await waitUntil(() => transport.closeInfo !== undefined, 5_000, 'closeInfo');
    expect(transport.closeInfo).toMatchObject({
      kind: 'connection_closed',
      exitCode: 1,
      message: 'server "fixture" exited with code 1; last stderr: Error: cannot open database "main.db"',
    });
    expect(transport.stderrTail.at(-1)).toMatch(/^Node\.js v\d+/);
  });
});

describe('stderrSummary', () => {
  const nodeCrash = [
    'file:///srv/server.mjs:12',
    "    throw Object.assign(new Error('cannot open database'), { code: 'E_DB' });",
    '    ^',
    '',
    'Error: cannot open database',
    '    at Immediate.<anonymous> (file:///srv/server.mjs:12:11)',
    '    at process.processImmediate (node:internal/timers:483:21) {',
    "  code: 'E_DB'",
    '}',
    '',
    'Node.js v20.20.2',
  ];

  it('picks the last informative line of a Node crash dump', () => {
    expect(stderrSummary(nodeCrash)).toEqual(['Error: cannot open database']);
  });

  it('keeps the lines of the same paragraph before the informative one, at most three', () => {
    expect(stderrSummary(['starting up', 'fatal: MY_API_KEY is not set'])).toEqual([
      'starting up',
      'fatal: MY_API_KEY is not set',
    ]);
    expect(stderrSummary(['a', 'b', 'c', 'permission denied: /etc/x'])).toEqual([
      'b',
      'c',
      'permission denied: /etc/x',
    ]);
  });

  it('falls back to the last lines that are not noise when nothing looks like an error', () => {
    expect(stderrSummary(['listening on stdio', 'bye', '}', '', 'Node.js v22.1.0'])).toEqual([
      'listening on stdio',
      'bye',
    ]);
  });

  it('is empty when stderr held nothing worth quoting', () => {
    expect(stderrSummary([])).toEqual([]);
    expect(stderrSummary(['', '}', 'Node.js v20.20.2'])).toEqual([]);
  });
});

describe('StdioTransport wire order', () => {
  it('lets a bare SDK client see the progress that shares a chunk with the response', async () => {
    const { client } = await connected();
    const seen: number[] = [];
    await client.callTool(
      { name: 'progress-then-answer', arguments: { n: 4 } },
      { onprogress: (p) => seen.push(p.progress) },
    );
    expect(seen).toEqual([1, 2, 3, 4]);
  });
});
