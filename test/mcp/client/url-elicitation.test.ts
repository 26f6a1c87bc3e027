import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { MCPClient, type MCPClientOptions } from '../../../src/mcp/client/client.js';
import { MCPCallError } from '../../../src/mcp/protocol/errors.js';
import type {
  MCPUrlElicitation,
  MCPUrlElicitationAction,
} from '../../../src/mcp/session/engine/server-requests.js';
import { ROOT, readLog, tempDir } from '../../helpers.js';

const FIXTURE_2025 = path.join(ROOT, 'test', 'fixtures', 'url-elicitation-server.mjs');
const FIXTURE_2026 = path.join(ROOT, 'test', 'fixtures', 'era2026', 'stdio-server.mjs');

const open: MCPClient[] = [];
const temps: (() => void)[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((client) => client.disconnect()));
  for (const remove of temps.splice(0)) remove();
});

function logFile(): string {
  const temp = tempDir();
  temps.push(temp.remove);
  return path.join(temp.dir, 'received.log');
}

async function connect(args: string[], log: string, options: MCPClientOptions): Promise<MCPClient> {
  const client = MCPClient.fromStdio(
    { command: process.execPath, args, env: { FIXTURE_LOG: log } },
    { name: 'fixture', ...options },
  );
  open.push(client);
  await client.connect();
  return client;
}

/** A URL handler that records what it is asked and answers `action`. */
function recorder(action: MCPUrlElicitationAction = 'accept') {
  const seen: { elicitation: MCPUrlElicitation; server: string }[] = [];
  const onUrlElicitation = async (elicitation: MCPUrlElicitation, context: { server: string }) => {
    seen.push({ elicitation, server: context.server });
    return action;
  };
  return { seen, onUrlElicitation };
}

const text = (value: string) => ({ content: [{ type: 'text', text: value }] });
/** A 2026-07-28 result: the server identifies itself in every result's `_meta`. */
const text2026 = (value: string) => ({
  ...text(value),
  _meta: { 'io.modelcontextprotocol/serverInfo': { name: 'era2026-fixture', version: '1.0.0' } },
});

/** The `tools/call` requests the fixture received: their ids and params. */
function toolCalls(log: string) {
  return readLog(log)
    .filter((message) => message.method === 'tools/call')
    .map(({ id, params }) => ({ id, params }));
}

