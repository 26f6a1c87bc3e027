/**
 * transports/stdio/: the stdio transport, an MCP server run as a child process and spoken to over its pipes.
 *
 * The server speaks newline-delimited JSON-RPC over its stdin/stdout (MCP spec 2025-11-25, "Transports >
 * stdio"). This transport replaces the SDK's `StdioClientTransport`, which reads large messages in
 * quadratic time, kills only its direct child, inherits stderr, and says nothing about why a server went
 * away. This one reads in linear time, ends the whole process tree, keeps the tail of stderr, and records
 * `closeInfo` (exit code, signal, stderr tail) before `onclose` fires, so a pending call can fail with a
 * useful error. This file holds the connection (framing, sending, delivery, why it ended); child-process.ts
 * the process itself (spawn, process group, ending it); line-reader.ts and stderr.ts read its two output
 * pipes.
 */

import type { Writable } from 'node:stream';
import type { JSONRPCMessage, Transport } from '@modelcontextprotocol/client';
import { MCPCallError, type MCPCallErrorKind } from '../../protocol/errors.js';
import { isJsonRpcMessage } from '../../protocol/jsonrpc.js';
import { envSecrets, type Redactor } from '../../protocol/redact.js';
import { redactError } from '../../protocol/redact-error.js';
import { LARGE_LINE_BYTES, LargeLineParser } from '../json/large-line.js';
import { SENT } from '../sent.js';
import type { AgentwireTransport, TransportCloseInfo } from '../transport.js';
import { WireOrder } from '../wire-order.js';
import { ServerProcess } from './child-process.js';
import {
  closedInfo,
  exitedInfo,
  oversizedInfo,
  type ProcessFacts,
  stdoutClosedInfo,
  truncate,
} from './close-info.js';
import { decodeLine, type LargeLineSink, LineReader } from './line-reader.js';
import { DEFAULT_MAX_MESSAGE_BYTES, type NonJsonLineInfo, type StdioTransportOptions } from './options.js';
import { ReportLimiter } from './report-limiter.js';
import { StderrCapture } from './stderr.js';

export {
  DEFAULT_MAX_MESSAGE_BYTES,
  type NonJsonLineInfo,
  type StdioTransportOptions,
} from './options.js';
export type { StderrMode } from './stderr.js';

/** How long a server that closed its stdout has to exit before it is taken for alive and ended, in ms. */
const STDOUT_END_EXIT_WAIT_MS = 1000;

type Phase = 'new' | 'starting' | 'open' | 'closing' | 'closed';

/**
 * An MCP server over stdio. Construct it, then hand it to the SDK's `Client.connect()` (which calls
 * `start()`); `close()` ends the server's whole process tree.
 *
 * Errors: `start()` rejects with {@link MCPCallError} kind `spawn` when the command cannot be started;
 * `send()` rejects with kind `connection_closed` once the server has exited and `not_connected` before
 * `start()` or after `close()`. `closeInfo` says why the connection ended and is set before `onclose`.
 */
export class StdioTransport implements AgentwireTransport {
  onclose?: Transport['onclose'];
  onerror?: Transport['onerror'];
  onmessage?: Transport['onmessage'];

  private readonly serverName: string;
  private readonly child: ServerProcess;
  private readonly onNonJsonLine: StdioTransportOptions['onNonJsonLine'];
  private readonly stdoutReader: LineReader;
  private readonly stderrCapture: StderrCapture;
  /** Removes the values of the server's `env` from its stderr and stdout lines and from reported errors. */
  private readonly redact: Redactor;
  private readonly nonJsonLimiter = new ReportLimiter();
  private readonly wireOrder = new WireOrder(this, (error) =>
    this.report(
      this.error('transport', `the message handler threw on a message from "${this.serverName}"`, error),
    ),
  );

  private phase: Phase = 'new';
  private starting: Promise<void> | undefined;
  private ending: Promise<void> | undefined;
  private closing: Promise<void> | undefined;
  private info: TransportCloseInfo | undefined;
  private closeFired = false;
  /** Whether stdin is corked until the next tick (see `corkForThisTick`). */
  private corked = false;
  /** The `drain` wait every blocked `send` shares, while the pipe's buffer is full. */
  private drainWait:
    | { promise: Promise<void>; settle: (error: MCPCallError | undefined) => void }
    | undefined;

