/**
 * Multi round-trip requests (MCP spec 2026-07-28, "Basic > Patterns > Multi Round-Trip Requests") through
 * `MCPClient` against the real 2026 fixtures with their `mrtr` tools (test/fixtures/era2026/mrtr.mjs), over
 * stdio and Streamable HTTP: input requests answered through `onElicitation`, `onSampling` and `roots`,
 * several in one round and over several rounds; the retries as sent (HTTP fixture records every body):
 * `inputResponses`, `requestState` byte for byte, a new id per round; the `maxInputRounds` bound; input the
 * client cannot give; `prompts/get` and `resources/read` too.
 */
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { MCPClient, type MCPClientOptions } from '../../../src/mcp/client/client.js';
import { MCPCallError } from '../../../src/mcp/protocol/errors.js';
import type { CreateMessageParams, ElicitParams } from '../../../src/mcp/protocol/types.js';
import { type Era2026HttpServer, startEra2026Http } from '../../fixtures/era2026/http-server.js';
import { STATE_ECHO } from '../../fixtures/era2026/mrtr.mjs';
import { ROOT } from '../../helpers.js';

const STDIO_SERVER = path.join(ROOT, 'test/fixtures/era2026/stdio-server.mjs');

let http: Era2026HttpServer;
beforeAll(async () => {
  http = await startEra2026Http({ modernOnly: true, mrtr: true });
});
afterAll(() => http.close());

const open: MCPClient[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((client) => client.disconnect()));
});

type Transport = 'stdio' | 'http';

async function connect(transport: Transport, options: MCPClientOptions = {}): Promise<MCPClient> {
  const mcp =
    transport === 'stdio'
      ? MCPClient.fromStdio(
          { command: process.execPath, args: [STDIO_SERVER, '--modern-only', '--mrtr'] },
          { name: 'mrtr', ...options },
        )
      : MCPClient.fromUrl(http.url, { name: 'mrtr', ...options });
  open.push(mcp);
  await mcp.connect();
  expect(mcp.getProtocolVersion()).toBe('2026-07-28');
  http.requests.length = 0;
  return mcp;
}

/** The JSON-RPC bodies the HTTP fixture received for `method`, in order. */
function sent(method: string): { id: unknown; params: Record<string, unknown> }[] {
  return http.requests
    .filter((r) => r.method === 'POST' && r.body !== '')
    .map((r) => JSON.parse(r.body) as { id: unknown; method?: string; params: Record<string, unknown> })
    .filter((m) => m.method === method);
}

const everything = (log: unknown[]): MCPClientOptions => ({
  onElicitation: async (params: ElicitParams) => {
    log.push(['elicitation', params.message]);
    const field = Object.keys(params.requestedSchema?.properties ?? {})[0] ?? 'value';
    return { action: 'accept', content: { [field]: field === 'name' ? 'Ada' : 'pw' } };
  },
  onSampling: async (params: CreateMessageParams) => {
    log.push(['sampling', params.messages, params.maxTokens]);
    return { role: 'assistant', content: { type: 'text', text: 'all good' }, model: 'test-model' };
  },
  roots: [
    { uri: 'file:///a', name: 'a' },
    { uri: 'file:///b', name: 'b' },
  ],
});

