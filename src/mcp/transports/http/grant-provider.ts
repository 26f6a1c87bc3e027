/**
 * The `auth` option's grants (auth-grant.ts) as an OAuth provider that {@link HttpAuth} drives like any
 * other: its `tokens()` give the `Authorization: Bearer` of every request, and on a 401 (or a
 * `403 insufficient_scope`) HttpAuth calls {@link GrantProvider.authorize} instead of the SDK's `auth()`.
 * That runs the discovery of the authorization-code flow (MCP spec 2026-07-28, "Authorization > Authorization
 * Server Discovery": protected resource metadata, then the authorization server's metadata, through the
 * SDK's `discoverOAuthServerInfo`), then the grant's token request(s) once (token-request.ts). The SDK's
 * `auth()` is not used: it sends a refused client-credentials or JWT-bearer request again after
 * `invalid_client` or `invalid_grant`, which SEP-1933 asks clients not to do.
 *
 * Tokens live in memory only; an expired one is dropped, so the next request goes without it, is answered
 * 401, and a new token is requested (there is no refresh token in these grants, RFC 6749 §4.4.3).
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import {
  type AuthorizationServerMetadata,
  AuthorizationServerMismatchError,
  buildDiscoveryUrls,
  discoverOAuthServerInfo,
  type FetchLike,
  type OAuthClientInformation,
  type OAuthClientMetadata,
  type OAuthClientProvider,
  type OAuthTokens,
  selectClientAuthMethod,
  selectResourceURL,
  UnauthorizedError,
} from '@modelcontextprotocol/client';
import { MCPAuthConfigError } from '../../auth/auth-config-error.js';
import {
  authProblem,
  type MCPGrantContext,
  type MCPHttpAuth,
  type MCPSecretSource,
  type MCPTokenEndpointAuthMethod,
  UNSENT_SECRET_FIELDS,
  unsentSecret,
} from '../../auth/auth-grant.js';
import { readSigningKey, signingAlgorithm } from '../../auth/signing-key.js';
import { MCPConfigError } from '../../protocol/errors.js';
import type { SecretSet } from '../../protocol/redact.js';
import { type ClientAuthentication, requestToken } from './token-request.js';

const JWT_BEARER = 'urn:ietf:params:oauth:grant-type:jwt-bearer';
const TOKEN_EXCHANGE = 'urn:ietf:params:oauth:grant-type:token-exchange';
const ID_JAG = 'urn:ietf:params:oauth:token-type:id-jag';
const ID_TOKEN = 'urn:ietf:params:oauth:token-type:id_token';
/** A token this close to its expiry is not sent any more, in ms. */
const EXPIRY_MARGIN_MS = 30_000;

/** What {@link HttpAuth} hands {@link GrantProvider.authorize}. */
export interface GrantAuthorizeOptions {
  serverUrl: URL;
  resourceMetadataUrl?: URL | undefined;
  /** The scopes asked for so far (the 401 challenge's, widened by step-ups). */
  scope?: string | undefined;
  fetch?: FetchLike | undefined;
  skipIssuerMetadataValidation?: boolean | undefined;
}

/** Options of {@link GrantProvider}. */
export interface GrantProviderOptions {
  /** The server's name, for errors. */
  server: string | undefined;
  /** The client's redactor: every credential is added before it is sent. */
  secrets: SecretSet;
}

/** Obtains tokens for one {@link MCPHttpAuth} grant. */
export class GrantProvider implements OAuthClientProvider {
  readonly #grant: MCPHttpAuth;
  readonly #options: GrantProviderOptions;
  #tokens: OAuthTokens | undefined;
  #expiresAt: number | undefined;
  #privateKey: Promise<{ jwk: Record<string, unknown>; algorithm: string }> | undefined;

  /**
   * @throws MCPConfigError when the grant lacks what it needs (a secret or key, an assertion, an IdP);
   *   MCPAuthConfigError (`secret_not_sent`) for a `clientSecret` with `tokenEndpointAuthMethod: "none"`,
   *   (`algorithm_mismatch`) for an inline `privateKey` that `algorithm` cannot sign with; MCPConfigError
   *   for an inline `privateKey` that is not a private key.
   */
  constructor(grant: MCPHttpAuth, options: GrantProviderOptions) {
    checkGrant(grant, options.server);
    // An inline key is known now: a wrong algorithm is refused here rather than at the first token request.
    if (grant.grant === 'client_credentials' && grant.privateKey !== undefined)
      checkedKey(grant.privateKey, grant.algorithm, options.server);
    this.#grant = grant;
    this.#options = options;
    options.secrets.add(grant.clientSecret);
    if (grant.grant === 'client_credentials') options.secrets.add(grant.privateKey);
    if (grant.grant === 'jwt_bearer' && typeof grant.assertion === 'string')
      options.secrets.add(grant.assertion);
    if (grant.grant === 'enterprise') {
      if (typeof grant.idToken === 'string') options.secrets.add(grant.idToken);
      options.secrets.add(grant.idp.clientSecret);
    }
  }