describe('URL elicitation, MCP 2025-11-25', () => {
  it('declares elicitation.url only with onUrlElicitation, beside form with onElicitation', async () => {
    const log = logFile();
    const { onUrlElicitation } = recorder();
    await connect([FIXTURE_2025], log, {
      onUrlElicitation,
      onElicitation: async () => ({ action: 'decline' }),
    });
    const initialize = readLog(log).find((message) => message.method === 'initialize');
    expect(initialize?.params?.capabilities).toEqual({ elicitation: { form: {}, url: {} } });

    const formOnly = logFile();
    await connect([FIXTURE_2025], formOnly, { onElicitation: async () => ({ action: 'decline' }) });
    const formInitialize = readLog(formOnly).find((message) => message.method === 'initialize');
    expect(formInitialize?.params?.capabilities).toEqual({ elicitation: { form: {} } });
  });

  it('answers -32042 by running the handler for the elicitation, then retries the call once', async () => {
    const log = logFile();
    const { seen, onUrlElicitation } = recorder();
    const client = await connect([FIXTURE_2025], log, { onUrlElicitation });
    expect(await client.callTool('connect', { account: 'github' })).toEqual(text('connected github'));
    expect(seen).toEqual([
      {
        elicitation: {
          url: 'https://auth.example.test/connect/github',
          message: 'Connect your github account.',
          elicitationId: 'elic-github',
        },
        server: 'fixture',
      },
    ]);
    const call = { name: 'connect', arguments: { account: 'github' } };
    expect(toolCalls(log)).toEqual([
      { id: 'aw-1', params: call },
      { id: 'aw-2', params: call },
    ]);
  });

  it('runs the handler for every elicitation listed, in order, before the one retry', async () => {
    const log = logFile();
    const { seen, onUrlElicitation } = recorder();
    const client = await connect([FIXTURE_2025], log, { onUrlElicitation });
    expect(await client.callTool('connect_both', {})).toEqual(text('connected both'));
    expect(seen.map((entry) => entry.elicitation)).toEqual([
      { url: 'https://auth.example.test/a', message: 'Connect A.', elicitationId: 'elic-a' },
      { url: 'https://auth.example.test/b', message: 'Connect B.', elicitationId: 'elic-b' },
    ]);
    expect(toolCalls(log).map((call) => call.id)).toEqual(['aw-1', 'aw-2']);
  });

  it('retries once only: a second -32042 is the typed error, naming the URL', async () => {
    const log = logFile();
    const { seen, onUrlElicitation } = recorder();
    const client = await connect([FIXTURE_2025], log, { onUrlElicitation });
    const error = await client.callTool('always_required', {}).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(MCPCallError);
    const failure = error as MCPCallError;
    expect([failure.kind, failure.code, failure.message]).toEqual([
      'jsonrpc',
      -32042,
      'MCP server "fixture": tools/call "always_required" failed: URL elicitation required (-32042): ' +
        'open https://auth.example.test/always',
    ]);
    expect(failure.data).toEqual({
      elicitations: [
        {
          mode: 'url',
          elicitationId: 'elic-always',
          url: 'https://auth.example.test/always',
          message: 'Never enough.',
        },
      ],
    });
    expect(seen).toHaveLength(1);
    expect(toolCalls(log).map((call) => call.id)).toEqual(['aw-1', 'aw-2']);
  });

  it('without a URL handler, -32042 fails at once with the URLs, and nothing is retried', async () => {
    const log = logFile();
    const client = await connect([FIXTURE_2025], log, {});
    const error = (await client
      .callTool('connect', { account: 'gitlab' })
      .catch((e: unknown) => e)) as MCPCallError;
    expect([error.kind, error.code, error.reason]).toEqual([
      'jsonrpc',
      -32042,
      'URL elicitation required (-32042): open https://auth.example.test/connect/gitlab',
    ]);
    expect(toolCalls(log).map((call) => call.id)).toEqual(['aw-1']);
  });

  it("urlElicitationEras '2026-07-28': nothing declared, and a -32042 fails at once, the handler not asked", async () => {
    const log = logFile();
    const { seen, onUrlElicitation } = recorder();
    const client = await connect([FIXTURE_2025], log, { onUrlElicitation, urlElicitationEras: '2026-07-28' });
    const initialize = readLog(log).find((message) => message.method === 'initialize');
    expect(initialize?.params?.capabilities).toEqual({});
    const error = (await client
      .callTool('connect', { account: 'gitlab' })
      .catch((e: unknown) => e)) as MCPCallError;
    expect([error.kind, error.code, error.reason]).toEqual([
      'jsonrpc',
      -32042,
      'URL elicitation required (-32042): open https://auth.example.test/connect/gitlab',
    ]);
    expect({ seen, calls: toolCalls(log).map((call) => call.id) }).toEqual({ seen: [], calls: ['aw-1'] });
  });

  it('a declined elicitation is not retried', async () => {
    const log = logFile();
    const { seen, onUrlElicitation } = recorder('decline');
    const client = await connect([FIXTURE_2025], log, { onUrlElicitation });
    const error = (await client
      .callTool('connect', { account: 'x' })
      .catch((e: unknown) => e)) as MCPCallError;
    expect([error.kind, error.code]).toEqual(['jsonrpc', -32042]);
    expect(seen).toHaveLength(1);
    expect(toolCalls(log).map((call) => call.id)).toEqual(['aw-1']);
  });

  it('routes elicitation/create of mode url to the handler and passes on its completion once', async () => {
    const log = logFile();
    const { seen, onUrlElicitation } = recorder();
    const completed: { id: string; server: string }[] = [];
    const client = await connect([FIXTURE_2025], log, {
      onUrlElicitation,
      onUrlElicitationComplete: (id, context) => completed.push({ id, server: context.server }),
    });
    expect(await client.callTool('open_url', { step: 'checkout' })).toEqual(text('action: accept'));
    expect(seen.map((entry) => entry.elicitation)).toEqual([
      {
        url: 'https://pay.example.test/checkout',
        message: 'Pay for checkout.',
        elicitationId: 'elic-step-checkout',
      },
    ]);
    // The notifications were written before the answer; an unknown id and a repeat are ignored.
    expect(completed).toEqual([{ id: 'elic-step-checkout', server: 'fixture' }]);
    const answer = readLog(log).find((message) => message.method === undefined && message.id === 0);
    expect(answer).toEqual({ jsonrpc: '2.0', id: 0, result: { action: 'accept' } });
  });
});

describe('URL elicitation, MCP 2026-07-28', () => {
  it('answers an input_required URL elicitation through the handler and retries with its action', async () => {
    const log = logFile();
    const { seen, onUrlElicitation } = recorder();
    const client = await connect([FIXTURE_2026, '--modern-only', '--url-elicitation'], log, {
      onUrlElicitation,
    });
    expect(client.getProtocolVersion()).toBe('2026-07-28');
    expect(await client.callTool('open_url', { step: 'checkout' })).toEqual(text2026('accept checkout'));
    expect(seen).toEqual([
      {
        elicitation: { url: 'https://pay.example.test/checkout', message: 'Pay for checkout.' },
        server: 'fixture',
      },
    ]);
    const calls = toolCalls(log);
    expect(calls).toHaveLength(2);
    const capabilities = calls.map(
      (call) =>
        (call.params?._meta as Record<string, unknown> | undefined)?.[
          'io.modelcontextprotocol/clientCapabilities'
        ],
    );
    expect(capabilities).toEqual([{ elicitation: { url: {} } }, { elicitation: { url: {} } }]);
    expect(calls[1]!.params?.inputResponses).toEqual({ pay: { action: 'accept' } });
    expect(calls[0]!.params?.inputResponses).toBeUndefined();
  });

  it("urlElicitationEras '2026-07-28': a dual-era server spoken to in 2026-07-28 gets the capability", async () => {
    const log = logFile();
    const { seen, onUrlElicitation } = recorder();
    const client = await connect([FIXTURE_2026, '--url-elicitation'], log, {
      onUrlElicitation,
      urlElicitationEras: '2026-07-28',
    });
    expect(client.getProtocolVersion()).toBe('2026-07-28');
    expect(await client.callTool('open_url', { step: 'tip' })).toEqual(text2026('accept tip'));
    expect(seen.map((entry) => entry.elicitation.url)).toEqual(['https://pay.example.test/tip']);
  });

  it('a declined URL elicitation reaches the server as decline', async () => {
    const log = logFile();
    const { onUrlElicitation } = recorder('decline');
    const client = await connect([FIXTURE_2026, '--modern-only', '--url-elicitation'], log, {
      onUrlElicitation,
    });
    expect(await client.callTool('open_url', { step: 'refund' })).toEqual(text2026('decline refund'));
  });
});
