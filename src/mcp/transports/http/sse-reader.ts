/**
 * Reads an SSE response body to its end, or until the caller has what it came for. The caller decides after
 * every event whether to stop; stopping cancels the body, which releases a stream the server holds open
 * after answering (it SHOULD close it then: MCP spec 2025-11-25, "Transports > Streamable HTTP > Sending
 * Messages to the Server") instead of leaking its socket or blocking the call.
 */
import { SseDecoder, type SseEvent } from './sse-decoder.js';

/** What {@link readSse} reports back. */
export interface ReadSseHandlers {
  /** Each complete event, in order. */
  onEvent: (event: SseEvent) => void;
  /** A `retry:` field, in ms. */
  onRetry?: (delayMs: number) => void;
  /** Every chunk of bytes received (e.g. to reset an idle timer). */
  onBytes?: (byteCount: number) => void;
  /** Checked after each chunk; `true` stops reading and cancels the body. */
  done?: () => boolean;
  /** Largest event, in bytes (see `SseDecoderHandlers.maxEventBytes`). Default: unbounded. */
  maxEventBytes?: number;
  /** The error an event over `maxEventBytes` rejects the read with. */
  oversized?: () => Error;
}

/** How a read ended. */
export interface ReadSseOutcome {
  /** Bytes received in total. */
  bytes: number;
  /** `true` when `done()` stopped the read, `false` when the server ended the stream. */
  stopped: boolean;
}

/**
 * Reads `body` as SSE. Rejects with the stream's error (network failure, or the abort reason when the
 * request's signal fires), or `oversized()` for an event over `maxEventBytes`; a read that stops early
 * (or fails) cancels the body.
 */
export async function readSse(
  body: ReadableStream<Uint8Array>,
  handlers: ReadSseHandlers,
): Promise<ReadSseOutcome> {
  const reader = body.getReader();
  const decoder = new SseDecoder({
    onEvent: handlers.onEvent,
    ...(handlers.onRetry === undefined ? {} : { onRetry: handlers.onRetry }),
    ...(handlers.maxEventBytes !== undefined && { maxEventBytes: handlers.maxEventBytes }),
    ...(handlers.oversized !== undefined && { oversized: handlers.oversized }),
  });
  let bytes = 0;
  let finished = false;
  try {
    for (;;) {
      if (handlers.done?.() === true) return { bytes, stopped: true };
      const { done, value } = await reader.read();
      if (done) {
        finished = true;
        decoder.end();
        return { bytes, stopped: false };
      }
      bytes += value.byteLength;
      handlers.onBytes?.(value.byteLength);
      decoder.push(value);
    }
  } finally {
    // No `releaseLock()`: nothing reads this body again, and releasing builds a `TypeError` (stack included)
    // per response, a measurable cost per call.
    if (!finished) reader.cancel().catch(() => {});
  }
}
