/**
 * An in-memory `OAuthClientProvider` (the MCP SDK's interface) for the conformance suite's auth scenarios.
 *
 * A real host opens `authorizationUrl` in a browser and later receives the redirect; the suite's
 * authorization server instead answers the authorization request at once with a 302 to the redirect URI,
 * so "the browser" here is one `fetch` that keeps the `Location` it was sent to. The client then finishes
 * the way every agentwire host does: `client.finishAuth(callback)`, then `connect()` again.
 */

/** The redirect URI registered for the conformance client (the suite never calls it). */
export const REDIRECT_URL = 'http://localhost:3000/callback';

export class ConformanceOAuthProvider {
  #clientMetadata;
  #clientInformation;
  #tokens;
  #codeVerifier;
  #discoveryState;
  /** @type {URL | undefined} the redirect the authorization server sent us to, until taken. */
  #callback;

  /**
   * @param {{ clientName: string, clientMetadataUrl?: string, clientInformation?: object }} options
   */
  constructor({ clientName, clientMetadataUrl, clientInformation }) {
    this.#clientMetadata = { client_name: clientName, redirect_uris: [REDIRECT_URL] };
    this.#clientInformation = clientInformation;
    if (clientMetadataUrl !== undefined) this.clientMetadataUrl = clientMetadataUrl;
  }

  get redirectUrl() {
    return REDIRECT_URL;
  }

  get clientMetadata() {
    return this.#clientMetadata;
  }

  clientInformation() {
    return this.#clientInformation;
  }

  saveClientInformation(information) {
    this.#clientInformation = information;
  }

  tokens() {
    return this.#tokens;
  }

  saveTokens(tokens) {
    this.#tokens = tokens;
  }

  saveCodeVerifier(verifier) {
    this.#codeVerifier = verifier;
  }

  /** Binds the callback leg to the authorization server the redirect went to (SEP-2352). */
  saveDiscoveryState(state) {
    this.#discoveryState = state;
  }

  discoveryState() {
    return this.#discoveryState;
  }

  codeVerifier() {
    if (this.#codeVerifier === undefined) throw new Error('no PKCE code verifier was saved');
    return this.#codeVerifier;
  }

  /** "Opens the browser": follows the authorization request to the redirect that carries the code. */
  async redirectToAuthorization(authorizationUrl) {
    const response = await fetch(authorizationUrl, { redirect: 'manual' });
    await response.body?.cancel();
    const location = response.headers.get('location');
    if (location === null) {
      throw new Error(`the authorization endpoint answered ${response.status} without a redirect`);
    }
    this.#callback = new URL(location, authorizationUrl);
  }

  /** The redirect received since the last call, if any (what a host's callback handler would receive). */
  takeCallback() {
    const callback = this.#callback;
    this.#callback = undefined;
    return callback;
  }
}
