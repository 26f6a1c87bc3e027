/**
 * auth/: authorization without a browser: the grants' configuration, signing keys, and their errors.
 *
 * The `auth` option of `MCPClient.fromUrl` (and the `"auth"` field of a configuration entry): authorization
 * without a browser, for machine-to-machine use. The authorization server is discovered as for the
 * authorization-code flow (MCP spec 2026-07-28, "Authorization > Authorization Server Discovery": the
 * protected resource metadata of RFC 9728, then RFC 8414 metadata), and the token is requested once per 401:
 * a refused grant is reported, never retried.
 *
 * Three grants (MCP authorization extensions, `io.modelcontextprotocol/…`):
 * - {@link MCPClientCredentialsAuth}: OAuth client credentials (SEP-1046), the client authenticating with a
 *   secret (`client_secret_basic` / `client_secret_post`) or a signed JWT (`private_key_jwt`, RFC 7523 §2.2).
 * - {@link MCPJwtBearerAuth}: a JWT the workload already holds, presented as an RFC 7523 JWT-bearer grant
 *   (workload identity federation, SEP-1933).
 * - {@link MCPEnterpriseAuth}: enterprise-managed authorization (SEP-990): the user's ID token is exchanged at
 *   the enterprise IdP for an identity assertion JWT authorization grant (ID-JAG, RFC 8693 token exchange),
 *   which the MCP server's authorization server then exchanges for an access token (RFC 7523 JWT-bearer).
 *
 * Every secret here (client secret, private key, assertion, ID token, the ID-JAG and the tokens obtained) is
 * redacted from errors, their causes, events and logs.
 */

/** How the client authenticates at a token endpoint (RFC 6749 §2.3.1, RFC 7523 §2.2, RFC 7591 §2). */
export type MCPTokenEndpointAuthMethod =
  | 'client_secret_basic'
  | 'client_secret_post'
  | 'private_key_jwt'
  | 'none';

/**
 * A secret text given inline, by a function called before each token request (rotating credentials: a
 * Kubernetes projected service account token, a cloud metadata server), or read from a file then.
 */
export type MCPSecretSource = string | ((context: MCPGrantContext) => string | Promise<string>);

/** What a {@link MCPSecretSource} function is told about the token request it is for. */
export interface MCPGrantContext {
  /** The authorization server's `issuer`: the audience a workload JWT must carry. */
  issuer: string;
  /** The token endpoint the request goes to. */
  tokenEndpoint: string;
  /** The MCP server's resource identifier (RFC 9728 `resource`, RFC 8707). */
  resource: string;
}

/** Fields every grant has. */
interface MCPGrantBase {
  /**
   * Scopes to ask for, space-separated. Default: the scope of the server's 401 challenge, else the
   * protected resource metadata's `scopes_supported`; a `403 insufficient_scope` widens it (step-up).
   */
  scope?: string;
  /**
   * The authorization server's `issuer` these credentials belong to. When set, a server whose metadata names
   * another authorization server gets no credentials (the SDK's `AuthorizationServerMismatchError`, MCP spec
   * 2026-07-28 "Authorization": credentials are bound to their issuer). Default: whichever it names.
   */
  issuer?: string;
}

/** OAuth client credentials (SEP-1046; OAuth 2.1 §4.2), for a confidential client acting on its own behalf. */
export interface MCPClientCredentialsAuth extends MCPGrantBase {
  grant: 'client_credentials';
  /** The client's `client_id`, registered with the authorization server in advance. */
  clientId: string;
  /** The client secret (`client_secret_basic` or `client_secret_post`). One of it and a private key. */
  clientSecret?: string;
  /**
   * The private key that signs the `private_key_jwt` client assertion: PEM (PKCS#8, `-----BEGIN PRIVATE
   * KEY-----`) or a JWK as JSON text. One of it, `privateKeyFile` and `clientSecret`.
   */
  privateKey?: string;
  /** A file holding {@link MCPClientCredentialsAuth.privateKey}, read when the first token is requested. */
  privateKeyFile?: string;
  /** The JWS algorithm of the client assertion (`ES256`, `RS256`, `EdDSA`…). Default: from the key's type. */
  algorithm?: string;
  /**
   * Default: `private_key_jwt` with a key; with a secret, `client_secret_basic` unless the authorization server
   * lists only `client_secret_post` among its `token_endpoint_auth_methods_supported`.
   */
  tokenEndpointAuthMethod?: MCPTokenEndpointAuthMethod;
}

