/**
 * The Streamable HTTP transport's requests (MCP spec 2025-11-25, "Transports > Streamable HTTP") through
 * undici's `request()` instead of `fetch`.
 *
 * Why: `fetch` is undici too, plus the Fetch standard's web streams (a request body stream, a response
 * stream, their promise hops) that a JSON-RPC POST does not need. Measured on a local server that answers
 * at once: a sequential round trip 383 µs against fetch's 829–866 µs, a burst of
 * 1 000 concurrent calls 113–157 ms against 496–536 ms, a quarter of the client CPU.
 *
 * Same connections and settings as `fetch`: requests go to undici's global dispatcher, the one Node's
 * `fetch` uses (`setGlobalDispatcher` with a `ProxyAgent` or a `MockAgent` applies to both: undici 6 or 7's
 * on Node 20 to 24; on Node 26, whose `fetch` reads undici 8's slot, undici 8's, which fills both slots),
 * with `fetch`'s default headers, and `Content-Encoding` undone as `fetch` undoes it. A redirect is not
 * followed here: the caller sends that request again with `fetch`, which follows it by the Fetch
 * standard's rules (method changes, limits, errors), and keeps using `fetch`. Only the usual answer to a
 * POST, `200 application/json`, is read here; any other (an SSE stream, an error, an empty or unexpected
 * answer) is handed back as a web `Response`, so that the transport treats it exactly as `fetch`'s.
 *
 * Used only when nobody asked for another `fetch`: not with the transport's `fetch` option, nor when the
 * global `fetch` is not Node's own (a test stub, a request interceptor such as MSW, an APM wrapper),
 * whenever it was replaced.
 */
import { pipeline, type Readable, type Transform } from 'node:stream';
import { constants, createBrotliDecompress, createGunzip, createInflate } from 'node:zlib';
import { LARGE_LINE_BYTES, LargeLineParser } from '../json/large-line.js';
import { mediaType } from './media-type.js';

/**
 * Whether `candidate` is Node's own `fetch`: its source is Node's lazy loader of the undici it bundles
 * (the same text in Node 20 and 22). A wrapper or a stub cannot contain it (an `internal/` module cannot be
 * required from user code). Should a Node release change that text, agentwire just keeps using `fetch`.
 */
function isNodeFetch(candidate: unknown): boolean {
  return (
    typeof candidate === 'function' &&
    Function.prototype.toString.call(candidate).includes("require('internal/deps/undici/undici')")
  );
}

/**
 * The Fetch standard's "bad ports" (section 2.9, "Port blocking"), which `fetch` refuses ("fetch failed
 * (bad port)"). Requests to them go through `fetch` too, so that a session has one outcome, not POSTs that
 * work and a GET stream or a redirect that fail.
 */
const FETCH_BAD_PORTS = new Set([
  1, 7, 9, 11, 13, 15, 17, 19, 20, 21, 22, 23, 25, 37, 42, 43, 53, 69, 77, 79, 87, 95, 101, 102, 103, 104,
  109, 110, 111, 113, 115, 117, 119, 123, 135, 137, 139, 143, 161, 179, 389, 427, 465, 512, 513, 514, 515,
  526, 530, 531, 532, 540, 548, 554, 556, 563, 587, 601, 636, 989, 990, 993, 995, 1719, 1720, 1723, 2049,
  3659, 4045, 4190, 5060, 5061, 6000, 6566, 6665, 6666, 6667, 6668, 6669, 6679, 6697, 10080,
]);

/** Whether `url`'s port is one `fetch` refuses. */
export function isFetchBadPort(url: URL): boolean {
  const port = url.port === '' ? (url.protocol === 'https:' ? 443 : 80) : Number(url.port);
  return FETCH_BAD_PORTS.has(port);
}

/** The last global `fetch` looked at, and whether it is Node's own (the source check runs once per value). */
let checkedFetch: unknown;
let checkedIsNode = false;

/** Whether requests may skip `fetch`: no `fetch` of the caller's, and the global one is Node's own. */
export function undiciAvailable(customFetch: unknown): boolean {
  if (customFetch !== undefined) return false;
  const current: unknown = globalThis.fetch;
  if (current !== checkedFetch) {
    checkedFetch = current;
    checkedIsNode = isNodeFetch(current);
  }
  return checkedIsNode;
}

/** The headers Node's `fetch` adds to every request; sent too, so that servers and WAFs see one client. */
const FETCH_DEFAULT_HEADERS: Readonly<Record<string, string>> = {
  accept: '*/*',
  'accept-encoding': 'gzip, deflate',
  'accept-language': '*',
  'sec-fetch-mode': 'cors',
  'user-agent': 'node',
};

/** What agentwire uses of undici. */
interface Undici {
  request: typeof import('undici').request;
}
let undici: Undici | undefined;
let loadingUndici: Promise<Undici> | undefined;