describe.each<Transport>(['stdio', 'http'])('MRTR over %s', (transport) => {
  it('survey: two input requests in one round, then roots, answered through the handlers', async () => {
    const log: unknown[] = [];
    const mcp = await connect(transport, everything(log));
    const result = await mcp.callTool('survey', {});
    expect(result.content).toEqual([{ type: 'text', text: 'Ada / all good / file:///a,file:///b' }]);
    expect(log).toEqual([
      ['elicitation', 'Your name?'],
      ['sampling', [{ role: 'user', content: { type: 'text', text: 'Summarise the survey.' } }], 20],
    ]);
    if (transport === 'stdio') return;
    const legs = sent('tools/call');
    expect(legs).toHaveLength(3);
    expect(new Set(legs.map((leg) => leg.id)).size).toBe(3);
    expect(legs[0]?.params).not.toHaveProperty('inputResponses');
    expect(legs[0]?.params).not.toHaveProperty('requestState');
    expect(legs[1]?.params.inputResponses).toEqual({
      name: { action: 'accept', content: { name: 'Ada' } },
      summary: { role: 'assistant', content: { type: 'text', text: 'all good' }, model: 'test-model' },
    });
    expect(legs[2]?.params.inputResponses).toEqual({
      roots: {
        roots: [
          { uri: 'file:///a', name: 'a' },
          { uri: 'file:///b', name: 'b' },
        ],
      },
    });
    // Minted by the SDK's request-state codec (HMAC): the server verified both echoes.
    expect(legs[1]?.params.requestState).toMatch(/^v1\./);
    expect(legs[2]?.params.requestState).toMatch(/^v1\./);
    expect(legs[2]?.params.requestState).not.toBe(legs[1]?.params.requestState);
    for (const leg of legs) expect(leg.params.arguments).toEqual({});
  });

  it('state_echo: the requestState goes back byte for byte', async () => {
    const mcp = await connect(transport, everything([]));
    const result = await mcp.callTool('state_echo', {});
    expect(result.content).toEqual([{ type: 'text', text: 'state echoed exactly' }]);
    if (transport === 'http') expect(sent('tools/call')[1]?.params.requestState).toBe(STATE_ECHO);
  });

  it('state_only: a round with requestState alone is re-sent with it and no inputResponses', async () => {
    const mcp = await connect(transport, everything([]));
    const result = await mcp.callTool('state_only', {});
    expect(result.content).toEqual([{ type: 'text', text: 'state-only round done' }]);
    if (transport === 'http') {
      const retry = sent('tools/call')[1]?.params;
      expect(retry?.requestState).toBe('again');
      expect(retry).not.toHaveProperty('inputResponses');
    }
  });

  it('nag: maxInputRounds bounds the rounds with a typed error naming server, method, tool and count', async () => {
    const asked: unknown[] = [];
    const mcp = await connect(transport, { ...everything(asked), maxInputRounds: 3 });
    const error = await mcp.callTool('nag', {}).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(MCPCallError);
    const e = error as MCPCallError;
    expect([e.kind, e.inputRounds, e.server, e.method, e.toolName]).toEqual([
      'input_required',
      3,
      'mrtr',
      'tools/call',
      'nag',
    ]);
    expect(e.message).toBe('MCP server "mrtr": tools/call "nag" failed: still required input after 3 rounds');
    expect(asked).toHaveLength(3);
    if (transport === 'http')
      expect(sent('tools/call').map((leg) => leg.params.requestState)).toEqual([undefined, '1', '2', '3']);
  });

  it('nag: the default bound is 10 rounds', async () => {
    const mcp = await connect(transport, everything([]));
    const error = (await mcp.callTool('nag', {}).catch((e: unknown) => e)) as MCPCallError;
    expect([error.kind, error.inputRounds]).toEqual(['input_required', 10]);
    if (transport === 'http') expect(sent('tools/call')).toHaveLength(11);
  });

  it('input the client has no handler for: the capability is not declared, and the server says so (-32021)', async () => {
    const { onElicitation } = everything([]);
    const mcp = await connect(transport, onElicitation ? { onElicitation } : {});
    const error = (await mcp.callTool('survey', {}).catch((e: unknown) => e)) as MCPCallError;
    expect([error.kind, error.code, error.data]).toEqual([
      'jsonrpc',
      -32021,
      { requiredCapabilities: { sampling: {} } },
    ]);
    if (transport === 'http') expect(sent('tools/call')).toHaveLength(1);
  });

  it('prompts/get and resources/read follow input_required too', async () => {
    const log: unknown[] = [];
    const mcp = await connect(transport, everything(log));
    const prompt = await mcp.getPrompt('greeting');
    expect(prompt.messages).toEqual([{ role: 'user', content: { type: 'text', text: 'Hello, Ada!' } }]);
    const resource = await mcp.readResource('fixture://secret');
    expect(resource.contents).toEqual([{ uri: 'fixture://secret', text: 'secret for pw' }]);
    expect(log).toEqual([
      ['elicitation', 'Your name?'],
      ['elicitation', 'Password?'],
    ]);
    if (transport === 'http') {
      expect(sent('prompts/get').map((m) => m.params.inputResponses)).toEqual([
        undefined,
        { name: { action: 'accept', content: { name: 'Ada' } } },
      ]);
      expect(sent('resources/read').map((m) => m.params.inputResponses)).toEqual([
        undefined,
        { password: { action: 'accept', content: { password: 'pw' } } },
      ]);
    }
  });

  it('prompts/get obeys maxInputRounds as well', async () => {
    const mcp = await connect(transport, { ...everything([]), maxInputRounds: 0 });
    const error = (await mcp.getPrompt('greeting').catch((e: unknown) => e)) as MCPCallError;
    expect([error.kind, error.inputRounds, error.method]).toEqual(['input_required', 0, 'prompts/get']);
  });
});
