/**
 * Reading the server's answers (MCP spec 2025-11-25, "Transports > Streamable HTTP > Sending Messages to the
 * Server"): a POSTed request is answered with one JSON body or with an SSE stream, which may carry
 * notifications and server requests before the response. A message answers the request only when it is a
 * JSON-RPC response carrying its id; the stream is released at that frame. A stream that ends before it is
 * resumed with GET and `Last-Event-ID` when the server gave event ids ("Resumability and Redelivery"), else
 * fails the call at once. Messages of the GET stream are delivered here too. A 2026-era request's stream is
 * never resumed (MCP spec 2026-07-28, "Transports > Streamable HTTP > Receiving Messages"): one that ends
 * before its response fails at once, marked `reissue`.
 */

import type { JSONRPCMessage } from '@modelcontextprotocol/client';
import { sleep } from '../../../core/sleep.js';
import { isJsonRpcMessage } from '../../protocol/jsonrpc.js';
import { oversizedMessageError } from '../limits.js';
import { emptyAnswerError, type HttpErrorContext, httpTransportError, readBodyExcerpt } from './errors.js';
import { type ResolvedReconnection, reconnectDelay } from './get-stream.js';
import { mediaType } from './media-type.js';
import type { RequestState } from './request-state.js';
import { readSse } from './sse-reader.js';
import type { JsonAnswer } from './undici.js';

/** What {@link AnswerReader} needs from its transport. */
export interface AnswerReaderDeps {
  /** Hands one message to the SDK, in wire order. */
  deliver: (message: JSONRPCMessage) => void;
  /** An out-of-band error: a message that is not JSON-RPC is reported and skipped. */
  onError: (error: Error) => void;
  /** Sends a GET with `Last-Event-ID: lastEventId`, to resume an interrupted request stream. */
  openGet: (lastEventId: string, signal: AbortSignal) => Promise<Response>;
  /** Bounds and delays of the resumption attempts. */
  reconnection: ResolvedReconnection;
  /** The server's name, for errors. */
  server: string;
  /** Largest answer (a JSON body, an SSE event), in bytes after `Content-Encoding` is undone. */
  maxMessageBytes: number;
}

/** Reads the answers of one transport's requests and delivers their messages. */
export class AnswerReader {
  /** The server's last `retry:` value, in ms: the delay before a resumption, shared with the GET stream. */
  serverRetryMs: number | undefined;
  readonly #deps: AnswerReaderDeps;

  constructor(deps: AnswerReaderDeps) {
    this.#deps = deps;
  }

  /**
   * Reads the 2xx answer to the request of `state` and delivers what it carries; resolves once the
   * response has been delivered.
   * @throws MCPCallError kind `http` for an empty answer (202, 204, no body: a proxy probably answered) or
   *   an unexpected content type; `protocol` for a JSON body that is not JSON or carries no response to this
   *   request, or an answer (JSON body, SSE event) over `maxMessageBytes`; `transport` when a stream ended
   *   before the response and could not be resumed.
   */
  async read(response: Response | JsonAnswer, state: RequestState): Promise<void> {
    state.idle.touch();
    state.status = response.status;
    state.answered = true;
    if (!(response instanceof Response))
      return 'value' in response.body
        ? this.#deliverParsedAnswer(response.body.value, state)
        : this.#deliverJsonAnswer(response.body.text, state, 'application/json');
    const contentType = mediaType(response.headers.get('content-type'));
    if (response.status === 202 || response.status === 204 || response.body === null) {
      await response.body?.cancel().catch(() => {});
      throw emptyAnswerError(state.context, response.status, contentType);
    }
    if (contentType === 'text/event-stream') return this.#readRequestStream(response.body, state, 0);
    // Any other type is an error whose body is only quoted: at most an excerpt of it is read.
    const text =
      contentType === 'application/json'
        ? await readText(
            response.body,
            () => state.idle.touch(),
            this.oversized(state.context, 'the JSON answer'),
          )
        : await readBodyExcerpt(response);
    this.#deliverJsonAnswer(text, state, contentType);
  }

