/**
 * How a server is described: a command to start (stdio) or the HTTP options of a URL, and the checks a
 * server URL and its headers must pass before anything is sent.
 */
import type { DpopKeyPair, FetchLike, OAuthClientProvider } from '@modelcontextprotocol/client';
import type { MCPHttpAuth } from '../auth/auth-grant.js';
import { MCPConfigError, MCPServerUrlError } from '../protocol/errors.js';
import type { MCPHeadersFunction, MCPTokenSupplier } from './request-context.js';

/**
 * A local server started as a child process, spoken to over its stdin and stdout (MCP spec 2025-11-25,
 * "Transports > stdio"); what `MCPClient.fromStdio` takes.
 */
export interface MCPStdioServer {
  /** Command to run (`node`, `npx`, `python`, an absolute path…), looked up on PATH. */
  command: string;
  /** Arguments passed to the command. */
  args?: string[];
  /**
   * Environment variables for the process, merged over a safe default environment (PATH, HOME, USER,
   * SHELL, TERM, LOGNAME — the SDK's list); these win. Values of 8 characters or more are redacted
   * (`[redacted]`) wherever the server's output reaches an error, event or stderr callback: stderr lines
   * (`stderrTail`, messages), skipped stdout lines, JSON-RPC error messages and `data`. Shorter values
   * (`DEBUG=1`, `PORT=3000`) are left as they are; `stderr: 'inherit'` copies the bytes unredacted.
   */
  env?: Record<string, string>;
  /** Pass the whole parent environment (then `env` on top). Default false. */
  inheritEnv?: boolean;
  /** Working directory. Default: the host's. */
  cwd?: string;
  /**
   * What to do with the server's stderr besides keeping its last lines for errors: `'capture'` (default,
   * keep only), `'inherit'` (also copy to the host's stderr, byte for byte), or a function receiving each
   * line (with `env` values redacted).
   */
  stderr?: 'capture' | 'inherit' | ((line: string) => void);
  /**
   * Largest message (stdout line) accepted, in bytes. A longer line ends the connection as soon as it
   * passes the limit (kind `protocol`, naming the limit): which call it answers cannot be known before it is
   * read, so every pending call fails, and with reconnection on the server is restarted. Default 256 MiB.
   */
  maxMessageBytes?: number;
}

/**
 * HTTP-specific options of `MCPClient.fromUrl` (MCP spec 2025-11-25, "Transports > Streamable HTTP"
 * and "Authorization").
 */
