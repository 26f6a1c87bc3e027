/**
 * Server-Sent Events decoding for byte streams (WHATWG HTML, "Server-sent events", §9.2.6 "Interpreting
 * an event stream"), on top of `eventsource-parser`.
 *
 * Why a wrapper: the parser takes strings, and HTTP bodies arrive as arbitrary byte chunks. A chunk may end
 * inside a multi-byte UTF-8 character, so bytes go through one streaming `TextDecoder` per stream (which also
 * drops a leading BOM, as the SSE spec asks). The parser does the rest of the spec: CR, LF and CRLF line
 * endings (also a CRLF split across chunks), multi-line `data:` joined with "\n", comments, `id:`, `retry:`
 * and `event:` fields. A missing `event:` is reported here as `message`, the spec's default type.
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
}

/**
 * Decodes one SSE byte stream. Feed it every chunk with {@link SseDecoder.push}; call
 * {@link SseDecoder.end} when the stream ends. An event still unterminated at the end is discarded, as the
 * SSE spec requires ("If the file ends in the middle of an event, … the incomplete event is discarded").
 */
export class SseDecoder {
  private readonly text = new TextDecoder('utf-8');
  private readonly parser: EventSourceParser;

  constructor(handlers: SseDecoderHandlers) {
    this.parser = createParser({
      onEvent: (message) =>
        handlers.onEvent({ event: message.event ?? 'message', data: message.data, id: message.id }),
      onRetry: (delayMs) => handlers.onRetry?.(delayMs),
    });
  }

  /** Decodes one chunk of bytes (any size, split anywhere). Events complete in it are dispatched at once. */
  push(chunk: Uint8Array): void {
    const decoded = this.text.decode(chunk, { stream: true });
    if (decoded !== '') this.parser.feed(decoded);
  }

  /** Flushes the UTF-8 decoder; an unterminated last event is dropped. */
  end(): void {
    const rest = this.text.decode();
    if (rest !== '') this.parser.feed(rest);
    this.parser.reset();
  }
}