  constructor(options: StdioTransportOptions) {
    this.serverName = options.serverName ?? options.command;
    this.onNonJsonLine = options.onNonJsonLine;
    this.redact = envSecrets(options.env).redact;
    const maxMessageBytes = options.maxMessageBytes ?? DEFAULT_MAX_MESSAGE_BYTES;
    this.stdoutReader = new LineReader({
      maxLineBytes: maxMessageBytes,
      onLine: (line) => this.handleLine(line),
      largeLine: { bytes: LARGE_LINE_BYTES, open: () => this.openLargeLine() },
      onOverflow: () => this.failOversized(maxMessageBytes),
    });
    this.stderrCapture = new StderrCapture(
      options.stderrTailLines ?? 20,
      options.stderr ?? 'capture',
      (error) =>
        this.report(
          this.error('transport', `the stderr callback of server "${this.serverName}" threw`, error),
        ),
      this.redact,
    );
    this.child = new ServerProcess(
      { ...options, serverName: this.serverName },
      {
        stdout: (chunk) => this.stdoutReader.push(chunk),
        stdoutEnd: () => {
          this.stdoutReader.end();
          void this.afterStdoutEnd();
        },
        stderr: (chunk) => this.stderrCapture.push(chunk),
        stderrEnd: () => this.stderrCapture.end(),
        report: (message, cause) => this.report(this.error('transport', message, cause)),
        exited: () => {
          if (this.phase === 'open') this.finish(exitedInfo(this.facts()));
        },
      },
    );
  }

  /** Why the connection ended; set before `onclose` fires, `undefined` until then. */
  get closeInfo(): TransportCloseInfo | undefined {
    return this.info;
  }

  /** The server process's pid (the leader of its process group on POSIX); `undefined` until spawned. */
  get pid(): number | undefined {
    return this.child.pid;
  }

  /** The last lines the server wrote to stderr, oldest first (at most `stderrTailLines`). */
  get stderrTail(): readonly string[] {
    return this.stderrCapture.tail;
  }

  /**
   * Spawns the server. Resolves once the process runs; a server that exits right away is reported through
   * `closeInfo` / `onclose` and the failure of the first `send()`.
   * @throws {MCPCallError} kind `spawn` when the command is not found, not executable, or `cwd` is missing;
   *   kind `transport` when called twice (a transport is single-use: create a new one to reconnect).
   */
  async start(): Promise<void> {
    if (this.phase !== 'new') {
      throw this.error('transport', `the transport of server "${this.serverName}" was already started`);
    }
    this.phase = 'starting';
    this.starting = this.spawnChild();
    return this.starting;
  }

  /**
   * Writes one message as a line of JSON. Resolves once the pipe accepted it, waiting for `drain` when the
   * pipe's buffer is full (backpressure).
   * @throws {MCPCallError} kind `connection_closed` (server gone) or `not_connected` (not started / closed).
   */
  send(message: JSONRPCMessage): Promise<void> {
    // The common case (open, the pipe not full) settles with no async frame: one shared resolved promise.
    if (this.phase !== 'open' || this.child.exitStatus !== undefined) return this.sendLate(message);
    let line: string;
    try {
      line = `${JSON.stringify(message)}\n`;
    } catch (error) {
      return Promise.reject(error); // as the async path would: a rejection, never a throw
    }
    const stdin = this.child.stdin;
    this.corkForThisTick(stdin);
    if (stdin.write(line)) return SENT;
    return this.drained(stdin);
  }

  /** `send` when the transport is not open, or its server has exited. */
  private async sendLate(message: JSONRPCMessage): Promise<void> {
    // The server has exited but its last stderr lines may still be in the pipe: wait for them (bounded by
    // the exit clean-up), so that the error carries the whole story.
    if (this.phase === 'open' && this.child.exitStatus !== undefined) await this.child.settled;
    const refusal = this.sendRefusal();
    if (refusal !== undefined) throw refusal;
    const stdin = this.child.stdin;
    this.corkForThisTick(stdin);
    if (stdin.write(`${JSON.stringify(message)}\n`)) return;
    await this.drained(stdin);
  }