  /** The bound on an answer (`context`: its request's), and its error naming `what` was over it. */
  oversized(context: HttpErrorContext | undefined, what: string): { bytes: number; oversized: () => Error } {
    const bytes = this.#deps.maxMessageBytes;
    const where = context ?? this.#context();
    return { bytes, oversized: () => oversizedMessageError(where, what, bytes) };
  }

  /**
   * Reopens an interrupted request stream with GET + `Last-Event-ID`, after the server's `retry:` delay or
   * an exponential backoff, and reads it as {@link AnswerReader.read} does.
   * @param attempt - Resumptions already made for this request (0-based).
   */
  async resume(state: RequestState, lastEventId: string, attempt: number): Promise<void> {
    const { reconnection } = this.#deps;
    if (attempt >= reconnection.maxRetries) {
      throw httpTransportError(
        'transport',
        state.context,
        `the response stream ended before the response and ${attempt} resumption attempts failed`,
      );
    }
    state.idle.stop();
    await sleep(reconnectDelay(reconnection, attempt, this.serverRetryMs), state.controller.signal);
    state.idle.touch();
    const response = await this.#deps.openGet(lastEventId, state.controller.signal);
    state.idle.touch();
    if (!response.ok || response.body === null) {
      const body = await readBodyExcerpt(response);
      throw httpTransportError(
        'transport',
        state.context,
        `resuming the response stream failed with HTTP ${response.status}`,
        {
          status: response.status,
          body,
        },
      );
    }
    return this.#readRequestStream(response.body, state, attempt + 1);
  }

