/**
 * OAuth for HTTP transports (MCP spec 2025-11-25, "Authorization"), driven by the official SDK's `auth()`
 * orchestrator and its `OAuthClientProvider` interface.
 *
 * One {@link HttpAuth} belongs to one client and outlives its transports: what a 401 or 403 challenge
 * taught us (the `resource_metadata` URL, the scopes asked for) must still be known when the caller comes
 * back with the authorization code, and when a reconnect opens a new transport.
 *
 * The flow a host drives when the user must authorize in a browser:
 * 1. `connect()` sends `initialize`; the server answers 401 with `WWW-Authenticate`.
 * 2. `auth()` discovers the protected resource and authorization server metadata, registers the client
 *    when needed, and calls the provider's `redirectToAuthorization(url)`; the request then fails with an
 *    `MCPCallError` of kind `http`, status 401, whose `cause` is the SDK's `UnauthorizedError`.
 * 3. The host obtains the code from its redirect URL and calls `finishAuth(code)`: the code is exchanged
 *    for tokens, which the provider saves.
 * 4. `connect()` again: every request now carries `Authorization: Bearer <access token>`, or, for a
 *    DPoP-bound token (RFC 9449, SEP-1932; the `dpop` option), `Authorization: DPoP <access token>` and a
 *    fresh `DPoP` proof (dpop.ts).
 *
 * Secrets (tokens, client secrets, header values) never enter an error message, event or log: every token,
 * refresh token, client secret, Basic credential, PKCE verifier and authorization code is added to the
 * client's {@link SecretSet} as soon as it is known, so the errors built from what an authorization server
 * or MCP server echoed are redacted (redact-error.ts), and the SDK's console warnings during `auth()` are
 * redacted too (sdk-console.ts).
 */
import {
  auth,
  computeScopeUnion,
  discoverOAuthProtectedResourceMetadata,
  extractWWWAuthenticateParams,
  type FetchLike,
  isStrictScopeSuperset,
  type OAuthClientProvider,
  type OAuthProtectedResourceMetadata,
  UnauthorizedError,
} from '@modelcontextprotocol/client';
import { SecretSet } from '../../protocol/redact.js';
import { redactValue } from '../../protocol/redact-error.js';
import {
  type AuthHeaders,
  credentialHeaders,
  type MCPDpopOption,
  observeNonce,
  withDpopOption,
} from './dpop.js';
import { GrantProvider } from './grant-provider.js';
import { withRedactedSdkConsole } from './sdk-console.js';

/** Options of {@link HttpAuth}. */
export interface HttpAuthOptions {
  /** The MCP endpoint: the protected resource being authorized for. */
  serverUrl: URL;
  /** The OAuth provider (the MCP SDK's `OAuthClientProvider` interface). */
  provider: OAuthClientProvider;
  /** `fetch` for discovery, registration and token requests. Default: the global `fetch`. */
  fetch?: FetchLike;
  /**
   * Accept authorization server metadata whose `issuer` does not match the URL it was fetched for
   * (RFC 8414 §3.3). Servers whose metadata predates that check (published before MCP required it, or
   * behind a proxy that rewrites the host) fail discovery with the SDK's `IssuerMismatchError` otherwise.
   * Security-weakening: use only for a known server. Default false.
   */
  skipIssuerMetadataValidation?: boolean;
  /**
   * How many times one request may re-authorize on `403 insufficient_scope` (step-up, MCP spec 2025-11-25
   * "Authorization > Scope Challenge Handling") before the 403 is returned as an error. Default 1.
   */
  maxStepUpRetries?: number;
  /** Where the OAuth secrets are added as they become known (the client's redactor). Default: a set of its own. */
  secrets?: SecretSet;
  /**
   * DPoP-bound tokens (RFC 9449, SEP-1932; see dpop.ts `MCPDpopOption`). Default: none, unless the provider
   * implements `dpop()`.
   */
  dpop?: MCPDpopOption;
}

/** The callback a browser was redirected to, or just its query, or the bare authorization code. */
export type AuthorizationCallback = string | URL | URLSearchParams;

