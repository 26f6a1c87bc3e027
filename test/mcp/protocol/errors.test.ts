/** MCPCallError's message is built from its fields, once; a derived error rebuilds it. */
import { describe, expect, it } from 'vitest';
import { callErrorMessage, MCPCallError } from '../../../src/mcp/protocol/errors.js';
import { redactError } from '../../../src/mcp/protocol/redact-error.js';

describe('MCPCallError', () => {
  it('builds its message from the server, method, tool and reason', () => {
    const error = new MCPCallError('timeout', 'timed out after 500 ms', {
      server: 'fs',
      method: 'tools/call',
      toolName: 'read_file',
      timeoutMs: 500,
    });
    expect(error.message).toBe('MCP server "fs": tools/call "read_file" failed: timed out after 500 ms');
    expect(error.reason).toBe('timed out after 500 ms');
    expect(callErrorMessage('x', { server: 'fs', method: 'ping' })).toBe('MCP server "fs": ping failed: x');
    expect(callErrorMessage('x', { method: 'ping' })).toBe('ping failed: x');
  });

  it('reads as its reason alone outside any request', () => {
    const error = new MCPCallError('connection_closed', 'server "fs" exited with code 1', { server: 'fs' });
    expect(error.message).toBe('server "fs" exited with code 1');
  });

  it('derives the same failure with more context, its message rebuilt', () => {
    const cause = new Error('socket hang up');
    const transport = new MCPCallError('http', 'the server answered HTTP 503', {
      server: 'api',
      method: 'request',
      status: 503,
      cause,
    });
    const derived = transport.with({ method: 'tools/call', toolName: 'search' });
    expect(derived).toBeInstanceOf(MCPCallError);
    expect(derived).toMatchObject({
      kind: 'http',
      status: 503,
      server: 'api',
      cause,
      message: 'MCP server "api": tools/call "search" failed: the server answered HTTP 503',
    });
    expect(transport.with({ reason: 'gone' }).message).toBe('MCP server "api": request failed: gone');
  });

  it('stays an MCPCallError when redacted, its reason, body and cause redacted', () => {
    const error = new MCPCallError('http', 'the server answered HTTP 401: bad token SECRET', {
      server: 'api',
      method: 'initialize',
      status: 401,
      body: 'bad token SECRET',
      cause: new Error('SECRET'),
    });
    const redacted = redactError(error, (text) => text.replaceAll('SECRET', '[redacted]'));
    expect(redacted).toBeInstanceOf(MCPCallError);
    expect(redacted).toMatchObject({
      status: 401,
      body: 'bad token [redacted]',
      message: 'MCP server "api": initialize failed: the server answered HTTP 401: bad token [redacted]',
    });
    expect(redacted.cause).toBeInstanceOf(Error);
    expect((redacted.cause as Error).message).toBe('[redacted]');
    expect((redacted.cause as Error).stack).not.toContain('SECRET');
    expect(redactError(error, (text) => text)).toBe(error);
  });
});
