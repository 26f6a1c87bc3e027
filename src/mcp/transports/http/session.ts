/**
 * The Streamable HTTP session (MCP spec 2025-11-25, "Transports > Streamable HTTP > Session Management"): the
 * `Mcp-Session-Id` the server assigns in its answer to `initialize` and the client sends on every later
 * request; its expiry, when the server answers a request that carried it with 404 (or a 400 saying the
 * session is unknown); and the DELETE that ends it when the transport closes.
 */
import type { JSONRPCMessage } from '@modelcontextprotocol/client';
import type { MCPCallError } from '../../protocol/errors.js';
import { oneHeaderValue } from '../../protocol/header-value.js';
import {
  type HttpErrorContext,
  httpStatusError,
  readBodyExcerpt,
  saysSessionUnknown,
  sessionExpiredError,
} from './errors.js';

/**
 * The `initialize` request, which starts a new session. A structural check: the SDK's zod guard was a cost
 * per request.
 */
export function isInitialize(message: JSONRPCMessage): boolean {
  return 'method' in message && message.method === 'initialize' && 'id' in message;
}

/** One transport's session with its server. */
export class HttpSession {
  readonly #server: string;
  readonly #deleteTimeoutMs: number;
  readonly #onExpired: () => void;
  #id: string | undefined;
  /** Set when the server forgot our session: only a new `initialize` may go out until one succeeds. */
  #expired: { status: number; body: string } | undefined;

  /**
   * @param server - The server's name, for errors.
   * @param deleteTimeoutMs - Bound on the DELETE of {@link HttpSession.end}, in ms.
   * @param onExpired - Called when the server forgot the session (the GET stream belonged to it).
   */
  constructor(server: string, deleteTimeoutMs: number, onExpired: () => void) {
    this.#server = server;
    this.#deleteTimeoutMs = deleteTimeoutMs;
    this.#onExpired = onExpired;
  }

  /** The `Mcp-Session-Id` the server assigned, until it expires or the transport closes. */
  get id(): string | undefined {
    return this.#id;
  }

  /**
   * The `session_expired` error `message` fails with without being sent, when the server forgot the session
   * and `message` is not a new `initialize`; `undefined` when it may go.
   */
  refusal(message: JSONRPCMessage, method: string | undefined): MCPCallError | undefined {
    if (this.#expired === undefined || isInitialize(message)) return undefined;
    return sessionExpiredError({ server: this.#server, method }, this.#expired.status, this.#expired.body);
  }

  /**
   * After a 2xx answer to `initialize`: the session it assigned, if any, is current (a value a proxy repeated,
   * `a, a`, is read once: header-value.ts); an expiry is over.
   */
  started(headers: { get(name: string): string | null }): void {
    this.#id = oneHeaderValue(headers.get('mcp-session-id'));
    this.#expired = undefined;
  }

  /**
   * The error for a non-2xx answer to a request sent with session `sentWith`: `session_expired` when the
   * server no longer knows it (the session is then forgotten, unless another one replaced it meanwhile),
   * else `http`. Reads at most an excerpt of the body.
   */
  async failedAnswer(
    response: Response,
    context: HttpErrorContext,
    sentWith: string | undefined,
  ): Promise<MCPCallError> {
    const body = await readBodyExcerpt(response);
    const unknownSession =
      sentWith !== undefined &&
      (response.status === 404 || (response.status === 400 && saysSessionUnknown(body)));
    if (!unknownSession) return httpStatusError(context, response.status, body);
    if (this.#id === sentWith) {
      this.#id = undefined;
      this.#expired = { status: response.status, body };
      this.#onExpired();
    }
    return sessionExpiredError(context, response.status, body);
  }

  /**
   * Ends session `id` (the one current when the transport began to close) with `sendDelete`, then forgets
   * the session. Best-effort and bounded by `deleteTimeoutMs`: the spec lets a server answer 405 (it does
   * not let clients end sessions), a 404 means it already forgot this one, and when the DELETE fails the
   * server's own session timeout ends the session. Never throws.
   */
  async end(
    id: string | undefined,
    sendDelete: (id: string, signal: AbortSignal) => Promise<Response>,
  ): Promise<void> {
    if (id !== undefined) {
      const signal = AbortSignal.timeout(this.#deleteTimeoutMs);
      try {
        const response = await sendDelete(id, signal);
        await response.body?.cancel().catch(() => {});
      } catch {
        // Best-effort teardown, as above.
      }
    }
    this.#id = undefined;
  }
}
