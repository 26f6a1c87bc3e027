/**
 * DPoP-bound access tokens (RFC 9449; MCP authorization extension SEP-1932) on every HTTP request agentwire
 * sends to an MCP server: Streamable HTTP POSTs (the 2026-07-28 `subscriptions/listen` stream included),
 * the 2025-11-25 GET stream and its resumptions, the DELETE that ends a session, and the 2024-11-05 HTTP+SSE
 * GET and POSTs.
 *
 * The signing identity and the nonce state are the MCP SDK's `DpopSession`; the SDK's `auth()` already signs
 * a proof into each token request and retries one `use_dpop_nonce` answer of the token endpoint (RFC 9449
 * §5, §8) when the OAuth provider implements `dpop()`. What this file adds is the resource-server half, for
 * the transports agentwire owns:
 * - a fresh proof per request (`htm`, `htu` without query or fragment, `iat`, a new `jti`, `ath` = the
 *   access token's SHA-256, the server's last nonce), with the token sent as `Authorization: DPoP <token>`
 *   (RFC 9449 §7.1) when the authorization server issued `token_type: DPoP`; a Bearer token stays Bearer;
 * - the `DPoP-Nonce` of every answer remembered for the next proof to that origin (§9);
 * - the `dpop` option: a provider without `dpop()` is given one returning agentwire's session.
 *
 * The private key is a WebCrypto `CryptoKey`, non-extractable unless the host made it so: nothing here turns
 * it into text, so it cannot reach an error, event or log.
 */
import {
  type DpopKeyPair,
  DpopSession,
  isDpopNonceChallenge,
  type OAuthClientProvider,
} from '@modelcontextprotocol/client';

/**
 * The `dpop` option (config/server-spec.ts `MCPDpopOption`, the public one; the same shape, declared here
 * because transports do not import configuration): `true` for a fresh ES256 key pair, or the key pair.
 */
export type MCPDpopOption = boolean | { keyPair: DpopKeyPair };

/** The credential headers of one request (names lower-case): `authorization`, and `dpop` with a DPoP token. */
export interface AuthHeaders {
  authorization: string;
  dpop?: string;
}

/**
 * `provider` with `dpop()` answering `session` (created on first use), every other member the provider's own
 * (methods bound to it, so its private fields keep working). The provider itself is returned when `option`
 * does not ask for DPoP, or when it implements `dpop()` already (the host's session wins).
 */
export function withDpopOption(
  provider: OAuthClientProvider,
  option: MCPDpopOption | undefined,
): OAuthClientProvider {
  if (option === undefined || option === false || typeof provider.dpop === 'function') return provider;
  let session: Promise<DpopSession> | undefined;
  const dpop = () => {
    session ??= DpopSession.create(option === true ? {} : { keyPair: option.keyPair });
    return session;
  };
  return new Proxy(provider, {
    get(target, property) {
      if (property === 'dpop') return dpop;
      const value: unknown = Reflect.get(target, property, target);
      return typeof value === 'function' ? value.bind(target) : value;
    },
    has(target, property) {
      return property === 'dpop' || Reflect.has(target, property);
    },
  });
}

/**
 * The credential headers for one request: `Authorization: DPoP <token>` and a fresh proof when the token is
 * DPoP-bound and the provider has a session, else `Authorization: Bearer <token>`.
 * @param htu - The request's URL (its query and fragment are left out of the proof).
 */
export async function credentialHeaders(
  provider: OAuthClientProvider,
  token: { access_token: string; token_type?: string | undefined },
  htm: string,
  htu: URL | string,
): Promise<AuthHeaders> {
  const session = isDpopToken(token) ? await provider.dpop?.() : undefined;
  if (session === undefined) return { authorization: `Bearer ${token.access_token}` };
  const proof = await session.buildProof({ htm, htu, accessToken: token.access_token });
  return { authorization: `DPoP ${token.access_token}`, dpop: proof };
}

/** Remembers the `DPoP-Nonce` of an answer from `url`'s origin for the next proof there (RFC 9449 §8.2, §9). */
export async function observeNonce(
  provider: OAuthClientProvider,
  headers: { get(name: string): string | null },
  url: URL | string,
): Promise<void> {
  const nonce = headers.get('dpop-nonce');
  if (nonce === null || nonce === '' || provider.dpop === undefined) return;
  (await provider.dpop())?.rememberNonce(url, nonce);
}

/**
 * Whether `response` is a resource server's `401` with `WWW-Authenticate: DPoP error="use_dpop_nonce"` and
 * a `DPoP-Nonce` to retry with (RFC 9449 §9).
 */
export function isNonceChallenge(response: Response): boolean {
  return isDpopNonceChallenge(response) && (response.headers.get('dpop-nonce') ?? '') !== '';
}

function isDpopToken(token: { token_type?: string | undefined }): boolean {
  return token.token_type?.toLowerCase() === 'dpop';
}
