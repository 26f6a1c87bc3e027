/**
 * The direct 2026-07-28 `tools/call` path (session/modern-calls.ts) against a server that breaks the rules the
 * SDK's server enforces (test/fixtures/era2026/raw-server.mjs): input it has no handler for fails the call at
 * once without re-sending it (MCP spec 2026-07-28, "Client > Sampling > Error Handling": the server is not
 * waiting for an answer); an input request of another method and an unknown `resultType` are invalid
 * ("Basic > Responses > ResultType"); an absent `resultType` means complete (same section).
 */
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { MCPClient, type MCPClientOptions } from '../../../src/mcp/client/client.js';
import { MCPCallError } from '../../../src/mcp/protocol/errors.js';
import { ROOT, readLog, tempDir } from '../../helpers.js';

const RAW_SERVER = path.join(ROOT, 'test/fixtures/era2026/raw-server.mjs');

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

async function connect(options: MCPClientOptions = {}) {
  const temp = tempDir();
  const log = path.join(temp.dir, 'log.jsonl');
  const mcp = MCPClient.fromStdio(
    { command: process.execPath, args: [RAW_SERVER], env: { RAW_LOG: log } },
    { name: 'raw', ...options },
  );
  cleanups.push(temp.remove, () => mcp.disconnect());
  await mcp.connect();
  expect(mcp.getProtocolVersion()).toBe('2026-07-28');
  const calls = () => readLog(log).filter((m) => m.method === 'tools/call');
  return { mcp, calls };
}

async function failure(promise: Promise<unknown>): Promise<MCPCallError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(MCPCallError);
  return error as MCPCallError;
}

describe('2026-07-28 input and result rules, direct path', () => {
  it('input the client has no handler for fails at once, typed, and nothing is re-sent', async () => {
    const { mcp, calls } = await connect();
    const error = await failure(mcp.callTool('ask_sampling', {}));
    expect([error.kind, error.inputMethod, error.toolName, error.server]).toEqual([
      'input_required',
      'sampling/createMessage',
      'ask_sampling',
      'raw',
    ]);
    expect(error.message).toBe(
      'MCP server "raw": tools/call "ask_sampling" failed: asked for sampling/createMessage, which this client has no handler for',
    );
    expect(calls()).toHaveLength(1);
  });

  it('the same input with onSampling is answered and re-sent', async () => {
    const { mcp, calls } = await connect({
      onSampling: async () => ({ role: 'assistant', content: { type: 'text', text: 'ok' }, model: 'm' }),
    });
    const result = await mcp.callTool('ask_sampling', {});
    expect(result.content).toEqual([{ type: 'text', text: 'answered' }]);
    expect(calls().map((m) => m.params?.inputResponses)).toEqual([
      undefined,
      { s: { role: 'assistant', content: { type: 'text', text: 'ok' }, model: 'm' } },
    ]);
  });

  it('an input request of another method is a protocol error, not re-sent', async () => {
    const { mcp, calls } = await connect();
    const error = await failure(mcp.callTool('bad_method', {}));
    expect([error.kind, error.reason]).toEqual([
      'protocol',
      "invalid result: Invalid input request 'x': 'tools/list' is not an embedded request the 2026-07-28 revision defines (expected elicitation/create, sampling/createMessage, or roots/list)",
    ]);
    expect(calls()).toHaveLength(1);
  });

  it('an unknown resultType is a protocol error', async () => {
    const { mcp } = await connect();
    const error = await failure(mcp.callTool('odd_type', {}));
    expect([error.kind, error.reason]).toEqual([
      'protocol',
      "Unsupported result type 'partial' for tools/call",
    ]);
  });

  it('an absent resultType means complete', async () => {
    const { mcp } = await connect();
    const result = await mcp.callTool('no_type', {});
    expect(result.content).toEqual([{ type: 'text', text: 'no resultType' }]);
  });
});
