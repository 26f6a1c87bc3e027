import type { RequestListener } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { MCPClient } from '../../../src/mcp/client/client.js';
import { MCPCallError, MCPConfigError } from '../../../src/mcp/protocol/errors.js';
import { httpRedactor } from '../../../src/mcp/protocol/redact.js';
import { type LoopbackServer, listenOnLoopback } from '../../fixtures/loopback.js';

describe('httpRedactor', () => {
  it('replaces header values, bearer tokens, query values, the password and the full URL', () => {
    const redact = httpRedactor(new URL('https://mcp.example.com/mcp?token=QUERYSECRET&v=1'), {
      Authorization: 'Bearer TOKENSECRET',
      'X-Api-Key': 'KEYSECRET',
    });
    expect(
      redact(
        'GET https://mcp.example.com/mcp?token=QUERYSECRET&v=1 -> invalid Bearer TOKENSECRET, TOKENSECRET, KEYSECRET, QUERYSECRET, v=1',
      ),
    ).toBe('GET https://mcp.example.com/mcp -> invalid [redacted], [redacted], [redacted], [redacted], v=1');
  });
});

describe('fromUrl input checks', () => {
  it('refuses credentials in the URL without quoting it', () => {
    const error = (() => {
      try {
        MCPClient.fromUrl('http://user:PASSWORDSECRET@localhost:1/mcp?x=QUERYSECRET');
      } catch (e) {
        return e as Error;
      }
    })();
    expect(error).toBeInstanceOf(MCPConfigError);
    expect(error?.message).toBe(
      'the server URL must not contain credentials (user:password@); send them in a header such as Authorization',
    );
  });

  it('refuses a header value with a line break, naming the header only', () => {
    expect(() =>
      MCPClient.fromUrl('http://localhost:1/mcp', { headers: { 'X-Token': 'AB\nSECRET' } }),
    ).toThrow(new MCPConfigError('header "X-Token": the value must be a string without line breaks or NUL'));
  });

  it('refuses an invalid header name', () => {
    expect(() => MCPClient.fromUrl('http://localhost:1/mcp', { headers: { 'Bad Name': 'v' } })).toThrow(
      MCPConfigError,
    );
  });
});

describe('errors from HTTP servers that echo credentials', () => {
  let server: LoopbackServer | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });

  async function listen(handler: RequestListener): Promise<string> {
    server = await listenOnLoopback(handler);
    return `${server.origin}/mcp`;
  }

  it('never carries the header value the server echoed back', async () => {
    const url = await listen((req, res) => {
      res.writeHead(401, { 'content-type': 'text/plain' });
      res.end(`invalid credentials: ${req.headers.authorization}`);
    });
    // Pinned to 2025-11-25 so that `initialize` is the request refused; 'auto' is the next test.
    const client = MCPClient.fromUrl(url, {
      headers: { Authorization: 'Bearer HDRSECRET' },
      protocolVersion: '2025-11-25',
    });
    const events: unknown[] = [];
    client.on('error', (e) => events.push(e));
    client.on('log', (e) => events.push(e));
    const error = (await client.connect().catch((e) => e)) as MCPCallError;
    await client.disconnect();
    expect(error).toBeInstanceOf(MCPCallError);
    expect(error.status).toBe(401);
    expect(error.message).toBe(
      `MCP server "${new URL(url).host}": initialize failed: the server answered HTTP 401: invalid credentials: [redacted]`,
    );
    expect(error.body).toBe('invalid credentials: [redacted]');
    expect(JSON.stringify([error.message, error.body, events.map(String)])).not.toContain('HDRSECRET');
  });

  it("never carries the echoed header value when the 401 answers 'auto''s server/discover probe", async () => {
    const url = await listen((req, res) => {
      res.writeHead(401, { 'content-type': 'text/plain' });
      res.end(`invalid credentials: ${req.headers.authorization}`);
    });
    const client = MCPClient.fromUrl(url, { headers: { Authorization: 'Bearer HDRSECRET' } });
    const events: unknown[] = [];
    client.on('error', (e) => events.push(e));
    client.on('log', (e) => events.push(e));
    const error = (await client.connect().catch((e) => e)) as MCPCallError;
    await client.disconnect();
    expect(error).toBeInstanceOf(MCPCallError);
    expect(error.status).toBe(401);
    expect(error.message).toBe(
      `MCP server "${new URL(url).host}": server/discover failed: the server answered HTTP 401: invalid credentials: [redacted]`,
    );
    expect(error.body).toBe('invalid credentials: [redacted]');
    expect(JSON.stringify([error.message, error.body, events.map(String)])).not.toContain('HDRSECRET');
  });

  it('names both failures when Streamable HTTP is refused and the SSE fallback fails too', async () => {
    const url = await listen((_req, res) => {
      res.writeHead(404, { 'content-type': 'text/plain' });
      res.end('no such endpoint');
    });
    const client = MCPClient.fromUrl(url);
    const error = (await client.connect().catch((e) => e)) as MCPCallError;
    await client.disconnect();
    expect(error.kind).toBe('http');
    expect(error.status).toBe(404);
    expect(error.message).toBe(
      `MCP server "${new URL(url).host}": initialize failed: the server answered HTTP 404: no such endpoint; the HTTP+SSE fallback failed too: the server answered HTTP 404: no such endpoint`,
    );
  });
});
