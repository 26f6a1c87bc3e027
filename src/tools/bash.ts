/**
 * `bash { command, timeout_ms? }`: runs a command with `bash -c` in the workspace root, in a process group
 * of its own, with a small safe environment (see `bash-env.ts`).
 */
import { type ChildProcess, spawn } from 'node:child_process';
import {
  signalProcessTree,
  trackProcessTree,
  untrackProcessTree,
  usesProcessGroups,
  waitForProcessTreeExit,
} from '../core/process-tree.js';
import type { Tool } from '../core/tool.js';
import { bashEnvironment } from './bash-env.js';
import { builtinTool, capOutput, stringArg } from './define.js';
import { BuiltinToolError } from './errors.js';
import type { Workspace } from './workspace.js';

/** Default time a command may run, in ms. */
export const DEFAULT_BASH_TIMEOUT_MS = 30_000;

/**
 * How long output is still read after bash exited, and the killed group awaited, in ms. A process that left
 * the group on purpose (`setsid`) may hold the pipes open forever; what it wrote within this time is kept.
 */
export const BASH_DRAIN_MS = 250;

/** Options of {@link bashTool}. */
export interface BashToolOptions {
  workspace: Workspace;
  maxOutputBytes: number;
  /** Default and upper bound of `timeout_ms`, in ms. Default 30,000. */
  timeoutMs?: number;
  /**
   * Variables added to the safe environment (an `undefined` value removes one). Default: none. Commands
   * never see the rest of the host's environment, API keys included.
   */
  env?: Readonly<Record<string, string | undefined>>;
}

/**
 * Creates `bash`. The result is stdout and stderr interleaved as they arrive, capped at `maxOutputBytes`.
 * A non-zero exit is a failure (the model sees the output and the exit code as an error result).
 *
 * The command runs as the leader of a new process group: when bash exits, on timeout, and on abort the
 * whole group is SIGKILLed, so background children (`server &`) never outlive the call and a child that
 * holds stdout cannot keep the call open.
 *
 * Note: the workspace confines the *working directory* only; a shell command can reach any path and any
 * network the process can. Use the approval hook to vet commands.
 * @throws {BuiltinToolError} `timeout`, `aborted`, or `io` (bash did not start, or the command failed).
 */
export function bashTool(options: BashToolOptions): Tool {
  const limit = options.timeoutMs ?? DEFAULT_BASH_TIMEOUT_MS;
  const env = bashEnvironment(options.env);
  return builtinTool(
    {
      name: 'bash',
      description:
        `Run a shell command (bash -c) in the workspace root. Output is stdout and stderr combined. Timeout ${limit} ms unless timeout_ms is smaller. ` +
        'Background processes are ended when the command returns.',
      inputSchema: {
        type: 'object',
        properties: { command: { type: 'string' }, timeout_ms: { type: 'integer', minimum: 1 } },
        required: ['command'],
      },
    },
    options,
    async (input, { workspace, maxOutputBytes, context }) => {
      const command = stringArg('bash', input, 'command');
      const asked = typeof input.timeout_ms === 'number' && input.timeout_ms > 0 ? input.timeout_ms : limit;
      const cwd = await workspace.realRoot();
      return runCommand(command, {
        cwd,
        env,
        timeoutMs: Math.min(asked, limit),
        maxOutputBytes,
        signal: context.signal,
      });
    },
  );
}

interface RunOptions {
  cwd: string;
  env: Record<string, string>;
  timeoutMs: number;
  maxOutputBytes: number;
  signal: AbortSignal | undefined;
}

function runCommand(command: string, options: RunOptions): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn('bash', ['-c', command], {
      cwd: options.cwd,
      env: options.env,
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: usesProcessGroups,
    });
    const pid = child.pid;
    if (pid !== undefined) trackProcessTree(pid);
    const output = collectOutput(child.stdout, child.stderr, options.maxOutputBytes);
    let exited = false;
    let stopped: BuiltinToolError | undefined;
    const stop = (error: BuiltinToolError) => {
      if (stopped || exited) return;
      stopped = error;
      if (pid !== undefined) signalProcessTree(pid, 'SIGKILL');
    };
    const timer = setTimeout(
      () => stop(new BuiltinToolError('timeout', 'bash', `command timed out after ${options.timeoutMs} ms`)),
      options.timeoutMs,
    );
    const onAbort = () =>
      stop(new BuiltinToolError('aborted', 'bash', 'command aborted', { cause: options.signal?.reason }));
    options.signal?.addEventListener('abort', onAbort, { once: true });
    // The signal may have fired while the workspace was being resolved, before the listener existed.
    if (options.signal?.aborted) onAbort();
    let settled = false;
    const settle = (finish: () => void) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      options.signal?.removeEventListener('abort', onAbort);
      finish();
    };
    child.on('error', (error) => {
      if (pid !== undefined) untrackProcessTree(pid);
      settle(() =>
        reject(new BuiltinToolError('io', 'bash', `cannot start bash: ${error.message}`, { cause: error })),
      );
    });
    child.on('exit', async (code, signal) => {
      exited = true;
      // What the command left running in its group goes with it: the call owns what it started, and
      // settles once those processes are gone (bounded, as is reading what they wrote).
      if (pid !== undefined) signalProcessTree(pid, 'SIGKILL');
      await Promise.all([
        drained(child, BASH_DRAIN_MS),
        pid === undefined ? undefined : waitForProcessTreeExit(pid, BASH_DRAIN_MS),
      ]);
      if (pid !== undefined) untrackProcessTree(pid);
      child.stdout.destroy();
      child.stderr.destroy();
      settle(() => {
        if (stopped) {
          stopped.message += `; output so far:\n${output()}`;
          return reject(stopped);
        }
        if (code === 0) return resolve(output());
        const how = code === null ? `killed by ${signal}` : `exit code ${code}`;
        reject(new BuiltinToolError('io', 'bash', `command failed (${how}):\n${output()}`));
      });
    });
  });
}

/** Gathers both streams as they interleave; returns a function giving the capped text so far. */
function collectOutput(
  stdout: NodeJS.ReadableStream,
  stderr: NodeJS.ReadableStream,
  maxBytes: number,
): () => string {
  const chunks: Buffer[] = [];
  let kept = 0;
  let total = 0;
  const collect = (chunk: Buffer) => {
    total += chunk.length;
    // Only what can be shown is stored; the rest is counted, so a chatty command cannot fill memory.
    if (kept < maxBytes) {
      chunks.push(chunk);
      kept += chunk.length;
    }
  };
  stdout.on('data', collect);
  stderr.on('data', collect);
  return () => capOutput(Buffer.concat(chunks).toString('utf8'), maxBytes, total);
}

/** Resolves when the child's pipes have closed, or after `ms` if something outside the group holds them. */
function drained(child: ChildProcess, ms: number): Promise<void> {
  if (child.stdout?.readableEnded !== false && child.stderr?.readableEnded !== false) {
    return Promise.resolve();
  }
  return new Promise((resolve) => {
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      child.off('close', done);
      resolve();
    }
    child.once('close', done);
  });
}
