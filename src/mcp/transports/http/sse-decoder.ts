/**
 * Server-Sent Events decoding for byte streams (WHATWG HTML, "Server-sent events", §9.2.6 "Interpreting
 * an event stream"), on top of `eventsource-parser`.
 *
 * Why a wrapper: the parser takes strings, and HTTP bodies arrive as arbitrary byte chunks. A chunk may end
 * inside a multi-byte UTF-8 character, so bytes go through one streaming `TextDecoder` per stream (which also
 * drops a leading BOM, as the SSE spec asks). The parser does the rest of the spec: CR, LF and CRLF line
 * endings (also a CRLF split across chunks), multi-line `data:` joined with "\n", comments, `id:`, `retry:`
 * and `event:` fields. A missing `event:` is reported here as `message`, the spec's default type.
 *
 * Bounded: an event is held until its blank line, so an event without end would grow without end. The
 * bytes since the last blank line are counted (the chunk that holds a blank line counts from it on), and
 * once they pass `maxEventBytes` the decoder throws: the stream's reader cancels the stream.
 */
import { createParser, type EventSourceParser } from 'eventsource-parser';

/** One dispatched SSE event. */
export interface SseEvent {
  /** The event type; `message` when the server sent no `event:` field. */
  event: string;
  /** The event's data lines joined with "\n" (may be empty, e.g. a priming event carrying only an id). */
  data: string;
  /** The `id:` field of this event, when it had one. */
  id: string | undefined;
}

/** Callbacks of an {@link SseDecoder}. */
export interface SseDecoderHandlers {
  /** Called once per complete (blank-line terminated) event, in stream order. */
  onEvent: (event: SseEvent) => void;
  /** Called when the server sends a valid `retry:` field, with the reconnection delay in ms. */
  onRetry?: (delayMs: number) => void;
  /**
   * Largest event accepted, in bytes (its fields and line ends, `data:` prefixes included); `oversized()`
   * is thrown by {@link SseDecoder.push} once an unfinished event passes it. Default: unbounded.
   */
  maxEventBytes?: number;
  /** The error thrown for an event over `maxEventBytes`. */
  oversized?: () => Error;
}

/** Where the last blank line (an event's end: two line ends in a row) ends in `text`; -1 when none. */
function afterLastBlankLine(text: string): number {
  const at = Math.max(text.lastIndexOf('\n\n'), text.lastIndexOf('\n\r'), text.lastIndexOf('\r\r'));
  return at === -1 ? -1 : at + 2;
}

/**
 * Decodes one SSE byte stream. Feed it every chunk with {@link SseDecoder.push}; call
 * {@link SseDecoder.end} when the stream ends. An event still unterminated at the end is discarded, as the
 * SSE spec requires ("If the file ends in the middle of an event, … the incomplete event is discarded").
 */
export class SseDecoder {
  private readonly text = new TextDecoder('utf-8');
  private readonly parser: EventSourceParser;
  private readonly maxEventBytes: number;
  private readonly oversized: () => Error;
  /** Bytes of the unfinished event (since the last blank line). */
  private pendingBytes = 0;
  /** The last character decoded, so that a blank line split across two chunks is seen. */
  private last = '';

  constructor(handlers: SseDecoderHandlers) {
    this.maxEventBytes = handlers.maxEventBytes ?? Number.POSITIVE_INFINITY;
    this.oversized = handlers.oversized ?? (() => new Error('SSE event over its size limit'));
    this.parser = createParser({
      onEvent: (message) => {
        // An event that arrived whole within one chunk was not counted by `push`: its data is checked here.
        if (message.data.length > this.maxEventBytes) throw this.oversized();
        handlers.onEvent({ event: message.event ?? 'message', data: message.data, id: message.id });
      },
      onRetry: (delayMs) => handlers.onRetry?.(delayMs),
    });
  }

  /**
   * Decodes one chunk of bytes (any size, split anywhere). Events complete in it are dispatched at once.
   * @throws `oversized()` once the unfinished event passes `maxEventBytes` (nothing more of it is parsed).
   */
  push(chunk: Uint8Array): void {
    const decoded = this.text.decode(chunk, { stream: true });
    if (decoded === '') return;
    if (this.maxEventBytes !== Number.POSITIVE_INFINITY) this.count(chunk.byteLength, decoded);
    this.parser.feed(decoded);
  }

  private count(bytes: number, decoded: string): void {
    const joined = this.last + decoded;
    this.last = decoded.slice(-1);
    const end = afterLastBlankLine(joined);
    // Past a blank line, the characters after it approximate the bytes (exact for ASCII, JSON's usual text).
    this.pendingBytes = end === -1 ? this.pendingBytes + bytes : joined.length - end;
    if (this.pendingBytes > this.maxEventBytes) throw this.oversized();
  }

  /** Flushes the UTF-8 decoder; an unterminated last event is dropped. */
  end(): void {
    const rest = this.text.decode();
    if (rest !== '') this.parser.feed(rest);
    this.parser.reset();
  }
}