  get redirectUrl(): undefined {
    return undefined;
  }

  get clientMetadata(): OAuthClientMetadata {
    return { redirect_uris: [], client_name: 'agentwire', grant_types: [this.#grantType()] };
  }

  /** The client id and secret, so that HttpAuth redacts the secret and its Basic form too. */
  clientInformation(): OAuthClientInformation | undefined {
    const { clientId, clientSecret } = this.#grant;
    if (clientId === undefined) return undefined;
    return { client_id: clientId, ...(clientSecret !== undefined && { client_secret: clientSecret }) };
  }

  /** The tokens held, unless they expire within 30 s. */
  tokens(): OAuthTokens | undefined {
    if (this.#expiresAt !== undefined && Date.now() >= this.#expiresAt - EXPIRY_MARGIN_MS) {
      this.#tokens = undefined;
      this.#expiresAt = undefined;
    }
    return this.#tokens;
  }

  saveTokens(tokens: OAuthTokens): void {
    this.#tokens = tokens;
    this.#expiresAt = tokens.expires_in === undefined ? undefined : Date.now() + tokens.expires_in * 1000;
  }

  /** @throws UnauthorizedError: these grants have no browser step. */
  redirectToAuthorization(): void {
    throw this.#noBrowser();
  }

  saveCodeVerifier(): void {}

  /** @throws UnauthorizedError: no authorization-code flow is ever in progress. */
  codeVerifier(): string {
    throw this.#noBrowser();
  }

  /**
   * Discovers the authorization server and requests a token (two requests for `enterprise`), once.
   * @throws MCPOAuthGrantError when a token request is refused; the SDK's discovery errors
   *   (`IssuerMismatchError`, …); `AuthorizationServerMismatchError` when `issuer` is set and the server
   *   names another; MCPAuthConfigError (`unreadable_file`) when a file cannot be read, naming it;
   *   MCPConfigError when a key cannot be used.
   */
  async authorize(options: GrantAuthorizeOptions): Promise<void> {
    const info = await discoverOAuthServerInfo(options.serverUrl, {
      ...(options.resourceMetadataUrl !== undefined && { resourceMetadataUrl: options.resourceMetadataUrl }),
      ...(options.fetch !== undefined && { fetchFn: options.fetch }),
      ...(options.skipIssuerMetadataValidation === true && { skipIssuerMetadataValidation: true }),
    });
    const metadata = info.authorizationServerMetadata;
    const issuer = metadata?.issuer ?? String(info.authorizationServerUrl);
    if (this.#grant.issuer !== undefined && !sameUrl(this.#grant.issuer, issuer)) {
      throw new AuthorizationServerMismatchError(this.#grant.issuer, issuer);
    }
    // The resource exactly as the metadata publishes it (RFC 9728 §3.3), once the SDK checked it matches.
    const selected = await selectResourceURL(options.serverUrl, this, info.resourceMetadata);
    const resource = info.resourceMetadata?.resource ?? selected?.href ?? options.serverUrl.href;
    const tokenEndpoint = String(metadata?.token_endpoint ?? new URL('/token', info.authorizationServerUrl));
    const scope =
      unionScope(this.#grant.scope, options.scope) ?? info.resourceMetadata?.scopes_supported?.join(' ');
    const context: MCPGrantContext = { issuer, tokenEndpoint, resource };
    const form = await this.#grantForm(context, scope, options.fetch);
    form.set('resource', resource);
    if (scope !== undefined && scope !== '') form.set('scope', scope);
    const tokens = await requestToken({
      server: this.#options.server,
      grant: this.#grant.grant === 'client_credentials' ? 'client_credentials' : 'jwt_bearer',
      endpoint: tokenEndpoint,
      form,
      client: await this.#clientAuthentication(metadata),
      metadata,
      fetch: options.fetch,
      secrets: this.#options.secrets,
    });
    this.saveTokens(tokens);
  }

  #grantType(): string {
    return this.#grant.grant === 'client_credentials' ? 'client_credentials' : JWT_BEARER;
  }

  /** The grant's own form fields: the grant type and, for JWT bearer, the assertion. */
  async #grantForm(context: MCPGrantContext, scope: string | undefined, fetch: FetchLike | undefined) {
    const grant = this.#grant;
    if (grant.grant === 'client_credentials')
      return new URLSearchParams({ grant_type: 'client_credentials' });
    const assertion =
      grant.grant === 'jwt_bearer'
        ? await this.#secret(grant.assertion, grant.assertionFile, 'assertion', context)
        : await this.#idJag(context, scope, fetch);
    return new URLSearchParams({ grant_type: JWT_BEARER, assertion });
  }

  /** SEP-990 step 1: the ID token exchanged at the IdP for an ID-JAG meant for this authorization server. */
  async #idJag(context: MCPGrantContext, scope: string | undefined, fetch: FetchLike | undefined) {
    const grant = this.#grant;
    if (grant.grant !== 'enterprise') throw new TypeError('not an enterprise grant');
    const idToken = await this.#secret(grant.idToken, grant.idTokenFile, 'idToken', context);
    const endpoint = grant.idp.tokenEndpoint ?? (await idpTokenEndpoint(grant.idp.issuer!, fetch));
    const form = new URLSearchParams({
      grant_type: TOKEN_EXCHANGE,
      requested_token_type: ID_JAG,
      audience: context.issuer,
      resource: context.resource,
      subject_token: idToken,
      subject_token_type: ID_TOKEN,
    });
    if (scope !== undefined && scope !== '') form.set('scope', scope);
    const answer = await requestToken({
      server: this.#options.server,
      grant: 'token_exchange',
      endpoint,
      form,
      client: {
        method: grant.idp.clientSecret === undefined ? 'none' : 'client_secret_post',
        clientId: grant.idp.clientId,
        clientSecret: grant.idp.clientSecret,
      },
      fetch,
      secrets: this.#options.secrets,
    });
    return answer.access_token;
  }

  /** A secret from its source: inline, a function's answer, or a file's content (trimmed). */
  async #secret(
    source: MCPSecretSource | undefined,
    file: string | undefined,
    field: string,
    context: MCPGrantContext,
  ): Promise<string> {
    let value: string;
    if (typeof source === 'string') value = source;
    else if (source !== undefined) value = await source(context);
    else value = await readSecretFile(file!, `${field}File`, this.#options.server);
    value = value.trim();
    this.#options.secrets.add(value);
    return value;
  }

  async #clientAuthentication(
    metadata: AuthorizationServerMetadata | undefined,
  ): Promise<ClientAuthentication> {
    const grant = this.#grant;
    const client = { clientId: grant.clientId, clientSecret: grant.clientSecret };
    if (grant.grant === 'client_credentials' && (grant.privateKey ?? grant.privateKeyFile) !== undefined) {
      this.#privateKey ??= loadPrivateKey(
        grant.privateKey,
        grant.privateKeyFile,
        grant.algorithm,
        this.#options,
      );
      return {
        method: grant.tokenEndpointAuthMethod ?? 'private_key_jwt',
        ...client,
        privateKey: await this.#privateKey,
      };
    }
    return {
      method: grant.tokenEndpointAuthMethod ?? defaultMethod(grant.clientId, grant.clientSecret, metadata),
      ...client,
    };
  }

  #noBrowser(): UnauthorizedError {
    return new UnauthorizedError(
      `this client authorizes with the ${this.#grant.grant} grant, which has no browser step`,
    );
  }
}

