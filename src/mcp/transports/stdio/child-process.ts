/**
 * The MCP server's child process (MCP spec 2025-11-25, "Transports > stdio"): spawned in a process group of
 * its own (on POSIX) and tracked, so that `close()` and the host's exit end every descendant
 * (core/process-tree.ts); stopped by escalation, each step after a grace period (stdin EOF, SIGTERM to the
 * tree, SIGKILL to the tree: "Lifecycle > Shutdown > stdio"); and, once it exited, cleaned up: the orphans it
 * left ended, its pipes drained.
 */
import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import type { Writable } from 'node:stream';
import { getDefaultEnvironment } from '@modelcontextprotocol/client/stdio';
import {
  signalProcessTree,
  trackProcessTree,
  untrackProcessTree,
  usesProcessGroups,
  waitForProcessTreeExit,
} from '../../../core/process-tree.js';
import type { ExitStatus } from './close-info.js';
import { DEFAULT_CLOSE_GRACE_MS, type StdioTransportOptions } from './options.js';
import { describeSpawnError } from './spawn-error.js';

/** How long a closed server's pipes may stay open after it exited before we stop waiting, in ms. */
const PIPE_CLOSE_WAIT_MS = 200;

/** What the process's owner hears. Called from the child's events; none may throw. */
export interface ServerProcessHandlers {
  /** A chunk the server wrote to stdout. */
  stdout: (chunk: Buffer) => void;
  /** The server closed its stdout. */
  stdoutEnd: () => void;
  /** A chunk the server wrote to stderr. */
  stderr: (chunk: Buffer) => void;
  /** The server closed its stderr. */
  stderrEnd: () => void;
  /** A sentence naming the server, for `onerror`: a process error, a process that outlived SIGKILL. */
  report: (message: string, cause?: unknown) => void;
  /** The process exited and its clean-up is done: tree gone, pipes drained (see `settled`). */
  exited: () => void;
}

/** One server process: spawned once, ended once. */
export class ServerProcess {
  readonly #command: string;
  readonly #args: readonly string[];
  readonly #env: Record<string, string>;
  readonly #cwd: string | undefined;
  readonly #graceMs: number;
  readonly #serverName: string;
  readonly #handlers: ServerProcessHandlers;
  #child: ChildProcessWithoutNullStreams | undefined;
  #spawned = false;
  #exitStatus: ExitStatus | undefined;
  readonly #exited: Promise<void>;
  #markExited: () => void = () => {};
  /** Resolves once an exited server's tree is gone and its pipes are drained (see `#afterExit`). */
  #settled: Promise<void> = Promise.resolve();
  /** Resolves when stdout and stderr have both closed (the child's `close` event). */
  #pipesClosed: Promise<void> = Promise.resolve();