/**
 * Loads the undici package on first use, leaving the process's `fetch` as it was. Importing undici
 * installs an undici `Agent` of its own as the global dispatcher when there is none yet, and Node's `fetch`
 * would then run on it (another undici version than the one Node bundles). So when no dispatcher is set,
 * Node's `fetch` is first asked for a `data:` URL, which sets Node's own `Agent` (no network involved),
 * and undici's `request()` then shares it, with its connection pool and settings.
 */
async function loadUndici(): Promise<Undici> {
  loadingUndici ??= (async () => {
    if ((globalThis as Record<symbol, unknown>)[Symbol.for('undici.globalDispatcher.1')] === undefined) {
      await (await fetch('data:,')).arrayBuffer();
    }
    const { request } = await import('undici');
    undici = { request };
    return undici;
  })();
  // A failed load fails this request (with its cause) and is tried again by the next, not cached.
  loadingUndici.catch(() => {
    loadingUndici = undefined;
  });
  return loadingUndici;
}

/** Returned instead of an answer when the server redirected: send the request again with `fetch`. */
export const REDIRECTED = Symbol('redirected');

/** Response headers as undici gives them (names lower-cased), read like `Headers`. */
export class AnswerHeaders {
  readonly #raw: Record<string, string | string[] | undefined>;

  constructor(raw: Record<string, string | string[] | undefined>) {
    this.#raw = raw;
  }

  /** The value of `name` (any case), repeated values joined with ", " as `Headers.get` joins them. */
  get(name: string): string | null {
    const value = this.#raw[name.toLowerCase()];
    if (value === undefined) return null;
    return Array.isArray(value) ? value.join(', ') : value;
  }

  /** As a `Headers` object, for a `Response`. */
  toHeaders(): Headers {
    const headers = new Headers();
    for (const [name, value] of Object.entries(this.#raw)) {
      if (value === undefined) continue;
      for (const item of Array.isArray(value) ? value : [value]) headers.append(name, item);
    }
    return headers;
  }
}

/**
 * The bound on a body read here: past `bytes` (counted after `Content-Encoding` is undone) the read stops,
 * the body is destroyed, and `oversized()` is thrown.
 */
export interface BodyLimit {
  bytes: number;
  oversized: () => Error;
}

/** No bound (readers given no limit). */
export const UNBOUNDED: BodyLimit = {
  bytes: Number.POSITIVE_INFINITY,
  oversized: () => new Error('unbounded'),
};

/** A `200 application/json` answer, its body read whole. */
export interface JsonAnswer {
  readonly status: 200;
  readonly ok: true;
  readonly headers: AnswerHeaders;
  /**
   * The body: its text decoded as UTF-8 (a leading BOM dropped, as `TextDecoder` and `Response.text()`
   * do), or, for a body of {@link LARGE_LINE_BYTES} or more that parsed, its value, read as it arrived
   * (json-large-line.ts: about half the peak memory of text + `JSON.parse`).
   */
  readonly body: { readonly text: string } | { readonly value: unknown };
}

/**
 * Sends one request to `url`.
 *
 * @param headers - Names lower-cased; they win over `fetch`'s defaults.
 * @param onBytes - Called when the headers arrive and per body chunk of a JSON answer read here (the idle
 *   timer).
 * @param limit - The bound on a JSON answer read here (decoded bytes).
 * @returns For a POST, a `200 application/json` answer read whole; any other answer as a `Response` whose
 *   body is still to read; {@link REDIRECTED} for a 3xx with a `Location`.
 * @throws What undici throws: a network error (e.g. `connect ECONNREFUSED 127.0.0.1:3001`), or the signal's
 *   reason once it aborted; `limit.oversized()` for a JSON answer over `limit.bytes`.
 */
export async function sendWithUndici(
  method: 'POST' | 'GET' | 'DELETE',
  url: string,
  headers: Record<string, string>,
  body: string | undefined,
  signal: AbortSignal,
  onBytes: () => void,
  limit: BodyLimit,
): Promise<JsonAnswer | Response | typeof REDIRECTED> {
  const { request } = undici ?? (await loadUndici());
  // No `dispatcher` option: `request()` takes the global one itself, and passes the option on to the
  // dispatcher, which Node 26's (undici 8) refuses ("opts.dispatcher is not supported by instance methods").
  const answer = await request(url, {
    method,
    headers: { ...FETCH_DEFAULT_HEADERS, ...headers },
    body: body ?? null,
    signal,
  });
  onBytes(); // the headers: the answer has begun
  const answerHeaders = new AnswerHeaders(answer.headers);
  const status = answer.statusCode;
  if (status >= 300 && status < 400 && answerHeaders.get('location') !== null) {
    answer.body.resume();
    return REDIRECTED;
  }
  const content = decoded(answer.body, answerHeaders.get('content-encoding'));
  if (
    method !== 'POST' ||
    status !== 200 ||
    mediaType(answerHeaders.get('content-type')) !== 'application/json'
  ) {
    return toResponse(status, answerHeaders, content);
  }
  return { status: 200, ok: true, headers: answerHeaders, body: await readJson(content, onBytes, limit) };
}

const BOM = Buffer.from([0xef, 0xbb, 0xbf]);

/**
 * Reads a JSON body: as text, or as a parsed value once it reaches {@link LARGE_LINE_BYTES} (then a body
 * that is not JSON comes back as text, long strings re-escaped; see `LargeLineParser.text`).
 * @throws `limit.oversized()` as soon as the body passes `limit.bytes` (the body is destroyed).
 */
export async function readJson(
  content: Readable,
  onBytes: () => void,
  limit: BodyLimit = UNBOUNDED,
): Promise<JsonAnswer['body']> {
  let chunks: Buffer[] = [];
  let bytes = 0;
  let total = 0;
  let parser: LargeLineParser | undefined;
  for await (const chunk of content) {
    onBytes();
    let piece = chunk as Buffer;
    total += piece.length;
    // Leaving the loop destroys the body (and, through the pipeline, its decoders and socket).
    if (total > limit.bytes) throw limit.oversized();
    if (bytes === 0 && piece.subarray(0, 3).equals(BOM)) piece = piece.subarray(3);
    if (parser !== undefined) {
      parser.push(piece);
      continue;
    }
    chunks.push(piece);
    bytes += piece.length;
    if (bytes >= LARGE_LINE_BYTES) {
      parser = new LargeLineParser();
      for (const held of chunks) parser.push(held);
      chunks = [];
    }
  }
  if (parser !== undefined) {
    const result = parser.finish();
    return result.ok ? { value: result.value } : { text: parser.text() };
  }
  return { text: (chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks)).toString('utf8') };
}

