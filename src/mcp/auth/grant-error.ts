/**
 * A token request of a grant without a browser (the `auth` option: client credentials, JWT bearer,
 * enterprise-managed authorization) that an authorization server or IdP refused. It is final: the request is
 * not sent again, by this client or by a reconnect, until the host changes something (RFC 6749 §5.2 errors
 * such as `invalid_client` and `invalid_grant` do not go away on their own).
 */
import { MCPError } from '../protocol/errors.js';

/** Which token request failed: the grant agentwire asked for (the enterprise flow makes two requests). */
export type MCPOAuthGrantType = 'client_credentials' | 'jwt_bearer' | 'token_exchange';

/** Fields of {@link MCPOAuthGrantError}. */
export interface MCPOAuthGrantErrorDetails {
  server: string | undefined;
  grant: MCPOAuthGrantType;
  /** The token endpoint, as origin and path (never a query). */
  endpoint: string;
  /** The RFC 6749 §5.2 `error` code; undefined when the answer carried none (or not a valid one). */
  oauthError?: string | undefined;
  /** The HTTP status of the answer; undefined when no usable answer came (see `cause`). */
  status?: number | undefined;
  /**
   * The `error_description`, redacted (the request's secrets and anything that looks like a JWT), on one
   * line, at most 512 characters.
   */
  description?: string | undefined;
  cause?: unknown;
}

/**
 * The authorization server (or, for `token_exchange`, the enterprise IdP) refused a token request, or answered
 * one with something that is not a token. The message names the server, the grant, the OAuth error code, the
 * HTTP status and, last, the redacted description; it never holds a credential.
 */
export class MCPOAuthGrantError extends MCPError {
  override name = 'MCPOAuthGrantError';
  readonly grant: MCPOAuthGrantType;
  readonly endpoint: string;
  readonly oauthError: string | undefined;
  readonly status: number | undefined;
  readonly description: string | undefined;
  /** The message without the server's name, for errors that name it themselves. */
  readonly reason: string;

  constructor(details: MCPOAuthGrantErrorDetails) {
    const reason = grantReason(details);
    super(details.server === undefined ? reason : `server "${details.server}": ${reason}`, details);
    this.grant = details.grant;
    this.endpoint = details.endpoint;
    this.oauthError = details.oauthError;
    this.status = details.status;
    this.description = details.description;
    this.reason = reason;
  }
}

function grantReason(details: MCPOAuthGrantErrorDetails): string {
  const who = details.grant === 'token_exchange' ? 'the identity provider' : 'the authorization server';
  const code = details.oauthError === undefined ? '' : `: ${details.oauthError}`;
  if (details.status === undefined) {
    return `the ${details.grant} token request to ${details.endpoint} failed${code}`;
  }
  if (details.status >= 200 && details.status < 300) {
    return `${who} answered the ${details.grant} grant at ${details.endpoint} without a usable token (HTTP ${details.status})`;
  }
  // The description (redacted, one line) says why in the server's words: often the only clue to a fix.
  const why =
    details.description === undefined || details.description === '' ? '' : `: ${details.description}`;
  return `${who} refused the ${details.grant} grant${code} (HTTP ${details.status} from ${details.endpoint})${why}`;
}
