/**
 * What carries each HTTP request of a transport: undici's `request()` when it may be used (undici.ts says
 * why and when), else `fetch`: the caller's `fetch` option, or the global one. A server that redirects a
 * request, or listens on a port `fetch` refuses, is spoken to through `fetch` for the rest of the transport's
 * life, so that its redirects follow the Fetch standard's rules and a session has one outcome.
 */
import type { FetchLike } from '@modelcontextprotocol/client';
import { fetchFollowingRedirects } from './redirects.js';
import {
  type BodyLimit,
  isFetchBadPort,
  type JsonAnswer,
  REDIRECTED,
  sendWithUndici,
  UNBOUNDED,
  undiciAvailable,
} from './undici.js';

/** Sends one transport's requests to its endpoint. */
export class Requester {
  /** The endpoint as a string, for `fetch` (which would otherwise serialise a URL object per request). */
  readonly #href: string;
  /** The caller's `fetch` option; when given, every request goes through it. */
  readonly #customFetch: FetchLike | undefined;
  readonly #fetch: FetchLike;
  /**
   * Every request goes through `fetch`: the server redirected one (from then on), or its port is one
   * `fetch` refuses (undici.ts `isFetchBadPort`).
   */
  #fetchOnly: boolean;

  constructor(url: URL, customFetch: FetchLike | undefined) {
    this.#href = url.href;
    this.#customFetch = customFetch;
    this.#fetch = customFetch ?? ((target, init) => fetch(target, init));
    this.#fetchOnly = isFetchBadPort(url);
  }

  /**
   * One HTTP request: through undici when it may be used, else, and from the first redirect on, through
   * `fetch`. Only a POST may come back as a {@link JsonAnswer} (a `200 application/json` answer read whole;
   * `onBytes` is called per body chunk of it, and `limit` bounds it: undici.ts `BodyLimit`).
   * @param headers - Names lower-cased (see headers.ts).
   */
  send(
    method: 'POST',
    headers: Record<string, string>,
    body: string,
    signal: AbortSignal,
    onBytes: () => void,
    limit: BodyLimit,
  ): Promise<Response | JsonAnswer>;
  send(
    method: 'GET' | 'DELETE',
    headers: Record<string, string>,
    body: undefined,
    signal: AbortSignal,
  ): Promise<Response>;
  async send(
    method: 'POST' | 'GET' | 'DELETE',
    headers: Record<string, string>,
    body: string | undefined,
    signal: AbortSignal,
    onBytes: () => void = () => {},
    limit: BodyLimit = UNBOUNDED,
  ): Promise<Response | JsonAnswer> {
    if (!this.#fetchOnly && undiciAvailable(this.#customFetch)) {
      const answer = await sendWithUndici(method, this.#href, headers, body, signal, onBytes, limit);
      if (answer !== REDIRECTED) return answer;
      // fetch follows redirects by the Fetch standard's rules; undici is not asked to imitate them. The
      // redirecting endpoint sees this request twice (undici's, then fetch's); it answered with a redirect.
      this.#fetchOnly = true;
    }
    // Redirects are followed by redirects.ts: none of the caller's headers reaches another origin.
    const init = { method, headers, ...(body !== undefined && { body }), signal };
    return fetchFollowingRedirects(this.#fetch, this.#href, init);
  }
}
