import { randomUUID } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { MCPClient } from '../../../src/mcp/client/client.js';
import { MCPCallError, MCPToolError } from '../../../src/mcp/protocol/errors.js';
import { processesMatching } from '../../fixtures/processes.js';
import { EVERYTHING_TOOLS, everythingStdio, FILESYSTEM, readLog, scripted, tempDir } from '../../helpers.js';

const open: MCPClient[] = [];
const cleanups: (() => void)[] = [];
function track(client: MCPClient): MCPClient {
  open.push(client);
  return client;
}
afterEach(async () => {
  await Promise.all(open.splice(0).map((client) => client.disconnect()));
  for (const cleanup of cleanups.splice(0)) cleanup();
});

function countProcesses(marker: string): number {
  return processesMatching(marker).length;
}

describe('MCPClient against server-everything over stdio', () => {
  it('discovers the exact tool list with full JSON Schemas', async () => {
    const client = track(MCPClient.fromStdio(everythingStdio()));
    expect(client.getTools()).toEqual([]);
    await client.connect();
    expect(client.getTools().map((tool) => tool.name)).toEqual(EVERYTHING_TOOLS);
    const echo = client.getTools()[0]!;
    expect(echo.description).toBe('Echoes back the input string');
    expect(echo.inputSchema).toEqual({
      type: 'object',
      properties: { message: { type: 'string', description: 'Message to echo' } },
      required: ['message'],
      $schema: 'http://json-schema.org/draft-07/schema#',
    });
    expect(echo.source).toBe('server-everything');
    expect(client.getServerInfo()).toEqual({
      name: 'mcp-servers/everything',
      version: '2.0.0',
      title: 'Everything Reference Server',
    });
  });

  it('calls echo and get-sum', async () => {
    const client = track(MCPClient.fromStdio(everythingStdio()));
    await client.connect();
    expect(await client.callTool('echo', { message: 'hello wire' })).toEqual({
      content: [{ type: 'text', text: 'Echo: hello wire' }],
    });
    const sum = client.getTools().find((tool) => tool.name === 'get-sum')!;
    expect(await sum.execute({ a: 19, b: 23 })).toBe('The sum of 19 and 23 is 42.');
  });

  it('renders the tiny image as a placeholder with its mime type and decoded size', async () => {
    const client = track(MCPClient.fromStdio(everythingStdio()));
    await client.connect();
    const image = client.getTools().find((tool) => tool.name === 'get-tiny-image')!;
    const rendered = await image.execute({});
    expect(rendered).toBe(
      "Here's the image you requested:\n[image content: image/png, 3.9 KB]\nThe image above is the MCP logo.",
    );
  });

  it('returns structuredContent from get-structured-content', async () => {
    const client = track(MCPClient.fromStdio(everythingStdio()));
    await client.connect();
    const result = await client.callTool('get-structured-content', { location: 'New York' });
    expect(result.structuredContent).toEqual({ temperature: 33, conditions: 'Cloudy', humidity: 82 });
    expect(result.isError).toBeUndefined();
  });
});

