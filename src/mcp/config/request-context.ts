/**
 * Whom a request is made for and what it is (`MCPRequestContext`), and the request-dependent sources of an
 * HTTP server's credentials that receive it: the `headers` option as a function and a token supplier
 * (`authProvider`). The client's hooks receive the same context (client/hooks/).
 */
import type { RunContext } from '../../core/tool.js';

/**
 * What a request is and whom it is made for: given to the `headers` function, a token supplier and the
 * hooks.
 */
export interface MCPRequestContext {
  /** The client's name for the server. */
  readonly server: string;
  /**
   * The host's context of the run or call the request is made for: the `context` option of the call, of
   * `connect()`, or of the agent run (`RunOptions.context`); `undefined` when none was given (a
   * `list_changed` refresh, a reconnect after a connect without one).
   */
  readonly run: RunContext | undefined;
  /**
   * The JSON-RPC method (`initialize`, `server/discover`, `tools/list`, `tools/call`, …). The `headers`
   * function and a token supplier are asked per HTTP request, so they also see `notifications/initialized`
   * and the other notifications, `response` (a response to a server request), `GET` (the server's SSE
   * stream) and `DELETE` (the end of the session).
   */
  readonly method: string;
  /** The tool's name, for `tools/call`. */
  readonly toolName?: string | undefined;
  /** 1; 2 when the `headers` function or token supplier is asked again after a `401`. */
  readonly attempt: number;
}

/**
 * The OAuth tokens a {@link MCPTokenSupplier} hands out: the access token, sent as `Authorization: Bearer`.
 * An `OAuthTokens` of the MCP SDK is one.
 */
export interface MCPTokens {
  access_token: string;
  token_type?: string | undefined;
}

/**
 * Where a client's access token comes from, per request: the `authProvider` option takes one. An OAuth
 * provider (the MCP SDK's `OAuthClientProvider`) is one, with its whole flow (refresh, authorization,
 * `finishAuth`); anything else with a `tokens()` method is a bare supplier, asked with the request's
 * context before every HTTP request, the connect's included, and once more after a `401` (`attempt` 2;
 * a second `401` fails the request with kind `http`, status 401). A static token is
 * `{ tokens: () => ({ access_token: 'abc' }) }`. Tokens are secrets: redacted from every error.
 */
export interface MCPTokenSupplier {
  /** The token for this request; `undefined` sends none. A rejection fails the request. */
  tokens(context: MCPRequestContext): MCPTokens | undefined | Promise<MCPTokens | undefined>;
}

/**
 * The `headers` option of `fromUrl` as a function: the headers of each HTTP request, asked with its context
 * before every HTTP request (the connect's included) and once more after a `401`, over which the request is
 * sent again once. Names that fetch refuses fail the request with `MCPConfigError`.
 */
export type MCPHeadersFunction = (
  context: MCPRequestContext,
) => Readonly<Record<string, string>> | Promise<Readonly<Record<string, string>>>;
