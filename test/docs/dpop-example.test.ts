/**
 * The DPoP example of docs/authorization.md is examples/dpop.ts, verbatim (the docs' blocks test
 * type-checks it); this test runs it against an authorization server and a resource server that verify
 * every DPoP proof (fixtures/dpop-server.ts), in front of server-everything.
 */
import type { OAuthClientProvider } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { MCPClient } from '../../src/mcp/client/client.js';
import { DpopFixture } from '../fixtures/dpop-server.js';
import { type EverythingServer, startEverything } from '../fixtures/http-everything.js';
import { approve, MemoryOAuthProvider } from '../mcp/transports/http/memory-provider.js';
import { examplePath, exampleText } from './examples.js';
import { docBlock } from './markdown.js';

// `agentwire` is the package itself; in the tests it is the sources, so no build is needed.
vi.mock('agentwire', () => import('../../src/index.js'));

const dpopPath = examplePath('dpop.ts');

/** The example's export, as the test uses it. */
type ConnectWithDpop = (
  url: string,
  authProvider: OAuthClientProvider,
  redirected: () => Promise<URL>,
) => Promise<MCPClient>;

describe('the DPoP example (docs/authorization.md)', () => {
  let server: EverythingServer;
  beforeAll(async () => {
    server = await startEverything('streamableHttp');
  }, 30_000);
  afterAll(() => server?.stop());

  it('shows examples/dpop.ts verbatim', () => {
    expect(docBlock('docs/authorization.md', '## DPoP-bound tokens', 'ts')).toBe(exampleText(dpopPath));
  });

  it('connects with DPoP-bound tokens, every proof verified', async () => {
    const fixture = await DpopFixture.start({ upstream: new URL(server.url).origin, requireNonce: true });
    try {
      const provider = new MemoryOAuthProvider();
      // A computed specifier and a type of its own: tsc must not follow the example (its `agentwire` import
      // resolves to dist/ only after a build, and `npm test` type-checks before it builds).
      const { connectWithDpop } = (await import(dpopPath)) as { connectWithDpop: ConnectWithDpop };
      const client = await connectWithDpop(fixture.url('/mcp'), provider, () =>
        approve(provider.authorizationUrls.at(-1)),
      );
      try {
        expect((await client.callTool('echo', { message: 'bound' })).content).toEqual([
          { type: 'text', text: 'Echo: bound' },
        ]);
      } finally {
        await client.disconnect();
      }
      expect(provider.tokens()?.token_type).toBe('DPoP');
      const authenticated = fixture.proofs.filter((p) => p.path !== '/token' && p.verdict !== 'no token');
      expect(authenticated.length).toBeGreaterThan(3);
      expect(authenticated.filter((p) => p.verdict !== 'ok').map((p) => p.verdict)).toEqual([
        'use_dpop_nonce',
      ]);
      expect(authenticated.every((p) => p.scheme === 'DPoP')).toBe(true);
    } finally {
      await fixture.close();
    }
  });
});
