/**
 * One naming rule for servers across `agentwire call` and `agentwire run`, through the built CLI: the same
 * flags (or config entry) give the same server name in both commands' errors and output.
 */
import { writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import path from 'node:path';
import { quote } from 'shell-quote';
import { beforeAll, describe, expect, it } from 'vitest';
import { startFakeAnthropic } from '../fixtures/fake-anthropic.js';
import { useFakeModelServer } from '../fixtures/use-fake-model-server.js';
import { tempDir } from '../helpers.js';
import { ensureBuilt, fakeAnthropicEnv, runBuilt } from './built-cli.js';
import { EVERYTHING } from './run-cli.js';

const fake = useFakeModelServer(startFakeAnthropic);

beforeAll(() => {
  ensureBuilt();
}, 120_000);

const env = () => fakeAnthropicEnv(fake.baseURL);

/** A local port nothing listens on (bound, then closed). */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** The stderr of `call <tool>` and of `run <prompt>` with the same server flags. */
async function bothCommands(flags: string[]): Promise<{ call: string; run: string }> {
  const call = await runBuilt(['call', 'echo', ...flags], { env: env() });
  const run = await runBuilt(['run', 'Hi.', ...flags], { env: env() });
  expect([call.code, run.code]).toEqual([3, 3]);
  return { call: call.stderr, run: run.stderr };
}

describe('server names in call and run', () => {
  it('a --stdio server is named after its script in both', async () => {
    const missing = path.join(path.sep, 'nonexistent', 'weather-server.js');
    const line =
      'error: MCP server "weather-server": initialize failed: server "weather-server" exited with code 1; ' +
      `last stderr: Error: Cannot find module '${missing}'\n`;
    expect(await bothCommands(['--stdio', quote([process.execPath, missing])])).toEqual({
      call: line,
      run: line,
    });
  }, 60_000);

  it('a --url server is named after its host and port in both', async () => {
    const port = await closedPort();
    const result = await bothCommands(['--url', `http://127.0.0.1:${port}/mcp`]);
    const line = `error: MCP server "127.0.0.1:${port}": server/discover failed: connect ECONNREFUSED 127.0.0.1:${port}\n`;
    expect(result).toEqual({ call: line, run: line });
  }, 60_000);

  it('a --config server is named after its entry in both', async () => {
    const dir = tempDir('agentwire-names-');
    try {
      const file = path.join(dir.dir, 'mcp.json');
      const missing = path.join(dir.dir, 'gone.js');
      writeFileSync(
        file,
        JSON.stringify({ mcpServers: { weather: { command: process.execPath, args: [missing] } } }),
      );
      const line =
        'error: MCP server "weather": initialize failed: server "weather" exited with code 1; ' +
        `last stderr: Error: Cannot find module '${missing}'\n`;
      expect(await bothCommands(['--config', file])).toEqual({ call: line, run: line });
    } finally {
      dir.remove();
    }
  }, 60_000);

  it("a server that connects carries the same name in run's tool lines as in call's errors", async () => {
    const call = await runBuilt(['call', 'no-such-tool', '--stdio', EVERYTHING], { env: env() });
    fake.script(
      { toolCalls: [{ id: 'toolu_1', name: 'echo', input: { message: 'hi' } }] },
      { text: 'Done.' },
    );
    const run = await runBuilt(['run', 'Echo.', '--stdio', EVERYTHING], { env: env() });
    expect({ call, run: { ...run, stdout: run.stdout.replace(/\(\d+ ms\)/g, '(N ms)') } }).toEqual({
      call: {
        code: 2,
        stdout: '',
        stderr:
          'error: server "server-everything" has no tool "no-such-tool" (available: echo, get-annotated-message, ' +
          'get-env, get-resource-links, get-resource-reference, get-structured-content, get-sum, get-tiny-image, ' +
          'gzip-file-as-resource, toggle-simulated-logging, toggle-subscriber-updates, ' +
          'trigger-long-running-operation, simulate-research-query)\n',
      },
      run: {
        code: 0,
        stdout: '▸ echo [server-everything] {"message":"hi"}\n  ✓ echo (N ms) Echo: hi\nDone.\n',
        stderr: '',
      },
    });
  }, 60_000);
});
