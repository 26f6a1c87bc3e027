/**
 * Which headers go on each Streamable HTTP request (MCP spec 2025-11-25, "Transports > Streamable HTTP"): the
 * caller's static headers without the connection's own, then the ones asked for per request (request-headers.ts),
 * then the per-message ones the SDK may add, then the
 * protocol's state: `Authorization` (and a DPoP-bound token's `DPoP` proof, RFC 9449), `Mcp-Session-Id`
 * ("Session Management") and `MCP-Protocol-Version` ("Protocol Version Header").
 */
import type { AuthHeaders } from './dpop.js';

/**
 * Headers of the connection and the message framing, owned by the HTTP client: dropped from the caller's
 * headers, as `fetch` drops or refuses them. A `Host` would send some requests to another virtual host, a
 * `Content-Length` made `fetch` wait for a body that never came.
 */
const CONNECTION_HEADERS = new Set([
  'host',
  'content-length',
  'connection',
  'keep-alive',
  'proxy-connection',
  'transfer-encoding',
  'te',
  'trailer',
  'upgrade',
  'expect',
]);

/** Headers an SDK per-message header may not override: they carry the protocol's own state. */
const RESERVED_HEADERS = new Set([
  ...CONNECTION_HEADERS,
  'accept',
  'content-type',
  'authorization',
  'dpop',
  'mcp-session-id',
  'mcp-protocol-version',
  'last-event-id',
]);

/** The headers of one transport's requests. Names are lower-cased throughout. */
export class RequestHeaders {
  /** The caller's static headers, names lower-cased, without {@link CONNECTION_HEADERS}. */
  readonly #static: Record<string, string>;
  /** Sent as `MCP-Protocol-Version` once set (the SDK sets it when `initialize` answered). */
  protocolVersion: string | undefined;

  /** @param headers - The caller's static headers (e.g. `Authorization`); never copied into errors. */
  constructor(headers: Readonly<Record<string, string>> | undefined) {
    const own: Record<string, string> = {};
    for (const [name, value] of Object.entries(headers ?? {})) {
      const key = name.toLowerCase();
      if (!CONNECTION_HEADERS.has(key)) own[key] = value;
    }
    this.#static = own;
  }

  /**
   * Static headers, then the per-message ones the SDK may add (`extra`, minus {@link RESERVED_HEADERS}), then
   * the protocol's own; names lower-cased so that a later one replaces an earlier one whatever its case. A
   * plain object, built synchronously: a `Headers` instance and an `await` per request were measurable on the
   * hot path, and `fetch` validates names and values either way. The caller adds `Accept` and the like.
   * @param session - The `Mcp-Session-Id` to send, if any.
   * @param credentials - The OAuth credential headers (`authorization`, and `dpop` for a DPoP-bound token:
   *   auth.ts `headersFor`), if any.
   * @param asked - The headers asked for this request (request-headers.ts): over the static ones, less the
   *   connection's own; an `Authorization` here is the caller's (a tenant's token) and stays unless OAuth
   *   credentials replace it.
   */
  for(
    extra: Readonly<Record<string, string>> | undefined,
    session: string | undefined,
    credentials: AuthHeaders | undefined,
    asked?: Readonly<Record<string, string>>,
  ): Record<string, string> {
    const headers = { ...this.#static };
    if (asked !== undefined) {
      for (const [name, value] of Object.entries(asked)) {
        const key = name.toLowerCase();
        if (!CONNECTION_HEADERS.has(key)) headers[key] = value;
      }
    }
    if (extra !== undefined) {
      for (const [name, value] of Object.entries(extra)) {
        const key = name.toLowerCase();
        if (!RESERVED_HEADERS.has(key)) headers[key] = value;
      }
    }
    if (credentials !== undefined) {
      headers.authorization = credentials.authorization;
      if (credentials.dpop !== undefined) headers.dpop = credentials.dpop;
    }
    if (session !== undefined) headers['mcp-session-id'] = session;
    if (this.protocolVersion !== undefined) headers['mcp-protocol-version'] = this.protocolVersion;
    return headers;
  }
}
