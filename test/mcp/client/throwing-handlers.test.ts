/**
 * A client handler that throws while answering a 2026-07-28 `input_required` round (MCP spec 2026-07-28,
 * "Basic > Patterns > Multi Round-Trip Requests"; "Client > Sampling / Roots > Error Handling": the server
 * is not waiting for an answer, so nothing more is sent): the call fails at once, kind `input_required`,
 * `inputMethod` naming the request, the handler's own error as `cause`. 2025-11-25 for comparison: there the
 * server is waiting, so the SDK answers its request with a JSON-RPC error and the server decides.
 */
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { MCPClient, type MCPClientOptions } from '../../../src/mcp/client/client.js';
import { MCPCallError } from '../../../src/mcp/protocol/errors.js';
import { type Era2026HttpServer, startEra2026Http } from '../../fixtures/era2026/http-server.js';
import { ROOT, readLog, tempDir } from '../../helpers.js';

const FIXTURE_2026 = path.join(ROOT, 'test', 'fixtures', 'era2026', 'stdio-server.mjs');
const FIXTURE_2025 = path.join(ROOT, 'test', 'fixtures', 'url-elicitation-server.mjs');

const open: MCPClient[] = [];
const temps: (() => void)[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((client) => client.disconnect()));
  for (const remove of temps.splice(0)) remove();
});

async function stdio(args: string[], options: MCPClientOptions) {
  const temp = tempDir();
  temps.push(temp.remove);
  const log = path.join(temp.dir, 'received.log');
  const client = MCPClient.fromStdio(
    { command: process.execPath, args, env: { FIXTURE_LOG: log } },
    { name: 'fixture', ...options },
  );
  open.push(client);
  await client.connect();
  const calls = () => readLog(log).filter((message) => message.method === 'tools/call').length;
  return { client, calls };
}

const broke = new Error('the handler broke');
const failing = async (): Promise<never> => {
  throw broke;
};

/** What the call failed with, as the fields a caller reads. */
async function failure(call: Promise<unknown>) {
  const error = await call.then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  expect(error).toBeInstanceOf(MCPCallError);
  const { kind, inputMethod, message, cause } = error as MCPCallError;
  return { kind, inputMethod, message, cause };
}

const expected = (tool: string, method: string) => ({
  kind: 'input_required',
  inputMethod: method,
  message: `MCP server "fixture": tools/call "${tool}" failed: the client's ${method} handler failed`,
  cause: broke,
});

describe('a throwing handler, MCP 2026-07-28 over stdio', () => {
  it('onUrlElicitation: fails at once, input_required, nothing more sent', async () => {
    const { client, calls } = await stdio([FIXTURE_2026, '--modern-only', '--url-elicitation'], {
      onUrlElicitation: failing,
    });
    expect(await failure(client.callTool('open_url', { step: 'x' }))).toEqual(
      expected('open_url', 'elicitation/create'),
    );
    expect(calls()).toBe(1);
  });

  it('onElicitation (form): the same', async () => {
    const { client, calls } = await stdio([FIXTURE_2026, '--modern-only'], { onElicitation: failing });
    expect(await failure(client.callTool('confirm', { action: 'deploy' }))).toEqual(
      expected('confirm', 'elicitation/create'),
    );
    expect(calls()).toBe(1);
  });

  it('onSampling rejecting beside a form elicitation that answers: the sampling failure, once', async () => {
    const { client, calls } = await stdio([FIXTURE_2026, '--modern-only', '--mrtr'], {
      onElicitation: async () => ({ action: 'accept', content: { name: 'Ada' } }),
      onSampling: () => Promise.reject(broke),
    });
    expect(await failure(client.callTool('survey', {}))).toEqual(
      expected('survey', 'sampling/createMessage'),
    );
    expect(calls()).toBe(1);
  });
});

describe('a throwing handler, MCP 2026-07-28 over Streamable HTTP', () => {
  let server: Era2026HttpServer;
  beforeAll(async () => {
    server = await startEra2026Http({ modernOnly: true, urlElicitationTool: true, mrtr: true });
  });
  afterAll(() => server.close());

  async function http(options: MCPClientOptions) {
    const client = MCPClient.fromUrl(server.url, {
      name: 'fixture',
      ...options,
    });
    open.push(client);
    await client.connect();
    const toolCalls = () => server.requests.filter((request) => request.body.includes('"tools/call"')).length;
    const before = toolCalls();
    const calls = () => toolCalls() - before;
    return { client, calls };
  }

  it('onUrlElicitation, onElicitation and onSampling each fail the call at once', async () => {
    const url = await http({ onUrlElicitation: failing });
    expect(await failure(url.client.callTool('open_url', { step: 'x' }))).toEqual(
      expected('open_url', 'elicitation/create'),
    );
    expect(url.calls()).toBe(1);
    const form = await http({ onElicitation: failing });
    expect(await failure(form.client.callTool('confirm', { action: 'a' }))).toEqual(
      expected('confirm', 'elicitation/create'),
    );
    expect(form.calls()).toBe(1);
    const sampling = await http({
      onElicitation: async () => ({ action: 'accept', content: { name: 'Ada' } }),
      onSampling: failing,
    });
    expect(await failure(sampling.client.callTool('survey', {}))).toEqual(
      expected('survey', 'sampling/createMessage'),
    );
    expect(sampling.calls()).toBe(1);
  });
});

describe('a throwing handler, MCP 2025-11-25 (for comparison)', () => {
  it('the server is waiting, so its request is answered with an error and the server decides', async () => {
    const { client } = await stdio([FIXTURE_2025], { onUrlElicitation: failing });
    // The SDK answers the server's elicitation/create with -32603 and the handler's message; the fixture's
    // tool then fails with that as its error result.
    expect(await client.callTool('open_url', { step: 'x' })).toEqual({
      content: [{ type: 'text', text: 'MCP error -32603: the handler broke' }],
      isError: true,
    });
    const dual = await stdio([FIXTURE_2026], { onElicitation: failing, protocolVersion: '2025-11-25' });
    expect(dual.client.getProtocolVersion()).toBe('2025-11-25');
    expect(await dual.client.callTool('confirm', { action: 'a' })).toEqual({
      content: [
        { type: 'text', text: "Fulfilling input required by 'tools/call' failed: the handler broke" },
      ],
      isError: true,
    });
  });
});
