/**
 * An `OAuthClientProvider` (the MCP SDK's interface) whose tokens and client registrations live in an
 * {@link OAuthFileStore}, so a host does not write its own (MCP spec 2026-07-28, "Authorization").
 *
 * One provider serves one MCP server: its `resource` is the server's canonical URL, and it reads and saves
 * the tokens of that resource under the issuer the SDK resolved (`ctx.issuer`), the client registration
 * under the issuer alone. The authorization flow's transient state (PKCE verifier, `state`, discovery
 * results) stays in memory: it must not outlive the login it belongs to.
 *
 * Registration: with a `clientMetadataUrl` (an `https:` Client ID Metadata Document URL), the SDK uses it as
 * the `client_id` when the authorization server advertises `client_id_metadata_document_supported`, and
 * registers dynamically (RFC 7591) otherwise.
 *
 * Without `onAuthorizationUrl` the provider is for use after a login: it sends and refreshes the stored
 * tokens, and when a new authorization would be needed it registers nothing, and the request fails with
 * the SDK's `UnauthorizedError` (an `MCPCallError` with status 401 from the client).
 */
import { randomBytes } from 'node:crypto';
import {
  type OAuthClientInformationContext,
  type OAuthClientMetadata,
  type OAuthClientProvider,
  type OAuthDiscoveryState,
  resourceUrlFromServerUrl,
  type StoredOAuthClientInformation,
  type StoredOAuthTokens,
  UnauthorizedError,
} from '@modelcontextprotocol/client';
import type { OAuthFileStore } from './oauth-file-store.js';

/** Options of {@link StoredOAuthClientProvider}. */
export interface StoredOAuthClientProviderOptions {
  /** Where logins and registrations are kept. */
  store: OAuthFileStore;
  /** The MCP server: its canonical URL (no fragment) is the `resource` tokens are stored under. */
  serverUrl: string | URL;
  /**
   * The redirect URI of the authorization code flow, e.g. a loopback listener `http://127.0.0.1:<port>/callback`
   * (RFC 8252 §7.3). Default: the first redirect URI of the stored registration, for refreshing only.
   */
  redirectUrl?: string | URL;
  /**
   * An `https:` URL serving this client's Client ID Metadata Document, used as its `client_id` where the
   * authorization server supports it. Default: none (dynamic registration).
   */
  clientMetadataUrl?: string;
  /** `client_name` in the registration. Default `agentwire`. */
  clientName?: string;
  /** `scope` asked for when neither the server's challenge nor its metadata names one. Default: none. */
  scope?: string;
  /**
   * Called with the authorization URL when the user must authorize in a browser. Without it the provider
   * never starts an authorization nor registers a client.
   */
  onAuthorizationUrl?: (authorizationUrl: URL) => void | Promise<void>;
  /** The clock, in ms since the epoch, for expiry times. Default `Date.now`. */
  now?: () => number;
}

/** The redirect URI used when none is known: a provider without a login flow never sends it. */
const PLACEHOLDER_REDIRECT = 'http://127.0.0.1/callback';

/** An `OAuthClientProvider` backed by an {@link OAuthFileStore}. */
export class StoredOAuthClientProvider implements OAuthClientProvider {
  /** The resource tokens are stored under: the server's canonical URL. */
  readonly resource: string;
  readonly clientMetadataUrl?: string;
  readonly #options: StoredOAuthClientProviderOptions;
  readonly #state = randomBytes(16).toString('base64url');
  #issuer: string | undefined;
  #codeVerifier: string | undefined;
  #discovery: OAuthDiscoveryState | undefined;

  constructor(options: StoredOAuthClientProviderOptions) {
    this.#options = options;
    this.resource = resourceUrlFromServerUrl(new URL(String(options.serverUrl))).href;
    if (options.clientMetadataUrl !== undefined) this.clientMetadataUrl = options.clientMetadataUrl;
  }

  /** The issuer of the last login used or saved, once known. */
  get issuer(): string | undefined {
    return this.#issuer ?? this.#options.store.login(this.resource)?.issuer;
  }