  /**
   * Nothing starts until {@link ServerProcess.spawn}. The environment is the SDK's safe default (or, with
   * `inheritEnv`, the host's), with `env` over it.
   */
  constructor(
    options: Pick<
      StdioTransportOptions,
      'command' | 'args' | 'env' | 'inheritEnv' | 'cwd' | 'closeGraceMs'
    > & {
      /** The server's name in reports. */
      serverName: string;
    },
    handlers: ServerProcessHandlers,
  ) {
    this.#command = options.command;
    this.#args = options.args ?? [];
    const base = options.inheritEnv === true ? definedValues(process.env) : getDefaultEnvironment();
    this.#env = { ...base, ...options.env };
    this.#cwd = options.cwd;
    this.#graceMs = options.closeGraceMs ?? DEFAULT_CLOSE_GRACE_MS;
    this.#serverName = options.serverName;
    this.#handlers = handlers;
    this.#exited = new Promise((resolve) => {
      this.#markExited = resolve;
    });
  }

  /** The process's pid (the leader of its process group on POSIX); `undefined` until spawned. */
  get pid(): number | undefined {
    return this.#child?.pid;
  }

  /** Whether the process started (its `spawn` event came). */
  get spawned(): boolean {
    return this.#spawned;
  }

  /** The server's stdin. Only once spawned. */
  get stdin(): Writable {
    return this.#child!.stdin;
  }

  /** How the process ended; `undefined` while it runs (or never ran). */
  get exitStatus(): ExitStatus | undefined {
    return this.#exitStatus;
  }

  /** Resolves once an exited process's tree is gone and its pipes are drained (at once before it exited). */
  get settled(): Promise<void> {
    return this.#settled;
  }

  /**
   * Starts the process and resolves once it runs, its output flowing to the handlers.
   * @throws the spawn error as Node gives it (see {@link ServerProcess.describeSpawnError}): thrown by
   *   `spawn()` itself for bad arguments (NUL bytes) or EINVAL, else its `error` event (ENOENT, EACCES, …).
   */
  async spawn(): Promise<void> {
    const child = spawn(this.#command, [...this.#args], {
      cwd: this.#cwd,
      env: this.#env,
      stdio: ['pipe', 'pipe', 'pipe'],
      // A new process group (and session), so close() and the exit hook can end every descendant.
      detached: usesProcessGroups,
      shell: false,
      windowsHide: true,
    });
    this.#child = child;
    try {
      await new Promise<void>((resolve, reject) => {
        child.once('spawn', resolve);
        child.once('error', reject);
      });
    } catch (error) {
      this.#destroyPipes(child);
      throw error;
    }
    this.#spawned = true;
    trackProcessTree(child.pid!);
    this.#attach(child);
  }

  /** What to say about a spawn failure (never an environment value). */
  describeSpawnError(cause: unknown): string {
    return describeSpawnError(this.#command, this.#cwd, cause);
  }

  /** Resolves true once the process exited, or false after `ms`. */
  async waitForExit(ms: number): Promise<boolean> {
    let timer: NodeJS.Timeout | undefined;
    const exited = await Promise.race([
      this.#exited.then(() => true),
      new Promise<boolean>((resolve) => {
        timer = setTimeout(() => resolve(false), ms);
      }),
    ]);
    clearTimeout(timer);
    return exited;
  }

  /**
   * Ends the process, when it was spawned: stdin EOF, grace, SIGTERM to the tree, grace, SIGKILL to the tree,
   * grace. Resolves once it exited and {@link ServerProcess.settled}, or, for a process that survives SIGKILL
   * (reported), after the third grace period with its pipes destroyed.
   */
  async end(): Promise<void> {
    const child = this.#child;
    if (!this.#spawned || child === undefined) return;
    if (this.#exitStatus === undefined) await this.#stop(child);
    if (this.#exitStatus !== undefined) await this.#settled;
    else this.#destroyPipes(child);
  }

  #attach(child: ChildProcessWithoutNullStreams): void {
    const handlers = this.#handlers;
    child.on('error', (error) => handlers.report(`server "${this.#serverName}" process error`, error));
    // EPIPE after the server died is expected; its exit is reported through closeInfo instead.
    child.stdin.on('error', () => {});
    child.stdout.on('data', (chunk: Buffer) => handlers.stdout(chunk));
    child.stdout.on('end', () => handlers.stdoutEnd());
    child.stderr.on('data', (chunk: Buffer) => handlers.stderr(chunk));
    child.stderr.on('end', () => handlers.stderrEnd());
    this.#pipesClosed = new Promise((resolve) => child.once('close', () => resolve()));
    child.once('exit', (code, signal) => {
      this.#exitStatus = { code, signal };
      this.#markExited();
      this.#settled = this.#afterExit(child);
    });
  }

  /** After the process exited: end what it left behind, drain its pipes, then tell the owner. */
  async #afterExit(child: ChildProcessWithoutNullStreams): Promise<void> {
    const pid = child.pid!;
    // Orphans of the server (helpers, a wrapper's grandchild) would outlive it and hold our pipes open.
    if (!(await this.#endTree(pid, 'SIGTERM'))) await this.#endTree(pid, 'SIGKILL');
    untrackProcessTree(pid);
    await this.#waitForPipes();
    this.#destroyPipes(child);
    this.#handlers.exited();
  }

  /** Signals the tree (if any of it is left) and waits up to the grace period for it to go. */
  async #endTree(pid: number, signal: NodeJS.Signals): Promise<boolean> {
    if (!signalProcessTree(pid, signal)) return true;
    return waitForProcessTreeExit(pid, this.#graceMs);
  }

  async #waitForPipes(): Promise<void> {
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([
      this.#pipesClosed,
      new Promise<void>((resolve) => {
        timer = setTimeout(resolve, PIPE_CLOSE_WAIT_MS);
      }),
    ]);
    clearTimeout(timer);
  }

  /** stdin EOF, grace, SIGTERM to the tree, grace, SIGKILL to the tree, grace. */
  async #stop(child: ChildProcessWithoutNullStreams): Promise<void> {
    const pid = child.pid!;
    child.stdin.end();
    if (await this.waitForExit(this.#graceMs)) return;
    signalProcessTree(pid, 'SIGTERM');
    if (await this.waitForExit(this.#graceMs)) return;
    signalProcessTree(pid, 'SIGKILL');
    if (await this.waitForExit(this.#graceMs)) return;
    this.#handlers.report(`server "${this.#serverName}" (pid ${pid}) did not exit after SIGKILL; gave up`);
  }

  #destroyPipes(child: ChildProcessWithoutNullStreams): void {
    for (const stream of [child.stdin, child.stdout, child.stderr]) stream.destroy();
  }
}

function definedValues(env: NodeJS.ProcessEnv): Record<string, string> {
  const result: Record<string, string> = {};
  for (const [key, value] of Object.entries(env)) if (value !== undefined) result[key] = value;
  return result;
}
