/**
 * The sealed `Mcp-Session-Id` of 2025-era HTTP sessions (src/gateway/session-seal.ts): what is sealed opens
 * to the same fields under the same secret on another instance (another process), and never when one byte
 * is changed, under another secret, past its age or from the future; the secret must be 32 characters at
 * least; the caller digest tells callers apart and ignores the token itself.
 */

import type { AuthInfo } from '@modelcontextprotocol/server';
import { describe, expect, it } from 'vitest';
import { withCaller } from '../../src/gateway/caller.js';
import { callerDigest, type SealedSession, SessionSeal } from '../../src/gateway/session-seal.js';

const SECRET = 'a-shared-secret-of-at-least-32-characters';
const SESSION: SealedSession = {
  protocolVersion: '2025-11-25',
  capabilities: { elicitation: { form: {} } },
  clientInfo: { name: 'client', version: '1.0.0' },
  key: 'k3y',
  caller: 'digest',
  createdAt: 1_000_000,
};

describe('SessionSeal', () => {
  it('opens on another instance with the same secret, to the very fields sealed', () => {
    const id = new SessionSeal(SECRET, 60_000).seal(SESSION);
    expect(id).toMatch(/^v1\.[A-Za-z0-9_-]+$/);
    expect(id).not.toContain('client');
    expect(new SessionSeal(SECRET, 60_000).open(id, 1_000_500)).toEqual(SESSION);
  });

  it('refuses an id with any byte changed, under another secret, expired, from the future, or not one', () => {
    const seal = new SessionSeal(SECRET, 60_000);
    const id = seal.seal(SESSION);
    const body = Buffer.from(id.slice(3), 'base64url');
    for (const at of [0, 12, body.length - 1]) {
      const changed = Buffer.from(body);
      changed[at] = (changed[at] as number) ^ 1;
      expect(seal.open(`v1.${changed.toString('base64url')}`, 1_000_500)).toBeUndefined();
    }
    expect(new SessionSeal(`${SECRET}!`, 60_000).open(id, 1_000_500)).toBeUndefined();
    expect(seal.open(id, 1_060_001)).toBeUndefined();
    expect(seal.open(id, 1_000_000 - 60_001)).toBeUndefined();
    expect(seal.open('not-an-id', 1_000_500)).toBeUndefined();
    expect(SessionSeal.ephemeral(60_000).open(id, 1_000_500)).toBeUndefined();
  });

  it('wants a secret of 32 characters at least', () => {
    expect(() => new SessionSeal('short', 60_000)).toThrow(RangeError);
  });

  it('binds to the caller (client id, subject), not to its token', () => {
    const info = (clientId: string, sub: string, token = 't1'): AuthInfo => ({
      token,
      clientId,
      scopes: [],
      extra: { sub },
    });
    const a = callerDigest(info('a', 'u1'));
    expect(callerDigest(info('a', 'u1', 't2'))).toBe(a);
    expect(callerDigest(info('a', 'u2'))).not.toBe(a);
    expect(callerDigest(info('b', 'u1'))).not.toBe(a);
  });

  it("binds to the gateway's caller: two JWT users of one OAuth client never share a session", () => {
    const user = (sub: string, token: string) =>
      withCaller(
        { token, clientId: 'shared-app', scopes: ['mcp:read'], expiresAt: 2_000_000_000 },
        { auth: 'jwt', id: sub, scopes: ['mcp:read'], claims: { sub } },
      );
    const alice = callerDigest(user('alice', 'token-a1'));
    expect(callerDigest(user('alice', 'token-a2'))).toBe(alice);
    expect(callerDigest(user('bob', 'token-b1'))).not.toBe(alice);
    expect(callerDigest(undefined)).not.toBe(alice);
  });
});
