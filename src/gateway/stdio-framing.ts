/**
 * The gateway's stdio framing (MCP spec 2026-07-28, "Transports > stdio": newline-delimited JSON-RPC), in
 * place of the SDK's `StdioServerTransport` and with its behaviour: a line that is not JSON is skipped, one
 * that is JSON but not a JSON-RPC message is reported to `onerror` (the SDK's own check,
 * `deserializeMessage`), a partial line past `maxBufferBytes` is reported and ends the connection, the end
 * of stdin closes it. Two differences, both for speed:
 *
 * - each line is parsed once and offered first to `take` (the `tools/call` fast path, fast-call.ts), which
 *   checks what it takes itself; the SDK's check (a second parse and a zod union) runs only on the rest;
 * - answers written in one turn of the event loop leave in one `write` (one syscall, one wake-up of the
 *   client), so 1 000 answers of a burst cost a few writes instead of 1 000. A `send` resolves once its
 *   batch is written (after `drain`, when the pipe was full).
 */
import type { Readable, Writable } from 'node:stream';
import { deserializeMessage, type JSONRPCMessage, type Transport } from '@modelcontextprotocol/server';

/** The SDK's default bound on a partial line (its `STDIO_DEFAULT_MAX_BUFFER_SIZE`), in bytes. */
const DEFAULT_MAX_BUFFER_BYTES = 10 * 1024 * 1024;

interface Batch {
  lines: string[];
  done: Promise<void>;
  settle: (error?: Error) => void;
}

/** A stdio connection to one client; see the file header. */
export class GatewayStdioWire implements Transport {
  onclose?: Transport['onclose'];
  onerror?: Transport['onerror'];
  onmessage?: Transport['onmessage'];
  readonly #stdin: Readable;
  readonly #stdout: Writable;
  readonly #take: (value: unknown) => boolean;
  readonly #maxBufferBytes: number;
  #pending: Buffer[] = [];
  #pendingBytes = 0;
  #batch: Batch | undefined;
  #started = false;
  #closed = false;

  /** @param take offered each parsed line first; true when it took the message. */
  constructor(stdin: Readable, stdout: Writable, take: (value: unknown) => boolean, maxBufferBytes?: number) {
    this.#stdin = stdin;
    this.#stdout = stdout;
    this.#take = take;
    this.#maxBufferBytes = maxBufferBytes ?? DEFAULT_MAX_BUFFER_BYTES;
  }

  /** @throws Error when started twice. */
  async start(): Promise<void> {
    if (this.#started) throw new Error('GatewayStdioWire already started');
    this.#started = true;
    if (this.#stdin.readableEnded || this.#stdin.destroyed) setImmediate(this.#onStdinEnd);
    this.#stdin.on('data', this.#onData);
    this.#stdin.on('error', this.#onStdinError);
    this.#stdin.on('end', this.#onStdinEnd);
    this.#stdin.on('close', this.#onStdinEnd);
    this.#stdout.on('error', this.#onStdoutError);
  }

  /** Queues `message` for this turn's write; resolves once it is written. Rejects once closed. */
  send(message: JSONRPCMessage): Promise<void> {
    if (this.#closed) return Promise.reject(new Error('GatewayStdioWire is closed'));
    const line = `${JSON.stringify(message)}\n`;
    if (this.#batch) {
      this.#batch.lines.push(line);
      return this.#batch.done;
    }
    let settle: Batch['settle'] = () => {};
    const done = new Promise<void>((resolve, reject) => {
      settle = (error) => (error ? reject(error) : resolve());
    });
    this.#batch = { lines: [line], done, settle };
    setImmediate(this.#flush);
    return done;
  }

  /** Writes what is queued, stops reading, then calls `onclose`. Idempotent. */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#flush();
    this.#closed = true;
    this.#stdin.off('data', this.#onData);
    this.#stdin.off('error', this.#onStdinError);
    this.#stdin.off('end', this.#onStdinEnd);
    this.#stdin.off('close', this.#onStdinEnd);
    // Late write failures (a client gone) have nobody left to tell; the listener keeps them from throwing.
    this.#stdout.off('error', this.#onStdoutError);
    this.#stdout.on('error', ignore);
    if (this.#stdin.listenerCount('data') === 0) this.#stdin.pause();
    this.#pending = [];
    this.#pendingBytes = 0;
    this.onclose?.();
  }

  readonly #flush = (): void => {
    const batch = this.#batch;
    if (!batch) return;
    this.#batch = undefined;
    if (this.#closed) {
      batch.settle(new Error('GatewayStdioWire is closed'));
      return;
    }
    const stdout = this.#stdout;
    if (stdout.write(batch.lines.length === 1 ? batch.lines[0] : batch.lines.join(''))) {
      batch.settle();
      return;
    }
    const onDrain = () => {
      stdout.off('error', onError);
      batch.settle();
    };
    const onError = (error: Error) => {
      stdout.off('drain', onDrain);
      batch.settle(error);
    };
    stdout.once('drain', onDrain);
    stdout.once('error', onError);
  };

  readonly #onData = (data: Buffer | string): void => {
    // A stream in string mode still frames by bytes, as the SDK's reader does.
    const chunk = typeof data === 'string' ? Buffer.from(data, 'utf8') : data;
    if (this.#pendingBytes + chunk.length > this.#maxBufferBytes) {
      this.#pending = [];
      this.#pendingBytes = 0;
      this.onerror?.(new Error(`ReadBuffer exceeded maximum size of ${this.#maxBufferBytes} bytes`));
      void this.close();
      return;
    }
    let start = 0;
    let newline = chunk.indexOf(0x0a);
    while (newline !== -1 && !this.#closed) {
      const piece = chunk.subarray(start, newline);
      const line = this.#pending.length === 0 ? piece : Buffer.concat([...this.#pending, piece]);
      this.#pending = [];
      this.#pendingBytes = 0;
      this.#line(line.toString('utf8'));
      start = newline + 1;
      newline = chunk.indexOf(0x0a, start);
    }
    if (start < chunk.length && !this.#closed) {
      this.#pending.push(chunk.subarray(start));
      this.#pendingBytes += chunk.length - start;
    }
  };

  #line(raw: string): void {
    const text = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      // As the SDK's reader: a line that is not JSON is skipped.
      return;
    }
    try {
      if (this.#take(value)) return;
      this.onmessage?.(deserializeMessage(text));
    } catch (error) {
      this.onerror?.(error as Error);
    }
  }

  readonly #onStdinError = (error: Error): void => {
    this.onerror?.(error);
  };

  readonly #onStdinEnd = (): void => {
    this.close().catch(() => {});
  };

  readonly #onStdoutError = (error: Error): void => {
    if (this.#closed) return;
    this.onerror?.(error);
    this.close().catch(() => {});
  };
}

function ignore(): void {}