const ZLIB_FLUSH = { flush: constants.Z_SYNC_FLUSH, finishFlush: constants.Z_SYNC_FLUSH };
const BROTLI_FLUSH = {
  flush: constants.BROTLI_OPERATION_FLUSH,
  finishFlush: constants.BROTLI_OPERATION_FLUSH,
};

/** A decoder per content coding `fetch` undoes (RFC 9110 section 8.4.1). */
const DECODERS: Readonly<Record<string, () => Transform>> = {
  gzip: () => createGunzip(ZLIB_FLUSH),
  'x-gzip': () => createGunzip(ZLIB_FLUSH),
  deflate: () => createInflate(ZLIB_FLUSH),
  br: () => createBrotliDecompress(BROTLI_FLUSH),
};

/**
 * The body with its `Content-Encoding` undone, as `fetch` undoes it (gzip, x-gzip, deflate, br; the last
 * coding applied is undone first; an unknown coding leaves the body as it is). undici's `request()` leaves
 * bodies as sent; servers compress only when asked, which we do not, but a proxy in between may. A
 * truncated stream yields what it has, as with `fetch` (sync flush).
 */
function decoded(body: Readable, contentEncoding: string | null): Readable {
  if (contentEncoding === null) return body;
  const codings = contentEncoding
    .toLowerCase()
    .split(',')
    .map((coding) => coding.trim())
    .filter((coding) => coding !== '' && coding !== 'identity')
    .reverse();
  let stream = body;
  for (const coding of codings) {
    const decoder = DECODERS[coding]?.();
    if (decoder === undefined) return stream;
    // Errors (a corrupt stream, an abort) reach the reader through the last stream of the pipeline.
    stream = pipeline(stream, decoder, () => {});
  }
  return stream;
}

/**
 * A web `Response` for any other answer. Statuses that carry no body get none (the Fetch standard's rule),
 * and neither does 202, the acknowledgement of a notification, whose body nothing reads.
 */
function toResponse(status: number, headers: AnswerHeaders, body: Readable): Response {
  if (status === 202 || status === 204 || status === 205 || status === 304) {
    body.resume(); // drained, so that undici can reuse the connection
    return new Response(null, { status, headers: headers.toHeaders() });
  }
  // Pulled through the body's async iterator (cancelling the stream destroys the body). Not
  // `Readable.toWeb`: on Node 20 it throws "Controller is already closed" from a data event after a cancel,
  // an uncaught exception that ended the process in the conformance suite's 401 scenarios.
  const stream = ReadableStream.from(body) as ReadableStream<Uint8Array>;
  if (status >= 200 && status <= 599) return new Response(stream, { status, headers: headers.toHeaders() });
  // `fetch` hands back any status a server sends; the `Response` constructor takes 200–599 only.
  const response = new Response(stream, { status: 599, headers: headers.toHeaders() });
  Object.defineProperties(response, { status: { value: status }, ok: { value: false } });
  return response;
}
