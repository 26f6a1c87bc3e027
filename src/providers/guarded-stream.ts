/**
 * The part every adapter shares around a vendor SDK's streaming call: failures become `ModelError`s, and
 * an aborted request always ends in an abort error, because the SDKs may end an aborted stream quietly
 * instead of throwing, and a truncated response must never be passed on as a complete one.
 */
import { toModelError } from './errors.js';
import type { ModelEvent } from './model.js';

/**
 * Opens the vendor stream with `open`, turns it into model events with `read`, and yields them.
 * @throws ModelError (or the abort error) for any failure of opening or reading.
 */
export async function* guardedStream<Raw>(
  provider: string,
  signal: AbortSignal | undefined,
  open: () => Promise<Raw>,
  read: (raw: Raw) => AsyncIterable<ModelEvent>,
): AsyncIterable<ModelEvent> {
  let raw: Raw;
  try {
    raw = await open();
  } catch (error) {
    throw toModelError(error, provider, signal);
  }
  try {
    for await (const event of read(raw)) {
      signal?.throwIfAborted();
      yield event;
    }
  } catch (error) {
    throw toModelError(error, provider, signal);
  }
}
