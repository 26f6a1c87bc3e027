/**
 * The standalone GET stream of Streamable HTTP, on which a server sends requests and notifications that
 * belong to no POST (MCP spec 2025-11-25, "Transports > Streamable HTTP > Listening for Messages from the
 * Server").
 *
 * - 405 (the spec's "no stream here") and 404 end it quietly and for good: the connection is not affected.
 * - A 401 or `403 insufficient_scope` takes part in OAuth as a POST does (the transport's `open`); when the
 *   user must authorize in a browser, the SDK's `UnauthorizedError` is reported and the stream ends.
 * - When the stream ends or fails it is reopened with `Last-Event-ID` set to the last event id seen ("Resumability
 *   and Redelivery"), after the server's `retry:` delay when it sent one, else after an exponential backoff.
 * - `maxRetries` consecutive failed attempts end it, reported through `onError`; a stream that delivered an
 *   event resets the count.
 */
import { UnauthorizedError } from '@modelcontextprotocol/client';
import { backoffDelayMs } from '../../../core/backoff.js';
import { sleep } from '../../../core/sleep.js';
import { httpStatusError, readBodyExcerpt } from './errors.js';
import { readSse } from './sse-reader.js';

/** Reconnection of SSE streams (GET stream, and resumption of an interrupted POST stream). */
export interface HttpReconnectionOptions {
  /** Delay before the first reconnection, in ms. Default 1_000. */
  initialDelayMs?: number;
  /** Cap on the doubling delay, in ms. Default 30_000. */
  maxDelayMs?: number;
  /** Consecutive failed attempts before giving up. Default 5. */
  maxRetries?: number;
}

/** {@link HttpReconnectionOptions} with every default filled in. */
export type ResolvedReconnection = Required<HttpReconnectionOptions>;

/** Fills in the reconnection defaults. */
export function resolveReconnection(options: HttpReconnectionOptions | undefined): ResolvedReconnection {
  return {
    initialDelayMs: options?.initialDelayMs ?? 1_000,
    maxDelayMs: options?.maxDelayMs ?? 30_000,
    maxRetries: options?.maxRetries ?? 5,
  };
}

/** The delay before reconnection attempt `attempt` (0-based): the server's `retry:` wins over the backoff. */
export function reconnectDelay(
  reconnection: ResolvedReconnection,
  attempt: number,
  serverRetryMs?: number,
): number {
  return serverRetryMs ?? backoffDelayMs(reconnection, attempt);
}

/** What the GET stream needs from its transport. */
export interface GetStreamDeps {
  /** Sends the GET (with session, protocol version, auth, and `Last-Event-ID` when given). */
  open: (lastEventId: string | undefined, signal: AbortSignal) => Promise<Response>;
  /** One event's data (a JSON-RPC message as text). */
  deliver: (data: string) => void;
  /** A background failure; never fatal to the connection. */
  onError: (error: Error) => void;
  /** The server's `retry:` value, shared with the transport's POST streams. */
  serverRetryMs: () => number | undefined;
  setServerRetryMs: (delayMs: number) => void;
  reconnection: ResolvedReconnection;
  server: string | undefined;
  /** The bound on one event, in bytes, and its error (reported through `onError`; the stream reconnects). */
  limit?: { bytes: number; oversized: () => Error };
}

/** One GET stream's life. `start()` once; `stop()` aborts it and any pending reconnection timer. */
export class GetStream {
  private readonly controller = new AbortController();
  private lastEventId: string | undefined;
  private running: Promise<void> | undefined;

  constructor(private readonly deps: GetStreamDeps) {}

  /** Opens the stream in the background. */
  start(): void {
    this.running ??= this.run().catch((error: unknown) => {
      if (!this.controller.signal.aborted) this.deps.onError(asError(error));
    });
  }

  /** Aborts the stream; resolves once its loop has ended. */
  async stop(): Promise<void> {
    this.controller.abort();
    await this.running;
  }

  private async run(): Promise<void> {
    const signal = this.controller.signal;
    const context = { server: this.deps.server, method: 'GET stream' };
    let failures = 0;
    while (!signal.aborted) {
      let delivered = false;
      let needsUser = false;
      const response = await this.deps.open(this.lastEventId, signal).catch((error: unknown) => {
        if (!signal.aborted) this.deps.onError(asError(error));
        needsUser = error instanceof UnauthorizedError;
        return undefined;
      });
      // OAuth needs the user in a browser (the provider was sent there): reopening cannot succeed before
      // they finish, and would send them again. The next connect opens a new stream.
      if (needsUser) return;
      if (response !== undefined) {
        if (response.status === 405 || response.status === 404) {
          await response.body?.cancel().catch(() => {});
          return;
        }
        if (!response.ok || response.body === null) {
          this.deps.onError(httpStatusError(context, response.status, await readBodyExcerpt(response)));
        } else {
          delivered = await this.read(response.body);
        }
      }
      if (signal.aborted) return;
      failures = delivered ? 0 : failures + 1;
      if (failures > this.deps.reconnection.maxRetries) {
        this.deps.onError(
          new Error(`GET stream: gave up after ${this.deps.reconnection.maxRetries} reconnection attempts`),
        );
        return;
      }
      const delay = reconnectDelay(
        this.deps.reconnection,
        Math.max(0, failures - 1),
        this.deps.serverRetryMs(),
      );
      await sleep(delay, signal);
    }
  }

  /** Reads one opened stream; `true` when it delivered at least one event. */
  private async read(body: ReadableStream<Uint8Array>): Promise<boolean> {
    let delivered = false;
    try {
      await readSse(body, {
        onEvent: (event) => {
          if (event.id !== undefined) this.lastEventId = event.id;
          if (event.event !== 'message' || event.data === '') return;
          delivered = true;
          this.deps.deliver(event.data);
        },
        onRetry: (delayMs) => this.deps.setServerRetryMs(delayMs),
        done: () => this.controller.signal.aborted,
        ...(this.deps.limit !== undefined && {
          maxEventBytes: this.deps.limit.bytes,
          oversized: this.deps.limit.oversized,
        }),
      });
    } catch (error) {
      if (!this.controller.signal.aborted) this.deps.onError(asError(error));
    }
    return delivered;
  }
}

function asError(error: unknown): Error {
  return error instanceof Error ? error : new Error(String(error));
}
