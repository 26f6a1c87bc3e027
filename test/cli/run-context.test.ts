/**
 * `agentwire run` and what reaches its model: sampling answered with the run's model, the result budget
 * (`--max-result-bytes`), a JSON-RPC error's data (in the tool line and on `call`'s error line), and the
 * model timeouts (`--model-idle-timeout`, `--model-timeout`).
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { quote } from 'shell-quote';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { startFakeAnthropic } from '../fixtures/fake-anthropic.js';
import { startFakeOpenAI } from '../fixtures/fake-openai.js';
import { useFakeModelServer } from '../fixtures/use-fake-model-server.js';
import { ROOT, tempDir } from '../helpers.js';
import { cli, EVERYTHING } from './run-cli.js';

const CONTEXT_SCRIPT = path.join(ROOT, 'test', 'agent', 'fixtures', 'context-server.mjs');
const CONTEXT = quote([process.execPath, CONTEXT_SCRIPT]);
const PROVIDER_VARS = [
  'ANTHROPIC_API_KEY',
  'ANTHROPIC_BASE_URL',
  'OPENAI_API_KEY',
  'OPENAI_BASE_URL',
  'AGENTWIRE_MODEL',
];
/** The tool_result blocks of an Anthropic request body's last message. */
function lastToolResults(
  body: Record<string, unknown> | undefined,
): { tool_use_id: string; content: string }[] {
  const messages = (body?.messages ?? []) as { content: unknown }[];
  const content = messages.at(-1)?.content;
  return Array.isArray(content) ? content : [];
}
const timeless = (text: string) => text.replace(/\(\d+ ms\)/g, '(N ms)');

beforeEach(() => {
  for (const name of PROVIDER_VARS) vi.stubEnv(name, undefined);
});
afterEach(() => {
  vi.unstubAllEnvs();
});

describe('agentwire run: sampling, budget, error data (Anthropic wire format)', () => {
  const fake = useFakeModelServer(startFakeAnthropic);
  beforeEach(() => {
    vi.stubEnv('ANTHROPIC_API_KEY', 'sk-ant-test');
    vi.stubEnv('ANTHROPIC_BASE_URL', fake.baseURL);
  });

  it("answers a server's sampling/createMessage with the run's model", async () => {
    fake.script(
      {
        toolCalls: [
          { id: 's1', name: 'trigger-sampling-request', input: { prompt: 'say hi', maxTokens: 64 } },
        ],
      },
      { text: 'sampled hi' },
      { text: 'The server sampled.' },
    );
    const run = await cli([
      'run',
      'Sample.',
      '--stdio',
      EVERYTHING,
      '--model',
      'anthropic:claude-test',
      '--yes',
    ]);
    expect(run.code).toBe(0);
    expect(run.stderr).toBe('');
    expect(fake.requests[1]).toMatchObject({
      model: 'claude-test',
      max_tokens: 64,
      messages: [{ role: 'user', content: 'Resource trigger-sampling-request context: say hi' }],
    });
    expect(fake.requests[1]?.tools).toBeUndefined();
    const [toolResult] = lastToolResults(fake.requests[2]);
    expect(JSON.parse(toolResult!.content.replace(/^LLM sampling result: \n/, ''))).toEqual({
      role: 'assistant',
      content: { type: 'text', text: 'sampled hi' },
      model: 'claude-test',
      stopReason: 'endTurn',
    });
  });

  it('holds results to --max-result-bytes and shows a JSON-RPC error with its data', async () => {
    fake.script(
      {
        toolCalls: [
          { id: 'b1', name: 'big', input: { bytes: 50_000 } },
          { id: 'e1', name: 'bad', input: {} },
        ],
      },
      { text: 'Seen.' },
    );
    const run = await cli(['run', 'Go.', '--stdio', CONTEXT, '--max-result-bytes', '1000', '--yes']);
    expect(run.code).toBe(0);
    const results = lastToolResults(fake.requests[1]);
    const big = results.find((r) => r.tool_use_id === 'b1')!.content;
    expect(Buffer.byteLength(big)).toBeLessThanOrEqual(1_000);
    expect(big.startsWith('line 000001\n')).toBe(true);
    expect(big).toContain('[agentwire cut ');
    expect(big).toContain(' of 50,000 bytes here (lines ');
    const bad =
      'MCPCallError: MCP server "context-server": tools/call "bad" failed: server returned JSON-RPC error -32602: bad args (data: {"field":"x","hint":"use y"})';
    expect(results.find((r) => r.tool_use_id === 'e1')!.content).toBe(bad);
    expect(timeless(run.stdout)).toContain(`  ✗ bad (N ms) ${bad}\n`);
  });

  it("puts a configured server's instructions in the system prompt", async () => {
    const dir = tempDir('agentwire-run-config-');
    try {
      const config = path.join(dir.dir, 'mcp.json');
      const server = {
        command: process.execPath,
        args: [CONTEXT_SCRIPT],
        env: { CONTEXT_INSTRUCTIONS: 'Prefer big.' },
      };
      writeFileSync(config, JSON.stringify({ mcpServers: { ctx: server } }));
      fake.script({ text: 'ok' });
      const run = await cli(['run', 'Hi.', '--config', config]);
      expect(run.code).toBe(0);
      expect(fake.requests[0]?.system).toBe('Instructions from MCP server "ctx":\nPrefer big.');
    } finally {
      dir.remove();
    }
  });

  it('rejects a --max-result-bytes too small for the cut notice', async () => {
    const run = await cli(['run', 'Go.', '--stdio', CONTEXT, '--max-result-bytes', '999']);
    expect(run.code).toBe(2);
    expect(run.stderr).toBe(
      "error: option '--max-result-bytes <n>' argument '999' is invalid. Expected a whole number of bytes, at least 1000.\n(add --help for usage)\n",
    );
    expect(fake.requests).toEqual([]);
  });
});

describe('agentwire call: the error line carries the JSON-RPC data', () => {
  it('prints data after the message', async () => {
    const run = await cli(['call', 'bad', '--stdio', CONTEXT]);
    expect(run).toEqual({
      code: 3,
      stdout: '',
      stderr:
        'error: MCP server "context-server": tools/call "bad" failed: server returned JSON-RPC error -32602: bad args (data: {"field":"x","hint":"use y"})\n',
    });
  });
});

describe('agentwire run: model timeouts (OpenAI wire format)', () => {
  const fake = useFakeModelServer(startFakeOpenAI);
  beforeEach(() => {
    vi.stubEnv('OPENAI_API_KEY', 'sk-test');
    vi.stubEnv('OPENAI_BASE_URL', fake.baseURL);
  });

  it('--model-idle-timeout ends a stalled stream with exit code 3', async () => {
    fake.script({ hang: true, text: 'hmm' });
    const run = await cli(['run', 'Think.', '--stdio', CONTEXT, '--model-idle-timeout', '300']);
    expect(run).toEqual({
      code: 3,
      stdout: 'hmm\n',
      stderr: 'error: openai request timed out: the stream sent nothing for 300 ms (--model-idle-timeout)\n',
    });
  });

  it('--model-timeout bounds the whole request', async () => {
    fake.script({ hang: true, text: 'hmm' });
    const run = await cli(['run', 'Think.', '--stdio', CONTEXT, '--model-timeout', '400']);
    expect(run).toEqual({
      code: 3,
      stdout: 'hmm\n',
      stderr: 'error: openai request timed out: the request took longer than 400 ms (--model-timeout)\n',
    });
  });
});