/** `client_secret_basic` or `client_secret_post` with a secret (the SDK's choice), else `none`. */
function defaultMethod(
  clientId: string | undefined,
  clientSecret: string | undefined,
  metadata: AuthorizationServerMetadata | undefined,
): MCPTokenEndpointAuthMethod {
  if (clientSecret === undefined) return 'none';
  const supported = metadata?.token_endpoint_auth_methods_supported ?? [];
  const method = selectClientAuthMethod(
    { client_id: clientId ?? '', client_secret: clientSecret },
    supported,
  );
  return method === 'client_secret_post' ? 'client_secret_post' : 'client_secret_basic';
}

/** The grant checked for what it needs. @throws MCPConfigError naming the missing field. */
function checkGrant(grant: MCPHttpAuth, server: string | undefined): void {
  const found = authProblem(grant);
  if (found !== undefined)
    throw new MCPConfigError(`auth.${found.field} ${found.problem}`, { field: `auth.${found.field}` });
  if (unsentSecret(grant))
    throw new MCPAuthConfigError({ problem: 'secret_not_sent', entry: server, fields: UNSENT_SECRET_FIELDS });
}

/**
 * The IdP's token endpoint, from its RFC 8414 or OpenID Connect metadata (the first of the SDK's discovery
 * URLs that answers), whose `issuer` must be the one configured (RFC 8414 §3.3). Read leniently: an IdP that
 * only exchanges tokens publishes none of the authorization-endpoint fields the SDK's schemas require.
 */
