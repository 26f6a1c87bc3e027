/**
 * One token request of a grant without a browser (RFC 6749 §3.2, §5.1, §5.2): client authentication
 * (`client_secret_basic`, `client_secret_post`, `private_key_jwt` through the SDK's `createPrivateKeyJwtAuth`,
 * `none`), one POST, the answer read as tokens or as a typed refusal. Never retried here: a refused grant is
 * final (auth.ts reports it), and the SDK's `auth()`, which retries after `invalid_client` or `invalid_grant`,
 * is not used for these grants.
 */
import {
  type AuthorizationServerMetadata,
  assertSecureTokenEndpoint,
  createPrivateKeyJwtAuth,
  type FetchLike,
  type OAuthTokens,
} from '@modelcontextprotocol/client';
import type { MCPTokenEndpointAuthMethod } from '../../auth/auth-grant.js';
import { MCPOAuthGrantError, type MCPOAuthGrantType } from '../../auth/grant-error.js';
import { redactJwtLike, type SecretSet } from '../../protocol/redact.js';
import { BODY_EXCERPT_CHARS, readBodyExcerpt } from './errors.js';

/**
 * Most characters of a refusal read to find its `error` code, in characters: a description that echoes a
 * client assertion (an RS256 one is over 500 characters) must not cut the JSON before the code is read.
 */
const REFUSAL_BODY_CHARS = 64 * 1024;

/** How the client authenticates at the token endpoint. */
export interface ClientAuthentication {
  method: MCPTokenEndpointAuthMethod;
  clientId: string | undefined;
  clientSecret?: string | undefined;
  /** For `private_key_jwt`: the key as a JWK, and its JWS algorithm. */
  privateKey?: { jwk: Record<string, unknown>; algorithm: string } | undefined;
}

/** One token request. */
export interface TokenRequest {
  server: string | undefined;
  grant: MCPOAuthGrantType;
  endpoint: string | URL;
  /** The grant's form fields (`grant_type` and its parameters); client authentication is added. */
  form: URLSearchParams;
  client: ClientAuthentication;
  /** The token endpoint's authorization server metadata (the `private_key_jwt` audience is its issuer). */
  metadata?: AuthorizationServerMetadata | undefined;
  fetch?: FetchLike | undefined;
  /** Learns every credential sent and every token received, before any error can quote it. */
  secrets: SecretSet;
}

/** A token answer: at least an access token; the token type as sent. */
export type TokenAnswer = OAuthTokens;

/**
 * Sends `request` once.
 * @throws MCPOAuthGrantError for a non-2xx answer (its OAuth `error` code and status), a 2xx answer without
 *   an `access_token`, and a request that could not be sent (`cause` the fetch failure); the SDK's
 *   `InsecureTokenEndpointError` for a token endpoint that is neither https nor loopback.
 */
export async function requestToken(request: TokenRequest): Promise<TokenAnswer> {
  const url = assertSecureTokenEndpoint(request.endpoint);
  const endpoint = `${url.origin}${url.pathname}`;
  const fail = (extra: { status?: number; oauthError?: string; description?: string; cause?: unknown }) =>
    new MCPOAuthGrantError({ server: request.server, grant: request.grant, endpoint, ...extra });
  const headers = new Headers({
    'content-type': 'application/x-www-form-urlencoded',
    accept: 'application/json',
  });
  const form = new URLSearchParams(request.form);
  await authenticate(request, headers, form, url);
  let response: Response;
  try {
    response = await (request.fetch ?? fetch)(url, { method: 'POST', headers, body: form });
  } catch (error) {
    throw fail({ cause: error });
  }
  if (!response.ok) {
    const body = await readBodyExcerpt(response, REFUSAL_BODY_CHARS);
    const refusal = readRefusal(body, request.secrets);
    throw fail({ status: response.status, ...refusal });
  }
  let answer: unknown;
  try {
    answer = await response.json();
  } catch (error) {
    throw fail({ status: response.status, cause: error });
  }
  if (!isTokenAnswer(answer)) throw fail({ status: response.status });
  request.secrets.add(answer.access_token);
  request.secrets.add(answer.refresh_token);
  request.secrets.add(answer.id_token);
  return answer;
}

/** Adds the client authentication of `request.client` to the headers or the form. */
async function authenticate(request: TokenRequest, headers: Headers, form: URLSearchParams, url: URL) {
  const { method, clientId, clientSecret, privateKey } = request.client;
  const secrets = request.secrets;
  switch (method) {
    case 'client_secret_basic': {
      // RFC 6749 §2.3.1: both parts form-urlencoded before the base64.
      const basic = btoa(`${formEncode(clientId ?? '')}:${formEncode(clientSecret ?? '')}`);
      secrets.add(basic);
      headers.set('authorization', `Basic ${basic}`);
      return;
    }
    case 'client_secret_post':
      if (clientId !== undefined) form.set('client_id', clientId);
      if (clientSecret !== undefined) form.set('client_secret', clientSecret);
      return;
    case 'private_key_jwt': {
      if (privateKey === undefined || clientId === undefined) return;
      const sign = createPrivateKeyJwtAuth({
        issuer: clientId,
        subject: clientId,
        privateKey: privateKey.jwk,
        alg: privateKey.algorithm,
        ...(request.metadata?.issuer !== undefined && { audience: request.metadata.issuer }),
      });
      await sign(headers, form, url, request.metadata);
      secrets.add(form.get('client_assertion') ?? undefined);
      return;
    }
    case 'none':
      if (clientId !== undefined) form.set('client_id', clientId);
      return;
  }
}

/** `application/x-www-form-urlencoded` encoding of one value (RFC 6749 Appendix B). */
function formEncode(value: string): string {
  return new URLSearchParams({ v: value }).toString().slice(2);
}

/**
 * The `error` and `error_description` of a refusal body (RFC 6749 §5.2). The description is the server's
 * text: redacted (the known secrets, then anything that looks like a JWT), on one line, at most
 * {@link BODY_EXCERPT_CHARS} characters.
 */
function readRefusal(body: string, secrets: SecretSet): { oauthError?: string; description?: string } {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    return {};
  }
  if (typeof parsed !== 'object' || parsed === null) return {};
  const { error, error_description: description } = parsed as Record<string, unknown>;
  // RFC 6749 §5.2: `error` is printable ASCII without `"` and `\`; anything else is not an error code.
  const code =
    typeof error === 'string' && /^[\x20\x21\x23-\x5b\x5d-\x7e]{1,64}$/.test(error) ? error : undefined;
  const text =
    typeof description === 'string'
      ? redactJwtLike(secrets.redact(description))
          .replace(/\p{Cc}+/gu, ' ')
          .slice(0, BODY_EXCERPT_CHARS)
      : undefined;
  return {
    ...(code !== undefined && { oauthError: secrets.redact(code) }),
    ...(text !== undefined && { description: text }),
  };
}

function isTokenAnswer(value: unknown): value is TokenAnswer {
  if (typeof value !== 'object' || value === null) return false;
  const { access_token, token_type } = value as Record<string, unknown>;
  return typeof access_token === 'string' && access_token !== '' && typeof token_type === 'string';
}