  get redirectUrl(): string | URL {
    if (this.#options.redirectUrl !== undefined) return this.#options.redirectUrl;
    const issuer = this.issuer;
    const registered = issuer === undefined ? undefined : this.#options.store.client(issuer)?.client;
    const uris = registered !== undefined && 'redirect_uris' in registered ? registered.redirect_uris : [];
    return (Array.isArray(uris) ? (uris[0] as string | undefined) : undefined) ?? PLACEHOLDER_REDIRECT;
  }

  get clientMetadata(): OAuthClientMetadata {
    const { scope } = this.#options;
    return {
      client_name: this.#options.clientName ?? 'agentwire',
      redirect_uris: [String(this.redirectUrl)],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      // A CLI keeps no secret a user could not read: a public client with PKCE (RFC 8252 §8.4).
      token_endpoint_auth_method: 'none',
      ...(scope !== undefined && { scope }),
    };
  }

  /** The `state` of this provider's authorization requests, to check on the redirect (RFC 6749 §10.12). */
  state(): string {
    return this.#state;
  }

  clientInformation(ctx?: OAuthClientInformationContext): StoredOAuthClientInformation | undefined {
    const issuer = this.#noteIssuer(ctx);
    return issuer === undefined ? undefined : this.#options.store.client(issuer)?.client;
  }

  /**
   * Stores a dynamic registration under its authorization server's issuer. Without `onAuthorizationUrl` it
   * throws the SDK's `UnauthorizedError` instead: no registration is made for a provider that cannot log in.
   */
  saveClientInformation(client: StoredOAuthClientInformation, ctx?: OAuthClientInformationContext): void {
    const issuer = ctx?.issuer ?? client.issuer;
    if (this.#options.onAuthorizationUrl === undefined) {
      // No login flow: a registration now could never be used; the user has to log in.
      throw new UnauthorizedError('no client registration is stored for this authorization server');
    }
    if (issuer === undefined) return;
    this.#issuer = issuer;
    this.#options.store.saveClient({ issuer, client });
  }

  tokens(ctx?: OAuthClientInformationContext): StoredOAuthTokens | undefined {
    return this.#options.store.login(this.resource, this.#noteIssuer(ctx))?.tokens;
  }

  saveTokens(tokens: StoredOAuthTokens, ctx?: OAuthClientInformationContext): void {
    const issuer = ctx?.issuer ?? tokens.issuer ?? this.issuer;
    if (issuer === undefined) return;
    this.#issuer = issuer;
    const now = (this.#options.now ?? Date.now)();
    const previous = this.#options.store.login(this.resource, issuer)?.tokens;
    // A refresh response may omit the refresh token, which then stays valid (RFC 6749 §6).
    const kept = tokens.refresh_token ?? previous?.refresh_token;
    this.#options.store.saveLogin({
      issuer,
      resource: this.resource,
      tokens: { ...tokens, ...(kept !== undefined && { refresh_token: kept }) },
      ...(tokens.expires_in !== undefined && { expiresAtMs: now + tokens.expires_in * 1000 }),
      savedAtMs: now,
    });
  }

  async redirectToAuthorization(authorizationUrl: URL): Promise<void> {
    await this.#options.onAuthorizationUrl?.(authorizationUrl);
  }

  saveCodeVerifier(codeVerifier: string): void {
    this.#codeVerifier = codeVerifier;
  }

  /** @throws UnauthorizedError before an authorization started (there is no verifier). */
  codeVerifier(): string {
    if (this.#codeVerifier === undefined) throw new UnauthorizedError('no authorization is in progress');
    return this.#codeVerifier;
  }

  /** Keeps the authorization server's discovery result in memory, for the rest of this provider's life. */
  saveDiscoveryState(state: OAuthDiscoveryState): void {
    this.#discovery = state;
  }

  /** The discovery result kept by `saveDiscoveryState()`, if any. */
  discoveryState(): OAuthDiscoveryState | undefined {
    return this.#discovery;
  }

  invalidateCredentials(scope: 'all' | 'client' | 'tokens' | 'verifier' | 'discovery'): void {
    const issuer = this.issuer;
    if (scope === 'all' || scope === 'tokens') this.#options.store.deleteLogins(this.resource, issuer);
    // A registration is shared by every resource of its server: only a login flow replaces it.
    if ((scope === 'all' || scope === 'client') && issuer !== undefined && this.#options.onAuthorizationUrl)
      this.#options.store.deleteClient(issuer);
    if (scope === 'all' || scope === 'verifier') this.#codeVerifier = undefined;
    if (scope === 'all' || scope === 'discovery') this.#discovery = undefined;
  }

  #noteIssuer(ctx: OAuthClientInformationContext | undefined): string | undefined {
    if (ctx !== undefined) this.#issuer = ctx.issuer;
    return ctx?.issuer ?? this.issuer;
  }
}
