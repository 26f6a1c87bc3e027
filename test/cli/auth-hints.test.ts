/**
 * What a 401 hints, through the built CLI: a server with no OAuth metadata (a gateway taking a static bearer
 * token) gets the `--header` hint, not `agentwire auth login`, and `auth login` against it says what is
 * missing; an `Authorization` header of the user's own that is refused says so; a refused `auth` grant names
 * the grant and the OAuth error. A server that offers OAuth keeps the login hint (auth.test.ts).
 */
import { writeFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type OidcMcp, startOidcMcp } from '../fixtures/oidc-mcp.js';
import { tempDir } from '../helpers.js';
import { type BuiltRun, ensureBuilt, runBuilt } from './built-cli-env.js';

let home: ReturnType<typeof tempDir> | undefined;
let close: (() => Promise<void>) | undefined;

beforeAll(ensureBuilt, 120_000);
beforeEach(() => {
  home = tempDir('agentwire-auth-hints-');
});
afterEach(async () => {
  await close?.();
  home?.remove();
  home = close = undefined;
});

function agentwire(args: string[], extra: Record<string, string> = {}): Promise<BuiltRun> {
  const dir = home!.dir;
  return runBuilt(args, {
    env: { PATH: process.env.PATH ?? '', HOME: dir, XDG_CONFIG_HOME: path.join(dir, 'config'), ...extra },
  });
}

/** A gateway that wants a static bearer token: 401 on /mcp (no `resource_metadata`), 404 elsewhere. */
async function startStaticTokenServer(): Promise<string> {
  const server = http.createServer((request, response) => {
    if (request.url?.startsWith('/mcp') !== true) {
      response.writeHead(404).end();
      return;
    }
    response.writeHead(401, {
      'content-type': 'application/json',
      'www-authenticate': 'Bearer realm="gateway"',
    });
    response.end('{"error":"unauthorized"}');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  close = () => new Promise<void>((resolve) => server.close(() => resolve()));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`;
}

describe('the hint of a 401', () => {
  it('a server without OAuth metadata: give the token with --header, and auth login says what is missing', async () => {
    const url = await startStaticTokenServer();
    const host = new URL(url).host;
    const failed = `error: MCP server "${host}": server/discover failed:`;
    const tokenHint =
      'hint: the server offers no OAuth login (no resource metadata): give its token with ' +
      `--header "Authorization: Bearer <token>", or in the config entry's "headers"\n`;
    expect(await agentwire(['tools', '--url', url])).toEqual({
      code: 3,
      stdout: '',
      stderr: `${failed} the server answered HTTP 401: {"error":"unauthorized"}\n${tokenHint}`,
    });
    expect(await agentwire(['tools', '--url', url, '--header', 'Authorization: Bearer wrong-token'])).toEqual(
      {
        code: 3,
        stdout: '',
        stderr:
          `${failed} the server answered HTTP 401: {"error":"unauthorized"}\n` +
          `hint: the server refused the Authorization header given: check the token (--header, or the config's "headers")\n`,
      },
    );
    expect(await agentwire(['auth', 'login', url, '--timeout', '5000'])).toEqual({
      code: 3,
      stdout: '',
      stderr:
        `${failed} Dynamic Client Registration rejected (HTTP 404) with an empty answer: the authorization ` +
        'server offers no client registration there, most likely as the server publishes no OAuth metadata ' +
        '(RFC 9728) at all\n' +
        'hint: if the server takes a static token, give it with --header "Authorization: Bearer <token>" ' +
        `(or in the config entry's "headers"); no login is needed then\n`,
    });
  }, 60_000);

  it('a refused auth grant names the grant and the OAuth error, with no login hint', async () => {
    const fixture: OidcMcp = await startOidcMcp({
      clients: [
        {
          client_id: 'bot',
          client_secret: 'the-right-secret-0123456789',
          token_endpoint_auth_method: 'client_secret_basic',
          grant_types: ['client_credentials'],
          response_types: [],
          redirect_uris: [],
        },
      ],
    });
    close = () => fixture.close();
    const config = path.join(home!.dir, 'mcp.json');
    // biome-ignore lint/suspicious/noTemplateCurlyInString: the config's reference, not a JS placeholder.
    const auth = { grant: 'client_credentials', clientId: 'bot', clientSecret: '${env:BOT_SECRET}' };
    writeFileSync(config, JSON.stringify({ mcpServers: { gw: { url: fixture.url, auth } } }));
    expect(
      await agentwire(['tools', '--config', config, '--server', 'gw'], {
        BOT_SECRET: 'not-the-secret-98765',
      }),
    ).toEqual({
      code: 3,
      stdout: '',
      stderr:
        'error: MCP server "gw": initialize failed: unauthorized (401): the authorization server refused the ' +
        `client_credentials grant: invalid_client (HTTP 401 from ${fixture.issuer}/token): client authentication failed\n` +
        `hint: the client_credentials grant of the entry's "auth" was refused (invalid_client): check its client id and credentials\n`,
    });
  }, 60_000);
});