/** An RFC 7523 JWT-bearer grant with a JWT the caller holds: workload identity federation (SEP-1933). */
export interface MCPJwtBearerAuth extends MCPGrantBase {
  grant: 'jwt_bearer';
  /** The workload's JWT (its audience the authorization server's issuer). One of it and `assertionFile`. */
  assertion?: MCPSecretSource;
  /** A file holding the JWT, read again before each token request (the platform rotates it). */
  assertionFile?: string;
  /** A `client_id`, when the authorization server wants one beside the assertion. Default: none sent. */
  clientId?: string;
  /** A client secret, when the authorization server also authenticates the client. Default: none. */
  clientSecret?: string;
  /** Default: `client_secret_basic` with a secret, else `none` (`client_id` in the form, when given). */
  tokenEndpointAuthMethod?: MCPTokenEndpointAuthMethod;
}

/** The enterprise identity provider of {@link MCPEnterpriseAuth}. */
export interface MCPEnterpriseIdp {
  /** The IdP's issuer URL, whose metadata names its token endpoint. One of it and `tokenEndpoint`. */
  issuer?: string;
  /** The IdP's token endpoint, when its metadata is not published. */
  tokenEndpoint?: string;
  /** The client's `client_id` at the IdP. */
  clientId: string;
  /** The client's secret at the IdP (sent as `client_secret_post`). Default: none (a public client). */
  clientSecret?: string;
}

/** Enterprise-managed authorization (SEP-990): ID token → ID-JAG at the IdP → access token at the server's AS. */
export interface MCPEnterpriseAuth extends MCPGrantBase {
  grant: 'enterprise';
  /** The user's OpenID Connect ID token from the enterprise IdP. One of it and `idTokenFile`. */
  idToken?: MCPSecretSource;
  /** A file holding the ID token, read again before each token exchange. */
  idTokenFile?: string;
  /** Where the ID token is exchanged for an ID-JAG (RFC 8693). */
  idp: MCPEnterpriseIdp;
  /** The client's `client_id` at the MCP server's authorization server. */
  clientId: string;
  /** The client's secret there. */
  clientSecret?: string;
  /** At the MCP server's authorization server. Default: `client_secret_basic` with a secret, else `none`. */
  tokenEndpointAuthMethod?: MCPTokenEndpointAuthMethod;
}

/** Authorization without a browser: one of the three grants. */
export type MCPHttpAuth = MCPClientCredentialsAuth | MCPJwtBearerAuth | MCPEnterpriseAuth;

/** What an {@link MCPHttpAuth} lacks: the field (under `auth`) and the problem; undefined when it is whole. */
export function authProblem(auth: MCPHttpAuth): { field: string; problem: string } | undefined {
  const exactlyOne = (fields: string[], values: unknown[]) =>
    values.filter((value) => value !== undefined).length === 1
      ? undefined
      : { field: fields[0]!, problem: `needs exactly one of ${fields.join(', ')}` };
  switch (auth.grant) {
    case 'client_credentials':
      return exactlyOne(
        ['clientSecret', 'privateKey', 'privateKeyFile'],
        [auth.clientSecret, auth.privateKey, auth.privateKeyFile],
      );
    case 'jwt_bearer':
      return exactlyOne(['assertion', 'assertionFile'], [auth.assertion, auth.assertionFile]);
    case 'enterprise':
      if (auth.idp === undefined) return { field: 'idp', problem: 'is required' };
      return (
        exactlyOne(['idToken', 'idTokenFile'], [auth.idToken, auth.idTokenFile]) ??
        exactlyOne(['idp.issuer', 'idp.tokenEndpoint'], [auth.idp.issuer, auth.idp.tokenEndpoint])
      );
    default:
      return { field: 'grant', problem: 'must be "client_credentials", "jwt_bearer" or "enterprise"' };
  }
}

/**
 * Whether `auth` gives a `clientSecret` that its `tokenEndpointAuthMethod` (`none`) never sends: a secret
 * dropped silently would leave the token request unauthenticated, refused with `invalid_client`.
 */
export function unsentSecret(auth: MCPHttpAuth): boolean {
  return auth.clientSecret !== undefined && auth.tokenEndpointAuthMethod === 'none';
}

/** The fields {@link unsentSecret} names. */
export const UNSENT_SECRET_FIELDS = ['auth.clientSecret', 'auth.tokenEndpointAuthMethod'] as const;
