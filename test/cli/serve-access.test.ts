/**
 * `agentwire serve` with the access keys of its configuration: JWTs of a real OpenID provider and no static
 * token, a policy, and the audit lines appended to a file (docs/gateway-access.md). Uses the built CLI.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type OidcIssuer, startOidcIssuer } from '../fixtures/oidc-issuer.js';
import { sdkHttpClient } from '../gateway/fleet.js';
import { EVERYTHING } from '../helpers.js';
import { ensureBuilt, plainEnv, startCli } from './built-cli.js';

const AUDIENCE = 'https://gateway.test/mcp';
let issuer: OidcIssuer;
let dir: string;

beforeAll(async () => {
  ensureBuilt();
  issuer = await startOidcIssuer([{ id: 'support-bot', groups: ['support'] }]);
  dir = mkdtempSync(path.join(tmpdir(), 'agentwire-serve-access-'));
}, 60_000);

afterAll(async () => {
  await issuer?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('agentwire serve with JWTs, a policy and an audit file', () => {
  it('serves the callers the policy lets in, refuses the rest, and writes one audit line per call', async () => {
    const config = path.join(dir, 'gateway.json');
    const audit = path.join(dir, 'audit.jsonl');
    writeFileSync(
      config,
      JSON.stringify({
        gateway: {
          jwt: { issuer: issuer.issuer, audience: AUDIENCE },
          policy: { rules: [{ when: { claims: { groups: 'support' } }, allow: { tools: { e: ['echo'] } } }] },
          audit: { file: audit },
        },
        mcpServers: { e: { command: process.execPath, args: [EVERYTHING] } },
      }),
    );
    const cli = startCli(['serve', '--config', config, '--port', '0'], { env: plainEnv() });
    try {
      const url = await cli.onStderr(
        'serving on ',
        () => /serving on (\S+)/.exec(cli.stderr())?.[1] as string,
      );
      const refused = await fetch(url, {
        method: 'POST',
        body: '{}',
        headers: { 'content-type': 'application/json' },
      });
      expect(refused.status).toBe(401);
      expect(refused.headers.get('www-authenticate')).toContain(
        'resource_metadata="https://gateway.test/.well-known/oauth-protected-resource/mcp"',
      );
      const client = await sdkHttpClient(url, 'auto', await issuer.token('support-bot', AUDIENCE));
      expect((await client.listTools()).tools.map((tool) => tool.name)).toEqual(['e__echo']);
      expect(
        await client.callTool({ name: 'e__echo', arguments: { message: 'secret-argument' } }),
      ).toMatchObject({
        content: [{ type: 'text', text: 'Echo: secret-argument' }],
      });
      await expect(client.callTool({ name: 'e__get-sum', arguments: { a: 1, b: 2 } })).rejects.toMatchObject({
        code: -32603,
        data: { server: 'e', kind: 'forbidden' },
      });
      await client.close();
    } finally {
      cli.child.kill('SIGTERM');
    }
    expect(await cli.exited).toBe(0);
    const lines = readFileSync(audit, 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line));
    expect(
      lines.map(({ auth, caller, method, server, name, decision }) => ({
        auth,
        caller,
        method,
        server,
        name,
        decision,
      })),
    ).toEqual([
      {
        auth: 'jwt',
        caller: 'support-bot',
        method: 'tools/call',
        server: 'e',
        name: 'echo',
        decision: 'allowed',
      },
      {
        auth: 'jwt',
        caller: 'support-bot',
        method: 'tools/call',
        server: 'e',
        name: 'get-sum',
        decision: 'forbidden',
      },
    ]);
    expect(readFileSync(audit, 'utf8')).not.toContain('secret-argument');
  }, 60_000);
});