/** Drives OAuth for one MCP server across its transports. */
export class HttpAuth {
  readonly provider: OAuthClientProvider;
  readonly #options: HttpAuthOptions;
  readonly #secrets: SecretSet;
  #resourceMetadataUrl: URL | undefined;
  #scope: string | undefined;
  /** The scopes of the last step-up, to stop a server that keeps answering 403 for scopes we hold. */
  #steppedUpTo: string | undefined;
  /** The authorization a 401 started, while it runs: later 401s wait for it rather than start their own. */
  #authorizing: Promise<void> | undefined;

  constructor(options: HttpAuthOptions) {
    this.provider = withDpopOption(options.provider, options.dpop);
    this.#options = options;
    this.#secrets = options.secrets ?? new SecretSet();
  }

  /** Whether DPoP proofs may be signed: the provider (or the `dpop` option) has a DPoP session. */
  get signsProofs(): boolean {
    return typeof this.provider.dpop === 'function';
  }

  /** Re-authorizations allowed per request on `403 insufficient_scope`. */
  get maxStepUpRetries(): number {
    return Math.max(0, this.#options.maxStepUpRetries ?? 1);
  }

  /**
   * The credential headers of one request to the MCP server, `undefined` before authorization: `Bearer`, or
   * for a DPoP-bound token `DPoP` with a fresh proof for `htm` and `htu` (dpop.ts).
   */
  async headersFor(htm: string, htu: URL | string): Promise<AuthHeaders | undefined> {
    const tokens = await this.provider.tokens();
    // A provider may have been handed tokens by the host: they are secrets from the first request on.
    this.#secrets.add(tokens?.access_token);
    this.#secrets.add(tokens?.refresh_token);
    return tokens === undefined ? undefined : credentialHeaders(this.provider, tokens, htm, htu);
  }

  /** Notes what an answer of the MCP server at `url` carries for the next request: its `DPoP-Nonce`. */
  async observe(headers: { get(name: string): string | null }, url: URL | string): Promise<void> {
    await observeNonce(this.provider, headers, url);
  }

  /**
   * Handles a 401: remembers the challenge's `resource_metadata` and scope, then refreshes or obtains tokens.
   * A 401 that comes while another one's authorization runs waits for that one and shares its outcome.
   * Consumes the response body.
   * @throws UnauthorizedError when the user must authorize (the provider's `redirectToAuthorization` was
   *   called); finish with {@link HttpAuth.finishAuth}.
   * @throws the SDK's OAuth errors (`OAuthError`, `IssuerMismatchError`, …) when discovery or a token
   *   request fails.
   */
  async onUnauthorized(response: Response): Promise<void> {
    const challenge = this.#learn(response);
    await response.body?.cancel().catch(() => {});
    this.#scope = computeScopeUnion(this.#scope, challenge.scope);
    // Requests answered 401 together (parallel calls when a token expires) share one authorization: one
    // token request (or one browser redirect) and its outcome, not one each.
    if (this.#authorizing !== undefined) return this.#authorizing;
    const run = (async () => {
      await this.#followMigration();
      await this.#authorize({});
    })();
    this.#authorizing = run;
    try {
      await run;
    } finally {
      if (this.#authorizing === run) this.#authorizing = undefined;
    }
  }

  /**
   * A 401 while we hold a token may mean the resource moved to another authorization server (MCP spec
   * 2026-07-28, "Authorization", SEP-2352: credentials are bound to the server that issued them, and a
   * client MUST register again with a new one). The SDK's `auth()` trusts the provider's cached discovery
   * state, so the protected resource metadata is read again here; when it names another authorization
   * server, the cached state is replaced by one pointing there, and `auth()` then discovers that server's
   * metadata, finds the stored client information bound to the old issuer (so registers afresh, by dynamic
   * registration or a client ID metadata document) and authorizes there.
   */
  async #followMigration(): Promise<void> {
    const provider = this.provider;
    if (provider.saveDiscoveryState === undefined || (await provider.tokens()) === undefined) return;
    const cached = await provider.discoveryState?.();
    if (cached?.authorizationServerUrl === undefined) return;
    const metadataUrl =
      this.#resourceMetadataUrl ??
      (cached.resourceMetadataUrl === undefined ? undefined : new URL(cached.resourceMetadataUrl));
    let resourceMetadata: OAuthProtectedResourceMetadata;
    try {
      resourceMetadata = await discoverOAuthProtectedResourceMetadata(
        this.#options.serverUrl,
        metadataUrl === undefined ? {} : { resourceMetadataUrl: metadataUrl },
        this.#options.fetch,
      );
    } catch {
      // No metadata to compare with: `auth()` runs on the cached state as before and reports what fails.
      return;
    }
    const named = resourceMetadata.authorization_servers?.[0];
    if (named === undefined || sameUrl(named, cached.authorizationServerUrl)) return;
    await provider.saveDiscoveryState({
      authorizationServerUrl: named,
      resourceMetadata,
      ...(metadataUrl !== undefined && { resourceMetadataUrl: metadataUrl.href }),
    });
  }

  /**
   * Handles a 403: when it is `insufficient_scope`, asks for the union of the scopes held and challenged
   * (forcing a new authorization when a refresh cannot widen the grant, RFC 6749 §6) and returns true so the
   * request is retried. Returns false, leaving the body unread, for any other 403, and when the token already
   * holds every scope asked for and the last step-up already asked for the challenged ones (a loop).
   * @throws UnauthorizedError when the user must authorize the wider scope.
   */
  async onForbidden(response: Response): Promise<boolean> {
    const challenge = extractWWWAuthenticateParams(response);
    if (challenge.error !== 'insufficient_scope') return false;
    const granted = (await this.provider.tokens())?.scope;
    const wanted = computeScopeUnion(this.#scope, granted, challenge.scope);
    const widens = isStrictScopeSuperset(wanted, granted);
    // The token already carries every scope asked for, and the last step-up already asked for the challenged
    // ones: another round trip through the browser cannot satisfy this server (spec: "implement retry limits").
    const askedBefore =
      this.#steppedUpTo !== undefined && !isStrictScopeSuperset(challenge.scope, this.#steppedUpTo);
    if (!widens && askedBefore) return false;
    this.#learn(response);
    await response.body?.cancel().catch(() => {});
    this.#scope = wanted;
    this.#steppedUpTo = wanted;
    await this.#authorize({ forceReauthorization: widens });
    return true;
  }

  /**
   * Completes an authorization the user granted in a browser: exchanges the code for tokens, which the
   * provider saves. Takes the redirect URL (or its query), from which the code and the RFC 9207 `iss` are
   * read, or the bare code.
   * @throws UnauthorizedError when the callback carries an OAuth `error` or no code, or the exchange did
   *   not authorize; the SDK's OAuth errors when the token request fails.
   */
  async finishAuth(callback: AuthorizationCallback): Promise<void> {
    const { code, iss } = readCallback(callback);
    this.#secrets.add(code);
    await this.#authorize({ authorizationCode: code, ...(iss !== undefined && { iss }) });
  }

  #learn(response: Response): ReturnType<typeof extractWWWAuthenticateParams> {
    const challenge = extractWWWAuthenticateParams(response);
    if (challenge.resourceMetadataUrl !== undefined)
      this.#resourceMetadataUrl = challenge.resourceMetadataUrl;
    return challenge;
  }

  async #authorize(extra: { authorizationCode?: string; iss?: string; forceReauthorization?: boolean }) {
    await this.#learnSecrets();
    let result: Awaited<ReturnType<typeof auth>>;
    // A grant without a browser (the `auth` option) sends its token request once: not the SDK's `auth()`,
    // which repeats a refused one (grant-provider.ts).
    const run = this.provider instanceof GrantProvider ? grantAuth : auth;
    try {
      result = await withRedactedSdkConsole(this.#secrets.redact, () =>
        run(this.provider, {
          serverUrl: this.#options.serverUrl,
          ...extra,
          ...(this.#resourceMetadataUrl !== undefined && { resourceMetadataUrl: this.#resourceMetadataUrl }),
          ...(this.#scope !== undefined && { scope: this.#scope }),
          ...(this.#options.fetch !== undefined && { fetchFn: this.#options.fetch }),
          ...(this.#options.skipIssuerMetadataValidation === true && { skipIssuerMetadataValidation: true }),
        }),
      );
    } catch (error) {
      // A token endpoint's error may quote the request (code, verifier, Basic credentials): thrown redacted,
      // also to `finishAuth()`'s caller, who gets the SDK's error without an MCPCallError around it.
      await this.#learnSecrets();
      throw redactValue(error, this.#secrets.redact);
    }
    // New tokens, a registered client's secret: secrets before any error quoting them is built.
    await this.#learnSecrets();
    if (result !== 'AUTHORIZED') {
      throw new UnauthorizedError(
        extra.authorizationCode === undefined
          ? 'the user must authorize in a browser; call finishAuth() with the code, then connect again'
          : 'the authorization code did not yield tokens',
      );
    }
  }

  /** Adds what the provider holds now to the secrets: tokens, client secret and its Basic form, verifier. */
  async #learnSecrets(): Promise<void> {
    const secrets = this.#secrets;
    const read = async <T>(get: () => T | Promise<T>): Promise<T | undefined> => {
      try {
        return await get();
      } catch {
        return undefined; // `codeVerifier()` throws before an authorization started: nothing to learn.
      }
    };
    const tokens = await read(() => this.provider.tokens());
    secrets.add(tokens?.access_token);
    secrets.add(tokens?.refresh_token);
    secrets.add(tokens?.id_token);
    const client = await read(() => this.provider.clientInformation());
    const clientSecret = client?.client_secret;
    if (clientSecret !== undefined) {
      secrets.add(clientSecret);
      // client_secret_basic (RFC 6749 §2.3.1), as the SDK encodes it.
      secrets.add(btoa(`${client?.client_id}:${clientSecret}`));
    }
    secrets.add(await read(() => this.provider.codeVerifier()));
  }
}

/**
 * The OAuth state for a transport given `authProvider` options: the shared `auth` when there is one, else a
 * new {@link HttpAuth} for the provider, else `undefined` (no OAuth).
 */
export function httpAuthFor(
  serverUrl: URL,
  options: {
    auth?: HttpAuth | undefined;
    authProvider?: OAuthClientProvider | undefined;
    fetch?: FetchLike | undefined;
    skipIssuerMetadataValidation?: boolean | undefined;
  },
): HttpAuth | undefined {
  if (options.auth !== undefined) return options.auth;
  if (options.authProvider === undefined) return undefined;
  return new HttpAuth({
    serverUrl,
    provider: options.authProvider,
    ...(options.fetch !== undefined && { fetch: options.fetch }),
    ...(options.skipIssuerMetadataValidation === true && { skipIssuerMetadataValidation: true }),
  });
}

/** `auth()`'s counterpart for a {@link GrantProvider}: the same options, its grant's token request once. */
async function grantAuth(
  provider: OAuthClientProvider,
  options: Parameters<typeof auth>[1],
): Promise<'AUTHORIZED'> {
  if (!(provider instanceof GrantProvider)) throw new TypeError('grantAuth needs a GrantProvider');
  if (options.authorizationCode !== undefined) provider.redirectToAuthorization();
  await provider.authorize({
    serverUrl: new URL(options.serverUrl),
    resourceMetadataUrl: options.resourceMetadataUrl,
    scope: options.scope,
    fetch: options.fetchFn,
    skipIssuerMetadataValidation: options.skipIssuerMetadataValidation,
  });
  return 'AUTHORIZED';
}

/** Whether two URLs are the same once parsed (a trailing slash on the origin, case of the host). */
function sameUrl(a: string, b: string): boolean {
  try {
    return new URL(a).href === new URL(b).href;
  } catch {
    return a === b;
  }
}

/** The code and `iss` of a redirect callback; an OAuth `error` in it is thrown (its text is not trusted). */
function readCallback(callback: AuthorizationCallback): { code: string; iss: string | undefined } {
  if (typeof callback === 'string') return { code: callback, iss: undefined };
  const params = callback instanceof URL ? callback.searchParams : callback;
  const error = params.get('error');
  if (error !== null) {
    // RFC 6749 §4.1.2.1 codes are a fixed vocabulary; anything else is shown as "invalid".
    const known = /^[a-z_]{1,64}$/.test(error) ? error : 'invalid';
    throw new UnauthorizedError(`the authorization server refused the authorization (${known})`);
  }
  const code = params.get('code');
  if (code === null || code === '') throw new UnauthorizedError('the authorization callback carries no code');
  return { code, iss: params.get('iss') ?? undefined };
}