  /**
   * Batches every message sent in this tick into one `writev`: 1 000 concurrent calls otherwise cost 1 000
   * pipe syscalls (seen in the bench's profile of a burst of calls). Order and backpressure are unchanged: a
   * corked `write()` still returns false past the high-water mark.
   */
  private corkForThisTick(stdin: Writable): void {
    if (this.corked) return;
    this.corked = true;
    stdin.cork();
    process.nextTick(this.uncork, stdin);
  }

  /** The end of `corkForThisTick`'s tick: one function per transport, not one per send. */
  private readonly uncork = (stdin: Writable): void => {
    this.corked = false;
    stdin.uncork();
  };

  /**
   * One `drain` wait shared by every blocked `send`: a listener per send would pile up (and trip Node's
   * MaxListenersExceeded warning) when many calls are in flight. Rejected once by the close path.
   */
  private drained(stdin: Writable): Promise<void> {
    if (this.drainWait !== undefined) return this.drainWait.promise;
    let settle: (error: MCPCallError | undefined) => void = () => {};
    const promise = new Promise<void>((resolve, reject) => {
      const onDrain = (): void => settle(undefined);
      settle = (error) => {
        this.drainWait = undefined;
        stdin.off('drain', onDrain);
        if (error === undefined) resolve();
        else reject(error);
      };
      stdin.once('drain', onDrain);
    });
    this.drainWait = { promise, settle };
    return promise;
  }

  /**
   * Ends the server's whole process tree: closes its stdin, waits `closeGraceMs`, sends SIGTERM to the
   * tree, waits again, then SIGKILL. Idempotent; resolves once the tree is gone (or, for a process that
   * survives SIGKILL, after a third grace period). Afterwards `closeInfo.kind` is `not_connected`.
   */
  close(): Promise<void> {
    this.closing ??= this.endProcessTree().then(() => this.finish(closedInfo(this.facts())));
    return this.closing;
  }

  private async spawnChild(): Promise<void> {
    try {
      await this.child.spawn();
    } catch (error) {
      throw this.failSpawn(error);
    }
    this.phase = 'open';
  }

  /**
   * A server that closed its stdout can never answer again, even if it keeps running: end the connection
   * (and the process) instead of leaving its calls to time out. An exiting server closes stdout first, so
   * its exit gets a moment to arrive and be reported as what it is, with its exit code.
   */
  private async afterStdoutEnd(): Promise<void> {
    if (await this.child.waitForExit(STDOUT_END_EXIT_WAIT_MS)) return;
    if (this.phase !== 'open' || this.child.exitStatus !== undefined) return;
    this.finish(stdoutClosedInfo(this.facts()));
    void this.endProcessTree();
  }

  /** Ends the server (deliberately, or after a fatal protocol error); idempotent. */
  private endProcessTree(): Promise<void> {
    this.ending ??= this.endProcessTreeOnce();
    return this.ending;
  }

  private async endProcessTreeOnce(): Promise<void> {
    if (this.phase === 'starting') await this.starting?.catch(() => undefined);
    if (!this.child.spawned) return;
    if (this.phase === 'open') this.phase = 'closing';
    this.rejectDrainWaiters();
    await this.child.end();
  }

  private handleLine(line: Buffer): void {
    const text = decodeLine(line);
    const start = text.trimStart();
    if (start === '') return; // blank lines carry nothing; not worth a report
    const value = parseMessage(start);
    if (typeof value === 'string') {
      this.skipLine(text, value);
      return;
    }
    this.deliver(value);
  }

  /** A line of megabytes: parsed while it arrives, never joined (see ../json/large-line.ts). */
  private openLargeLine(): LargeLineSink {
    const parser = new LargeLineParser();
    return {
      push: (bytes) => this.guardLargeLine(() => parser.push(bytes)),
      end: () => this.guardLargeLine(() => this.endLargeLine(parser)),
    };
  }

  private endLargeLine(parser: LargeLineParser): void {
    const result = parser.finish();
    if (result.ok && isJsonRpcMessage(result.value)) {
      this.deliver(result.value);
      return;
    }
    const text = parser.text();
    const start = text.trimStart();
    if (start === '') return; // as the ordinary path: blank lines carry nothing
    // The ordinary path's rule: a line that does not start with '{' is not JSON, whatever it parses to.
    this.skipLine(text, result.ok && start.startsWith('{') ? 'not_jsonrpc' : 'not_json');
  }