  /**
   * Delivers one SSE event's data: a JSON-RPC message, the response of `state`'s request or not (`undefined`
   * for the GET stream). Data that is not JSON is reported through `onError` and skipped.
   */
  deliverText(data: string, state: RequestState | undefined): void {
    let value: unknown;
    try {
      value = JSON.parse(data);
    } catch (error) {
      this.#deps.onError(
        httpTransportError('protocol', state?.context ?? this.#context(), 'an SSE event is not JSON', {
          cause: error,
        }),
      );
      return;
    }
    this.#deliverValue(value, state);
  }

  /**
   * Reads a request's SSE stream until the frame carrying its response, then releases it. A stream that
   * ends first is resumed from its last event id when the server gave one, else fails the call at once; an
   * empty stream is the "proxy answered" error.
   */
  async #readRequestStream(body: ReadableStream<Uint8Array>, state: RequestState, attempt: number) {
    const limit = this.oversized(state.context, 'an SSE event');
    const outcome = await readSse(body, {
      maxEventBytes: limit.bytes,
      oversized: limit.oversized,
      onEvent: (event) => {
        if (event.id !== undefined && !state.modern) {
          state.lastEventId = event.id;
          state.onresumptiontoken?.(event.id);
        }
        if (event.event === 'message' && event.data !== '') this.deliverText(event.data, state);
      },
      onRetry: (delayMs) => {
        this.serverRetryMs = delayMs;
      },
      onBytes: () => state.idle.touch(),
      done: () => state.responded,
    });
    if (state.responded) return;
    if (outcome.bytes === 0 && attempt === 0)
      throw emptyAnswerError(state.context, state.status, 'text/event-stream');
    if (state.modern) {
      // MCP spec 2026-07-28, "Transports > Streamable HTTP": no `Last-Event-ID`; the request is lost and is
      // re-issued as a new one, which the session decides.
      throw httpTransportError(
        'transport',
        state.context,
        'the server ended the response stream before the response',
        { reissue: true },
      );
    }
    if (state.lastEventId !== undefined) return this.resume(state, state.lastEventId, attempt);
    throw httpTransportError(
      'transport',
      state.context,
      'the server ended the response stream before the response',
    );
  }

  /** A whole (non-SSE) answer: JSON carrying this request's response, or why not. */
  #deliverJsonAnswer(text: string, state: RequestState, contentType: string): void {
    if (text.trim() === '') throw emptyAnswerError(state.context, state.status, contentType);
    if (contentType !== 'application/json') {
      throw httpTransportError('http', state.context, `unexpected content type "${contentType}"`, {
        status: state.status,
        body: text.slice(0, 512),
      });
    }
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch (error) {
      throw httpTransportError('protocol', state.context, 'the answer is not valid JSON', { cause: error });
    }
    this.#deliverParsedAnswer(parsed, state);
  }

  /** A parsed JSON answer: a message or a batch, one of them this request's response. */
  #deliverParsedAnswer(parsed: unknown, state: RequestState): void {
    if (!Array.isArray(parsed)) this.#deliverValue(parsed, state);
    else for (const item of parsed) this.#deliverValue(item, state);
    if (!state.responded) {
      throw httpTransportError(
        'protocol',
        state.context,
        'the JSON answer carried no response to this request',
      );
    }
  }

  /**
   * Hands one message to the SDK. It answers this request only when it is a JSON-RPC response (no `method`,
   * a `result` or an `error`) carrying this request's id; anything else (progress, log messages, server
   * requests such as `ping` or `sampling/createMessage`) is passed on as it is.
   */
  #deliverValue(value: unknown, state: RequestState | undefined): void {
    // A structural check, as on stdio: the content of each message is checked where it is used.
    if (!isJsonRpcMessage(value)) {
      this.#deps.onError(
        httpTransportError('protocol', state?.context ?? this.#context(), 'not a JSON-RPC message'),
      );
      return;
    }
    const message = value;
    const isResponse = !('method' in message) && ('result' in message || 'error' in message);
    const answersState =
      state !== undefined && (state.replayId !== undefined || ('id' in message && message.id === state.id));
    if (state !== undefined && isResponse && answersState) {
      state.responded = true;
      // At once when nothing came before it in this tick, else behind the SDK's dispatch of what did.
      this.#deps.deliver(state.replayId === undefined ? message : { ...message, id: state.replayId });
      return;
    }
    this.#deps.deliver(message);
  }

  #context(): HttpErrorContext {
    return { server: this.#deps.server, method: undefined };
  }
}

/** For bodies that arrived whole: a non-streaming decode keeps no state, so one decoder serves every call. */
const UTF8 = new TextDecoder();

/**
 * Reads a whole body as UTF-8 text, calling `onBytes` per chunk (to reset the idle timer); past
 * `limit.bytes` the body is cancelled and `limit.oversized()` thrown. A reader loop
 * rather than `for await`: the async iterator releases its reader at the end, which builds a `TypeError`
 * (stack included) per response, and costs a few promise hops more; measured in 1 000-call bursts, about
 * 50 µs of client CPU per call. A body that came in one chunk (the usual JSON answer) is decoded in one go,
 * without a streaming decoder.
 */
async function readText(
  body: ReadableStream<Uint8Array>,
  onBytes: () => void,
  limit: { bytes: number; oversized: () => Error },
): Promise<string> {
  const reader = body.getReader();
  let first: Uint8Array | undefined;
  let decoder: InstanceType<typeof TextDecoder> | undefined;
  let text = '';
  let bytes = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    onBytes();
    bytes += value.byteLength;
    if (bytes > limit.bytes) {
      reader.cancel().catch(() => {});
      throw limit.oversized();
    }
    if (decoder === undefined) {
      if (first === undefined) {
        first = value;
        continue;
      }
      decoder = new TextDecoder();
      text = decoder.decode(first, { stream: true });
    }
    text += decoder.decode(value, { stream: true });
  }
  if (decoder !== undefined) return text + decoder.decode();
  return first === undefined ? '' : UTF8.decode(first);
}
