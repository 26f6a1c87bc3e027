/**
 * `agentwire auth login`: OAuth 2.1 authorization code with PKCE through the MCP SDK's flow (MCP spec
 * 2026-07-28, "Authorization"), for one HTTP server:
 * 1. a loopback listener on 127.0.0.1 receives the redirect (callback-listener.ts);
 * 2. connecting to the server meets its 401; the SDK discovers the authorization server, registers the
 *    client (a Client ID Metadata Document URL where the server supports them and one is given, dynamic
 *    registration otherwise) and builds the authorization URL, which is printed on stderr and, on a
 *    terminal without `--no-browser`, opened in the browser;
 * 3. the browser's redirect brings the code; it is exchanged for tokens, which the
 *    {@link StoredOAuthClientProvider} saves in the token file (keyed by issuer and resource);
 * 4. a second connect proves the tokens work.
 * A previous login to the same resource is forgotten first (the registration is kept).
 */
import {
  MCPCallError,
  MCPClient,
  type MCPHttpServer,
  OAuthFileStore,
  StoredOAuthClientProvider,
} from '../../mcp/index.js';
import type { CliIo } from '../io.js';
import { openInBrowser } from './browser.js';
import { startCallbackListener } from './callback-listener.js';
import { AuthLoginError } from './errors.js';

/** Default bound on waiting for the browser, in ms: five minutes. */
export const DEFAULT_LOGIN_TIMEOUT_MS = 300_000;

/** What to log in to, and how. */
export interface LoginRequest {
  url: URL;
  /** The client's name in messages (an entry's name, or the URL's host). */
  name: string;
  headers?: Record<string, string>;
  transport?: NonNullable<MCPHttpServer['transport']>;
  /** The token file. */
  file: string;
  /** Open the browser (a terminal without `--no-browser`). */
  browser: boolean;
  /** The loopback port; 0 (default) picks a free one. */
  callbackPort?: number;
  /** `https:` URL of the client's metadata document (CIMD). */
  clientMetadataUrl?: string;
  /** Scope to ask for when the server names none. */
  scope?: string;
  /** Bound on the whole browser step, in ms. */
  timeoutMs: number;
}

/** What a login ended with. */
export interface LoginResult {
  /** The resource the tokens are stored under. */
  resource: string;
  /** The authorization server's issuer; `undefined` when the server needed no login. */
  issuer: string | undefined;
}

/**
 * Logs in (see the module comment). Prints the authorization URL on stderr.
 * @throws AuthLoginError (errors.ts) when the listener cannot start, the browser step times out or is interrupted.
 * @throws MCPCallError when the server cannot be reached, or answers something else than an OAuth
 *   challenge; its `cause` is the SDK's OAuth error when discovery, registration or the token exchange
 *   fails (for instance `IssuerMismatchError` for an authorization server whose metadata names another
 *   issuer).
 */
export async function login(request: LoginRequest, io: CliIo): Promise<LoginResult> {
  const store = new OAuthFileStore(request.file);
  const listener = await startCallbackListener(request.callbackPort ?? 0);
  let asked = false;
  const provider = new StoredOAuthClientProvider({
    store,
    serverUrl: request.url,
    redirectUrl: listener.redirectUrl,
    ...(request.clientMetadataUrl !== undefined && { clientMetadataUrl: request.clientMetadataUrl }),
    ...(request.scope !== undefined && { scope: request.scope }),
    onAuthorizationUrl: (url) => {
      asked = true;
      announce(url, request.browser, io);
    },
  });
  store.deleteLogins(provider.resource);
  const client = MCPClient.fromUrl(request.url, {
    name: request.name,
    authProvider: provider,
    ...(request.headers !== undefined && { headers: request.headers }),
    ...(request.transport !== undefined && { transport: request.transport }),
  });
  const signal = io.signal;
  try {
    const first = await client.connect(signal ? { signal } : {}).then(
      () => undefined,
      (error: unknown) => error,
    );
    if (first === undefined) return { resource: provider.resource, issuer: undefined };
    // Only a 401 after which the SDK built an authorization URL waits for the browser.
    if (!(first instanceof MCPCallError) || first.status !== 401 || !asked) throw first;
    const callback = await listener.waitForCallback(provider.state(), request.timeoutMs, signal);
    const refusal = callback.searchParams.get('error');
    if (refusal !== null) {
      // RFC 6749 §4.1.2.1 codes are a fixed vocabulary; anything else is not repeated.
      throw new AuthLoginError('refused', { ...(/^[a-z_]{1,64}$/.test(refusal) && { oauthError: refusal }) });
    }
    try {
      await client.finishAuth(callback);
    } catch (error) {
      // The SDK's error, already redacted of the code, verifier and client secret (HttpAuth).
      throw new AuthLoginError('token_request', { cause: error });
    }
    await client.connect(signal ? { signal } : {});
    return { resource: provider.resource, issuer: provider.issuer };
  } finally {
    await client.disconnect();
    await listener.close();
  }
}

function announce(url: URL, browser: boolean, io: CliIo): void {
  io.stderr(`To log in, open this URL in a browser:\n  ${url.href}\n`);
  if (!browser) return;
  openInBrowser(url.href);
  io.stderr('(opening your browser…)\n');
}
