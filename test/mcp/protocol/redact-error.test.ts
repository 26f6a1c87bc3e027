import { ProtocolError } from '@modelcontextprotocol/client';
import { describe, expect, it } from 'vitest';
import { MCPCallError } from '../../../src/mcp/protocol/errors.js';
import { envSecrets, httpSecrets } from '../../../src/mcp/protocol/redact.js';
import { redactError, redactValue } from '../../../src/mcp/protocol/redact-error.js';

const redact = httpSecrets(new URL('http://h/mcp'), { 'X-Api-Key': 'KEY-VALUE-1' }).redact;

describe('redactValue and redactError', () => {
  it('returns the very value when it holds no secret, cause chain and data included', () => {
    const cause = Object.assign(new TypeError('fetch failed'), { code: 'ECONNREFUSED' });
    const error = new MCPCallError('jsonrpc', 'x', { data: { a: ['b'] }, cause });
    expect(redactError(error, redact)).toBe(error);
    const data = { nested: [{ text: 'nothing' }] };
    expect(redactValue(data, redact)).toBe(data);
  });

  it('copies a foreign cause with its prototype, name, code and fields, strings redacted', () => {
    const inner = Object.assign(new TypeError('bad KEY-VALUE-1'), { code: 'E_X', input: '?k=KEY-VALUE-1' });
    const cause = new ProtocolError(-32000, 'echo KEY-VALUE-1', { header: 'KEY-VALUE-1', n: 1 });
    Object.defineProperty(cause, 'cause', { value: inner, enumerable: false, configurable: true });
    const error = new MCPCallError('jsonrpc', 'x', { data: cause.data, cause });
    const redacted = redactError(error, redact) as MCPCallError;
    const copy = redacted.cause as ProtocolError;
    expect(copy).toBeInstanceOf(ProtocolError);
    expect(copy).not.toBe(cause);
    expect([copy.name, copy.code, copy.message, copy.data]).toEqual([
      cause.name,
      -32000,
      'echo [redacted]',
      { header: '[redacted]', n: 1 },
    ]);
    expect(copy.stack).not.toContain('KEY-VALUE-1');
    const innerCopy = copy.cause as TypeError & { code: string; input: string };
    expect([innerCopy instanceof TypeError, innerCopy.code, innerCopy.input, innerCopy.message]).toEqual([
      true,
      'E_X',
      '?k=[redacted]',
      'bad [redacted]',
    ]);
    expect(redacted.data).toEqual({ header: '[redacted]', n: 1 });
  });

  it('copies an error whose message is a prototype getter (DOMException) as a plain Error of its name', () => {
    const error = new DOMException('aborted with KEY-VALUE-1', 'AbortError');
    const copy = redactValue(error, redact) as Error & { code: number };
    expect([copy.name, copy.message, copy.code]).toEqual(['AbortError', 'aborted with [redacted]', 20]);
  });

  it('copies a cycle as a cycle of copies, and keeps a clean one', () => {
    const a: Record<string, unknown> = { text: 'KEY-VALUE-1' };
    a.self = a;
    const copy = redactValue(a, redact) as Record<string, unknown>;
    expect(copy.text).toBe('[redacted]');
    expect(copy.self).toBe(copy);
    const clean: Record<string, unknown> = { text: 'clean' };
    clean.self = clean;
    expect(redactValue(clean, redact)).toBe(clean);
  });

  it('redacts env values of 8 characters or more, as given and percent-encoded', () => {
    const env = envSecrets({ TOKEN: 'a b/c-secret', SHORT: 'seven77' }).redact;
    expect(env('a b/c-secret a%20b%2Fc-secret seven77')).toBe('[redacted] [redacted] seven77');
  });
});