async function idpTokenEndpoint(issuer: string, fetch: FetchLike | undefined): Promise<string> {
  const field = 'auth.idp.issuer';
  for (const { url } of buildDiscoveryUrls(issuer)) {
    let metadata: unknown;
    try {
      const response = await (fetch ?? globalThis.fetch)(url, { headers: { accept: 'application/json' } });
      if (!response.ok) {
        await response.body?.cancel().catch(() => {});
        continue;
      }
      metadata = await response.json();
    } catch (error) {
      throw new MCPConfigError('auth (enterprise): the IdP metadata cannot be read', { field, cause: error });
    }
    const { issuer: named, token_endpoint: endpoint } = (metadata ?? {}) as Record<string, unknown>;
    if (typeof named !== 'string' || !sameUrl(named.replace(/\/$/, ''), issuer.replace(/\/$/, '')))
      throw new MCPConfigError('auth (enterprise): the IdP metadata names another issuer', { field });
    if (typeof endpoint === 'string') return endpoint;
  }
  throw new MCPConfigError('auth (enterprise): the IdP publishes no metadata naming its token endpoint', {
    field,
  });
}

/**
 * A file's content, read when a token is requested.
 * @throws MCPAuthConfigError (`unreadable_file`) naming the server, the field and the path (never content).
 */
async function readSecretFile(file: string, field: string, server: string | undefined): Promise<string> {
  try {
    return await readFile(file, 'utf8');
  } catch (error) {
    throw new MCPAuthConfigError({
      problem: 'unreadable_file',
      entry: server,
      fields: [`auth.${field}`],
      path: path.resolve(file),
      code: (error as NodeJS.ErrnoException).code ?? 'unknown error',
      cause: error,
    });
  }
}

/**
 * The private key as a JWK, and its algorithm (given, or the usual one of its key type).
 * @throws MCPAuthConfigError when the file cannot be read (`unreadable_file`) or `algorithm` does not fit
 *   the key (`algorithm_mismatch`); MCPConfigError when the text is not a private key.
 */
async function loadPrivateKey(
  inline: string | undefined,
  file: string | undefined,
  algorithm: string | undefined,
  { server, secrets }: GrantProviderOptions,
): Promise<{ jwk: Record<string, unknown>; algorithm: string }> {
  const text = inline ?? (await readSecretFile(file!, 'privateKeyFile', server));
  secrets.add(text.trim());
  const key = checkedKey(text, algorithm, server);
  for (const part of ['d', 'p', 'q', 'dp', 'dq', 'qi'] as const) secrets.add(key.jwk[part]);
  return { jwk: key.jwk as Record<string, unknown>, algorithm: key.algorithm };
}

/** The key read and its algorithm chosen; throws as {@link loadPrivateKey}. */
function checkedKey(text: string, algorithm: string | undefined, server: string | undefined) {
  const key = readSigningKey(text);
  if (key === undefined)
    throw new MCPConfigError('auth (client_credentials): the private key is not a PEM or JWK private key', {
      field: 'auth.privateKey',
    });
  return { jwk: key.jwk, algorithm: signingAlgorithm(key, algorithm, { entry: server }) };
}

/** The union of two space-separated scope lists, in order; undefined when both are empty. */
function unionScope(a: string | undefined, b: string | undefined): string | undefined {
  const scopes = [...new Set(`${a ?? ''} ${b ?? ''}`.split(' ').filter((s) => s !== ''))];
  return scopes.length === 0 ? undefined : scopes.join(' ');
}

function sameUrl(a: string, b: string): boolean {
  try {
    return new URL(a).href === new URL(b).href;
  } catch {
    return a === b;
  }
}
