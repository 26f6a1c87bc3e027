/**
 * The README's DPoP example is examples/dpop.ts, verbatim; this test type-checks that file against the
 * sources and runs it against an authorization server and a resource server that verify every DPoP proof
 * (fixtures/dpop-server.ts), in front of server-everything.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { OAuthClientProvider } from '@modelcontextprotocol/client';
import ts from 'typescript';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { MCPClient } from '../src/mcp/client/client.js';
import { DpopFixture } from './fixtures/dpop-server.js';
import { type EverythingServer, startEverything } from './fixtures/http-everything.js';
import { approve, MemoryOAuthProvider } from './mcp/transports/http/memory-provider.js';

// `agentwire` is the package itself; in the tests it is the sources, so no build is needed.
vi.mock('agentwire', () => import('../src/index.js'));

const examplePath = path.resolve('examples/dpop.ts');

/** The example's export, as the test uses it. */
type ConnectWithDpop = (
  url: string,
  authProvider: OAuthClientProvider,
  redirected: () => Promise<URL>,
) => Promise<MCPClient>;

/** The body of the first fenced block of `language` after the heading `heading`. */
function fencedBlock(heading: string, language: string): string {
  const readme = readFileSync('README.md', 'utf8');
  const start = readme.indexOf(`\n${heading}\n`);
  if (start < 0) throw new Error(`README has no heading "${heading}"`);
  const open = readme.indexOf(`\n\`\`\`${language}\n`, start);
  const close = readme.indexOf('\n```\n', open + 1);
  if (open < 0 || close < 0) throw new Error(`README has no \`\`\`${language} block under "${heading}"`);
  return readme.slice(open + language.length + 5, close + 1);
}

describe('README DPoP example', () => {
  let server: EverythingServer;
  beforeAll(async () => {
    server = await startEverything('streamableHttp');
  }, 30_000);
  afterAll(() => server?.stop());

  it('shows examples/dpop.ts verbatim', () => {
    expect(fencedBlock('### DPoP-bound tokens', 'ts')).toBe(readFileSync(examplePath, 'utf8'));
  });

  it('type-checks under the project settings', () => {
    const config = ts.getParsedCommandLineOfConfigFile(
      'tsconfig.json',
      {},
      {
        ...ts.sys,
        onUnRecoverableConfigFileDiagnostic: (diagnostic) => {
          throw new Error(ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n'));
        },
      },
    );
    if (!config) throw new Error('tsconfig.json could not be read');
    const options = { ...config.options, noEmit: true, paths: { agentwire: [path.resolve('src/index.ts')] } };
    const program = ts.createProgram([examplePath], options);
    const problems = ts
      .getPreEmitDiagnostics(program, program.getSourceFile(examplePath))
      .map((diagnostic) => ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n'));
    expect(problems).toEqual([]);
  });

  it('connects with DPoP-bound tokens, every proof verified', async () => {
    const fixture = await DpopFixture.start({ upstream: new URL(server.url).origin, requireNonce: true });
    try {
      const provider = new MemoryOAuthProvider();
      // A computed specifier and a type of its own: tsc must not follow the example (its `agentwire` import
      // resolves to dist/ only after a build, and `npm test` type-checks before it builds).
      const { connectWithDpop } = (await import(examplePath)) as { connectWithDpop: ConnectWithDpop };
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