describe('MCPClient against server-filesystem over stdio', () => {
  it('reads a file the test wrote, and reports a missing one as MCPToolError with the server text', async () => {
    const { dir, remove } = tempDir();
    cleanups.push(remove);
    writeFileSync(path.join(dir, 'note.txt'), 'agentwire was here\n');
    const client = track(MCPClient.fromStdio({ command: process.execPath, args: [FILESYSTEM, dir] }));
    await client.connect();
    const read = client.getTools().find((tool) => tool.name === 'read_text_file')!;
    expect(await read.execute({ path: path.join(dir, 'note.txt') })).toBe('agentwire was here\n');

    const missing = path.join(dir, 'missing.txt');
    const error = await read.execute({ path: missing }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(MCPToolError);
    const toolError = error as MCPToolError;
    expect(toolError.toolName).toBe('read_text_file');
    expect(toolError.result.isError).toBe(true);
    const serverText = (toolError.result.content[0] as { text: string }).text;
    expect(serverText).toContain('ENOENT');
    expect(toolError.message).toBe(
      `Tool "read_text_file" on MCP server "server-filesystem" failed: ${serverText}`,
    );
  });
});

describe('MCPClient connect and disconnect', () => {
  it('is idempotent: a second connect() performs no second handshake', async () => {
    const { dir, remove } = tempDir();
    cleanups.push(remove);
    const log = path.join(dir, 'log.jsonl');
    const client = track(MCPClient.fromStdio(scripted({ FIXTURE_LOG: log })));
    await client.connect();
    await client.connect();
    expect(readLog(log).filter((m) => m.method === 'initialize')).toHaveLength(1);
    expect(client.getState()).toBe('connected');
    await client.disconnect();
    await client.disconnect();
    expect(client.getState()).toBe('disconnected');
    expect(client.getTools()).toEqual([]);
  });

  it('shares one attempt between concurrent connect() calls', async () => {
    const { dir, remove } = tempDir();
    cleanups.push(remove);
    const log = path.join(dir, 'log.jsonl');
    const client = track(MCPClient.fromStdio(scripted({ FIXTURE_LOG: log })));
    const attempts = [client.connect(), client.connect(), client.connect()];
    expect(attempts[0]).toBe(attempts[1]);
    await Promise.all(attempts);
    expect(readLog(log).filter((m) => m.method === 'initialize')).toHaveLength(1);
    expect(readLog(log).filter((m) => m.method === 'tools/list')).toHaveLength(1);
  });

  it('follows every tools/list page', async () => {
    const tools = Array.from({ length: 7 }, (_, i) => ({ name: `t${i}`, inputSchema: { type: 'object' } }));
    const { dir, remove } = tempDir();
    cleanups.push(remove);
    const log = path.join(dir, 'log.jsonl');
    const client = track(
      MCPClient.fromStdio(
        scripted({ FIXTURE_TOOLS: JSON.stringify(tools), FIXTURE_PAGE_SIZE: '3', FIXTURE_LOG: log }),
      ),
    );
    await client.connect();
    expect(client.getTools().map((tool) => tool.name)).toEqual(['t0', 't1', 't2', 't3', 't4', 't5', 't6']);
    expect(
      readLog(log)
        .filter((m) => m.method === 'tools/list')
        .map((m) => m.params?.cursor),
    ).toEqual([undefined, '3', '6']);
  });

  it('closes the server process when discovery fails after the handshake', async () => {
    const marker = `marker=${randomUUID()}`;
    const server = scripted({ FIXTURE_TOOLS: '"not an array"' });
    server.args = [...(server.args ?? []), marker];
    const client = track(MCPClient.fromStdio(server));
    const error = await client.connect().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(MCPCallError);
    expect((error as MCPCallError).method).toBe('tools/list');
    expect(client.getState()).toBe('failed');
    expect(countProcesses(marker)).toBe(0);
  });

  it('ends the server process on disconnect()', async () => {
    const marker = `marker=${randomUUID()}`;
    const server = scripted();
    server.args = [...(server.args ?? []), marker];
    const client = track(MCPClient.fromStdio(server));
    await client.connect();
    expect(countProcesses(marker)).toBe(1);
    await client.disconnect();
    expect(countProcesses(marker)).toBe(0);
  });

  it('renders resource links by name, URI and mime type', async () => {
    const client = track(MCPClient.fromStdio(everythingStdio()));
    await client.connect();
    const links = client.getTools().find((tool) => tool.name === 'get-resource-links')!;
    expect(await links.execute({ count: 2 })).toBe(
      [
        'Here are 2 resource links to resources available in this server:',
        '[resource link: Blob Resource 1, demo://resource/dynamic/blob/1, text/plain]',
        '[resource link: Text Resource 2, demo://resource/dynamic/text/2, text/plain]',
      ].join('\n'),
    );
  });

  it('fails calls with not_connected before connect()', async () => {
    const client = track(MCPClient.fromStdio(scripted()));
    const error = await client.callTool('echo', { text: 'x' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(MCPCallError);
    expect((error as MCPCallError).kind).toBe('not_connected');
    expect((error as MCPCallError).message).toBe(
      'MCP server "scripted-server": tools/call "echo" failed: not connected (state: disconnected)',
    );
  });

  it('reports a JSON-RPC error with its code', async () => {
    const client = track(MCPClient.fromStdio(scripted()));
    await client.connect();
    const error = (await client.callTool('nope').catch((e: unknown) => e)) as MCPCallError;
    expect(error.kind).toBe('jsonrpc');
    expect(error.code).toBe(-32602);
    expect(error.message).toBe(
      'MCP server "scripted-server": tools/call "nope" failed: server returned JSON-RPC error -32602: Unknown tool: nope',
    );
  });
});
