/**
 * An in-memory `OAuthClientProvider` for tests: it keeps what the SDK saves, and records each authorization
 * URL instead of opening a browser. {@link approve} plays the user who grants access in that browser.
 */
import type {
  OAuthClientMetadata,
  OAuthClientProvider,
  OAuthDiscoveryState,
  StoredOAuthClientInformation,
  StoredOAuthTokens,
} from '@modelcontextprotocol/client';

export const REDIRECT_URL = 'http://127.0.0.1:1/callback';

export class MemoryOAuthProvider implements OAuthClientProvider {
  /** Every URL the SDK asked us to send the user to. */
  readonly authorizationUrls: URL[] = [];
  #client: StoredOAuthClientInformation | undefined;
  #tokens: StoredOAuthTokens | undefined;
  #verifier: string | undefined;
  #discovery: OAuthDiscoveryState | undefined;

  constructor(tokens?: StoredOAuthTokens) {
    this.#tokens = tokens;
  }

  get redirectUrl(): string {
    return REDIRECT_URL;
  }

  get clientMetadata(): OAuthClientMetadata {
    return { client_name: 'agentwire-test', redirect_uris: [REDIRECT_URL] };
  }

  clientInformation(): StoredOAuthClientInformation | undefined {
    return this.#client;
  }

  saveClientInformation(information: StoredOAuthClientInformation): void {
    this.#client = information;
  }

  tokens(): StoredOAuthTokens | undefined {
    return this.#tokens;
  }

  saveTokens(tokens: StoredOAuthTokens): void {
    this.#tokens = tokens;
  }

  redirectToAuthorization(url: URL): void {
    this.authorizationUrls.push(url);
  }

  saveCodeVerifier(verifier: string): void {
    this.#verifier = verifier;
  }

  /** Kept with the code verifier so the callback leg is bound to the same authorization server (SEP-2352). */
  saveDiscoveryState(state: OAuthDiscoveryState): void {
    this.#discovery = state;
  }

  discoveryState(): OAuthDiscoveryState | undefined {
    return this.#discovery;
  }

  codeVerifier(): string {
    if (this.#verifier === undefined) throw new Error('no code verifier saved');
    return this.#verifier;
  }
}

/** The user grants access at `authorizationUrl`: resolves with the redirect URL carrying the code. */
export async function approve(authorizationUrl: URL | undefined): Promise<URL> {
  if (authorizationUrl === undefined) throw new Error('the provider was never sent to authorize');
  const response = await fetch(authorizationUrl, { redirect: 'manual' });
  await response.body?.cancel();
  const location = response.headers.get('location');
  if (location === null) throw new Error(`no redirect from the authorization endpoint (${response.status})`);
  return new URL(location);
}