export interface MCPHttpServer {
  /**
   * Headers on every request (e.g. `Authorization: Bearer …`): fixed, or a function of the request's
   * context ({@link MCPHeadersFunction}: the tenant of the run, the method, the tool) asked before every
   * HTTP request, the connect's included, and once more after a `401`, over which the request is sent
   * again once. Values never appear in errors, their causes or events (redacted as `[redacted]`), and are
   * not sent to another origin: a redirect to another scheme, host or port is followed with the protocol's
   * own headers only (no caller header, no `Authorization`, no `Mcp-Session-Id`).
   */
  headers?: Record<string, string> | MCPHeadersFunction;
  /**
   * Where the access token comes from. An OAuth provider (the MCP SDK's `OAuthClientProvider` interface) for
   * servers that require OAuth: when the user must authorize, `connect()` fails with an `MCPCallError` (kind
   * `http`, status 401, `cause` the SDK's `UnauthorizedError`) after the provider's
   * `redirectToAuthorization(url)`; call `client.finishAuth(code)` and `connect()` again. Or a bare
   * {@link MCPTokenSupplier} (an object with `tokens(context)` only, a static token included), asked per
   * request with its context and once more after a `401`.
   */
  authProvider?: OAuthClientProvider | MCPTokenSupplier;
  /**
   * DPoP-bound access tokens for `authProvider` (RFC 9449; MCP authorization extension SEP-1932): the token
   * request carries a DPoP proof, and a token issued as `token_type: DPoP` is sent as `Authorization: DPoP
   * <token>` with a fresh proof on every request (POSTs, the GET stream, the session's DELETE, the HTTP+SSE
   * GET and POSTs); a server's `use_dpop_nonce` challenge is answered once with its nonce. `true`: a fresh
   * ES256 key pair per client, in memory and non-extractable. `{ keyPair }`: the key pair to sign with (the
   * MCP SDK's `DpopKeyPair`, e.g. from `generateDpopKeyPair()`), for tokens that outlive the client. A
   * provider implementing `dpop()` itself uses its own session whatever this is. Without `authProvider`
   * nothing changes. The private key never appears in errors, events or logs. Default: off.
   */
  dpop?: MCPDpopOption;
  /**
   * Authorization without a browser (machine to machine): OAuth client credentials (SEP-1046), a workload
   * JWT as an RFC 7523 JWT-bearer grant (SEP-1933), or enterprise-managed authorization (SEP-990); see
   * {@link MCPHttpAuth}. The authorization server is discovered from the server's 401 as for `authProvider`;
   * a refused token request fails `connect()` (or the call) with an `MCPCallError` of kind `http`, status
   * 401, whose `cause` is an `MCPOAuthGrantError`, and is not sent again. Not together with `authProvider`.
   */
  auth?: MCPHttpAuth;
  /**
   * Accept authorization server metadata whose `issuer` differs from the URL it was fetched for (RFC 8414
   * §3.3), for servers whose metadata predates that check. Security-weakening. Default false.
   */
  skipIssuerMetadataValidation?: boolean;
  /** `'streamable-http'`, `'sse'` (2024-11-05 HTTP+SSE), or `'auto'`: Streamable HTTP, else SSE. Default auto. */
  transport?: 'auto' | 'streamable-http' | 'sse';
  /**
   * Bound in ms on silence from a server while a response is awaited; resets on every byte. Default 120 000
   * (the HTTP transport's `DEFAULT_IDLE_TIMEOUT_MS`). Not applied to the 2026-07-28 `subscriptions/listen`
   * stream, which stays quiet until something changes.
   */
  idleTimeoutMs?: number;
  /**
   * Largest message accepted, in bytes: a JSON answer (counted after `Content-Encoding` is undone, so a
   * compression bomb stops at the bound) or one SSE event. Reaching it fails that one call at once (kind
   * `protocol`, naming the limit); on Streamable HTTP the connection stays up, on HTTP+SSE (where every
   * answer shares one stream) it ends. Error bodies are read to 512 characters whatever this is.
   * Default 256 MiB, as stdio.
   */
  maxMessageBytes?: number;
  /**
   * A `fetch` for every request (proxies, custom TLS, tests): any `(url, init) => Promise<Response>` (the
   * MCP SDK's `FetchLike`; the global `fetch` is one). Default: undici's `request()` on the global
   * dispatcher, the one the global `fetch` uses (so `setGlobalDispatcher` applies); the global `fetch`
   * itself when it is not Node's own (a stub, MSW), for ports `fetch` refuses, and after a redirect.
   */
  fetch?: FetchLike;
}

/**
 * The `dpop` option of {@link MCPHttpServer}: `true` (a fresh ES256 key pair per client), `false` (off), or
 * the key pair to sign DPoP proofs with (RFC 9449).
 */
export type MCPDpopOption = boolean | { keyPair: DpopKeyPair };

/**
 * The server URL, checked: the one check of every server URL (`MCPClient.fromUrl`, configuration entries,
 * the CLI's `--url`). It must be an absolute `http:` or `https:` URL without credentials (`user:password@`):
 * `fetch` cannot send them and they would be printed wherever the URL is. Messages never quote the URL.
 * @throws MCPServerUrlError whose `problem` says what is wrong (`invalid`, `not_http`, `credentials`).
 */
export function parseServerUrl(url: string | URL): URL {
  let target: URL;
  try {
    target = new URL(url);
  } catch {
    // Node's TypeError quotes the whole URL (`input`), query token included: it is not kept as `cause`.
    throw new MCPServerUrlError('invalid');
  }
  if (target.protocol !== 'http:' && target.protocol !== 'https:') {
    throw new MCPServerUrlError('not_http', { protocol: target.protocol });
  }
  if (target.username || target.password) throw new MCPServerUrlError('credentials');
  return target;
}

/**
 * Refuses headers that `fetch` would reject at the first request, where its error would quote the value.
 * @throws MCPConfigError naming the header, never its value.
 */
export function checkHeaders(headers: Record<string, string>): void {
  for (const [name, value] of Object.entries(headers)) {
    if (!/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/.test(name)) {
      throw new MCPConfigError(
        "a header name is not a valid HTTP header name (letters, digits and !#$%&'*+.^_`|~-)",
      );
    }
    if (typeof value !== 'string' || /[\r\n\0]/.test(value)) {
      throw new MCPConfigError(`header "${name}": the value must be a string without line breaks or NUL`);
    }
    try {
      new Headers([[name, value]]);
    } catch {
      throw new MCPConfigError(`header "${name}": the value is not a valid HTTP header value`);
    }
  }
}
