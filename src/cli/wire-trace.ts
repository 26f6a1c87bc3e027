/**
 * `--verbose`: the wire of every server a command talks to, on stderr, one line per JSON-RPC message
 * (method, id, and for a response how long its request took) and per line a stdio server writes to its
 * stderr:
 *
 *     wire: server-everything → #1 initialize
 *     wire: server-everything ← #1 initialize result (12 ms)
 *     wire: server-everything → notifications/initialized
 *     wire: server-everything ← notifications/progress
 *     wire: server-everything stderr: Starting default (STDIO) server...
 *
 * A request that got no JSON-RPC response reads `← #id method failed: <what came instead> (N ms)`, as the
 * `server/discover` probe of a 2025-era HTTP server: `← #probe-1 server/discover failed: HTTP 400, error -32000`.
 *
 * Parameters and results are not shown: they may hold secrets and can be megabytes.
 */
import type { MCPWireMessage } from '../mcp/index.js';
import type { CliIo } from './io.js';

/** The `onWireMessage` and stderr tracer of one command, writing to `io.stderr`. */
export class WireTrace {
  readonly #io: CliIo;
  /** Each request still unanswered, by direction, server and id: its method and when it was sent (ms). */
  readonly #sent = new Map<string, { method: string; at: number }>();

  constructor(io: CliIo) {
    this.#io = io;
  }

  /** For `MCPClientOptions.onWireMessage`. */
  readonly message = ({ server, direction, message, failure }: MCPWireMessage): void => {
    const arrow = direction === 'send' ? '→' : '←';
    const fields = message as {
      id?: unknown;
      method?: unknown;
      error?: { code?: unknown; message?: unknown };
    };
    const id = fields.id === undefined || fields.id === null ? undefined : String(fields.id);
    // A failed request is ours, as a sent one.
    const key = `${direction === 'receive' ? 'in' : 'out'}:${server}:${id}`;
    let text: string;
    if (direction === 'fail') {
      const request = this.#sent.get(key);
      this.#sent.delete(key);
      const took = request ? ` (${Math.round(performance.now() - request.at)} ms)` : '';
      text = `#${id ?? '?'} ${String(fields.method)} failed: ${failure ?? 'no response'}${took}`;
    } else if (typeof fields.method === 'string') {
      if (id !== undefined) this.#sent.set(key, { method: fields.method, at: performance.now() });
      text = id === undefined ? fields.method : `#${id} ${fields.method}`;
    } else {
      // A response travels the other way from its request.
      const requestKey = `${direction === 'send' ? 'in' : 'out'}:${server}:${id}`;
      const request = this.#sent.get(requestKey);
      this.#sent.delete(requestKey);
      const outcome = fields.error ? `error ${String(fields.error.code)}` : 'result';
      text = request
        ? `#${id} ${request.method} ${outcome} (${Math.round(performance.now() - request.at)} ms)`
        : `#${id ?? '?'} ${outcome}`;
    }
    this.#io.stderr(`wire: ${server} ${arrow} ${text}\n`);
  };

  /** A `stderr` line of stdio server `server`. */
  stderr(server: string, line: string): void {
    this.#io.stderr(`wire: ${server} stderr: ${line}\n`);
  }
}