  /** The large-line reader runs in the stdout listener: whatever it throws is reported, never thrown. */
  private guardLargeLine(step: () => void): void {
    try {
      step();
    } catch (error) {
      this.report(
        this.error('transport', `cannot read a large stdout line from "${this.serverName}"`, error),
      );
    }
  }

  private deliver(message: JSONRPCMessage): void {
    try {
      this.wireOrder.deliver(message);
    } catch (error) {
      this.report(
        this.error('transport', `the message handler threw on a message from "${this.serverName}"`, error),
      );
    }
  }

  private skipLine(raw: string, reason: NonJsonLineInfo['reason']): void {
    const decision = this.nonJsonLimiter.offer();
    if (!decision.report) return;
    const line = this.redact(raw);
    if (this.onNonJsonLine !== undefined) {
      try {
        this.onNonJsonLine(line, { reason, suppressed: decision.suppressed });
      } catch (error) {
        this.report(this.error('transport', `onNonJsonLine threw for server "${this.serverName}"`, error));
      }
      return;
    }
    const what = reason === 'not_json' ? 'is not JSON' : 'is JSON but not a JSON-RPC message';
    const more =
      decision.suppressed > 0 ? ` (${decision.suppressed} more skipped since the last report)` : '';
    this.report(
      this.error(
        'protocol',
        `server "${this.serverName}" wrote a stdout line that ${what}, skipped${more}: ${truncate(line)}`,
      ),
    );
  }

  /**
   * A line passed `maxMessageBytes`: which request it answers cannot be known before it is read, and its
   * bytes are dropped unread, so the connection ends now, failing every pending call (not when, if ever, the
   * line ends).
   */
  private failOversized(limit: number): void {
    if (this.phase !== 'open') return;
    this.finish(oversizedInfo(this.facts(), limit));
    void this.endProcessTree();
  }

  private sendRefusal(): MCPCallError | undefined {
    if (this.phase === 'open' && this.child.exitStatus === undefined) return undefined;
    if (this.phase === 'new' || this.phase === 'starting') {
      return this.error(
        'not_connected',
        `server "${this.serverName}" is not connected: the transport was not started`,
      );
    }
    const info =
      this.info ?? (this.phase === 'closing' ? closedInfo(this.facts()) : exitedInfo(this.facts()));
    const { kind, message, ...details } = info;
    return new MCPCallError(kind, message, details);
  }

  private rejectDrainWaiters(): void {
    this.drainWait?.settle(this.sendRefusal());
  }

  /** Records why the connection ended, then calls `onclose` once. `closeInfo` is always set first. */
  private finish(info: TransportCloseInfo): void {
    this.info = info;
    this.phase = 'closed';
    this.rejectDrainWaiters();
    if (this.closeFired) return;
    this.closeFired = true;
    try {
      this.onclose?.();
    } catch (error) {
      this.report(
        this.error('transport', `the onclose handler threw for server "${this.serverName}"`, error),
      );
    }
  }

  private facts(): ProcessFacts {
    return { server: this.serverName, exit: this.child.exitStatus, stderrTail: this.stderrTail };
  }

  private failSpawn(cause: unknown): MCPCallError {
    const message = `cannot start server "${this.serverName}": ${this.child.describeSpawnError(cause)}`;
    this.phase = 'closed';
    this.info = { kind: 'spawn', message, server: this.serverName, cause };
    return new MCPCallError('spawn', message, { server: this.serverName, cause });
  }

  private error(kind: MCPCallErrorKind, message: string, cause?: unknown): MCPCallError {
    return new MCPCallError(kind, message, { server: this.serverName, cause });
  }

  /** `onerror` is optional and must never break the transport, whatever it does. */
  private report(error: Error): void {
    try {
      this.onerror?.(redactError(error, this.redact));
    } catch {
      // A throwing error handler has nowhere left to report to.
    }
  }
}

/** Parses one line into a JSON-RPC message, or says why it is not one. */
function parseMessage(text: string): JSONRPCMessage | NonJsonLineInfo['reason'] {
  // Most noise (banners, log lines) does not start with '{': skip JSON.parse for it.
  if (!text.startsWith('{')) return 'not_json';
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return 'not_json';
  }
  return isJsonRpcMessage(value) ? value : 'not_jsonrpc';
}
