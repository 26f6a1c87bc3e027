import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type EverythingServer, startEverything } from '../fixtures/http-everything.js';
import { jsonRpcErrorBody, type ScriptedProxy, startScriptedProxy } from '../fixtures/scripted-proxy.js';
import { cli } from './run-cli.js';

describe('agentwire against server-everything over Streamable HTTP', () => {
  let server: EverythingServer;
  beforeAll(async () => {
    server = await startEverything('streamableHttp');
  });
  afterAll(() => server?.stop());

  it('lists the tools', async () => {
    const run = await cli(['tools', '--url', server.url, '--transport', 'streamable-http']);
    expect(run.code).toBe(0);
    expect(
      run.stdout.startsWith(
        'echo: Echoes back the input string\n  message (string, required): Message to echo\n',
      ),
    );
  });

  it('calls echo (with a --header) and get-sum', async () => {
    const echo = await cli([
      'call',
      '--url',
      server.url,
      '--header',
      'X-Trace: cli-test',
      'echo',
      '{"message":"over HTTP"}',
    ]);
    expect(echo).toEqual({ code: 0, stdout: 'Echo: over HTTP\n', stderr: '' });
    const sum = await cli(['call', '--url', server.url, 'get-sum', '{"a":0.5,"b":0.25}']);
    expect(sum).toEqual({ code: 0, stdout: 'The sum of 0.5 and 0.25 is 0.75.\n', stderr: '' });
  });

  it('renders the tiny image placeholder', async () => {
    const run = await cli(['call', '--url', server.url, 'get-tiny-image']);
    expect(run.stdout).toBe(
      "Here's the image you requested:\n[image content: image/png, 3.9 KB]\nThe image above is the MCP logo.\n",
    );
  });

  it('exits 3 naming the HTTP status when the endpoint does not exist', async () => {
    const run = await cli([
      'call',
      '--url',
      server.url.replace('/mcp', '/nowhere'),
      '--transport',
      'streamable-http',
      'echo',
    ]);
    expect(run.code).toBe(3);
    expect(run.stdout).toBe('');
    // One line explaining the server's 404 page (several lines of HTML), rather than quoting it.
    expect(run.stderr).toBe(
      `error: MCP server "${new URL(server.url).host}": initialize failed: the server answered HTTP 404 with ` +
        'an HTML page, not MCP: is the URL its MCP endpoint (often …/mcp)?\n',
    );
  });
});

describe('agentwire against a 2025 server whose probe answer is HTTP 500 with a JSON-RPC -32603 body', () => {
  let server: EverythingServer;
  let proxy: ScriptedProxy;
  beforeAll(async () => {
    server = await startEverything('streamableHttp');
    proxy = await startScriptedProxy(server.url);
    proxy.script = (message) =>
      message.method === 'server/discover'
        ? {
            answer: {
              status: 500,
              contentType: 'application/json',
              body: jsonRpcErrorBody(-32603, 'Internal error'),
            },
          }
        : undefined;
  });
  afterAll(async () => {
    await proxy?.close();
    await server?.stop();
  });

  it('lists the tools, and -v shows the probe, its outcome, then initialize', async () => {
    const run = await cli(['tools', '-v', '--url', proxy.url]);
    expect(run.code).toBe(0);
    expect(run.stdout.startsWith('echo: Echoes back the input string\n')).toBe(true);
    const host = new URL(proxy.url).host;
    // Probe ids count up through the process (this file's earlier runs probed too).
    const wire = run.stderr
      .split('\n')
      .map((line) => line.replace(/\(\d+ ms\)/, '(N ms)').replace(/#probe-\d+/, '#probe-1'));
    expect(wire.slice(0, 4)).toEqual([
      `wire: ${host} → #probe-1 server/discover`,
      `wire: ${host} ← #probe-1 server/discover failed: HTTP 500, error -32603 (N ms)`,
      `wire: ${host} → #0 initialize`,
      `wire: ${host} ← #0 initialize result (N ms)`,
    ]);
  });
});
