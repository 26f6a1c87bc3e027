/**
 * `bash { command, timeout_ms? }`: runs a command with `bash -c` in the workspace root. The whole process
 * tree is killed on timeout or abort (a backgrounded child would otherwise outlive the call).
 */
import { spawn } from 'node:child_process';
import treeKill from 'tree-kill';
import type { Tool } from '../core/tool.js';
import { builtinTool, capOutput, stringArg } from './define.js';
import { BuiltinToolError } from './errors.js';
import type { Workspace } from './workspace.js';

/** Default time a command may run, in ms. */
export const DEFAULT_BASH_TIMEOUT_MS = 30_000;

/** Options of {@link bashTool}. */
export interface BashToolOptions {
  workspace: Workspace;
  maxOutputBytes: number;
  /** Default and upper bound of `timeout_ms`, in ms. Default 30,000. */
  timeoutMs?: number;
}

/**
 * Creates `bash`. The result is stdout and stderr interleaved as they arrive, capped at `maxOutputBytes`.
 * A non-zero exit is a failure (the model sees the output and the exit code as an error result).
 * Note: the workspace confines the *working directory* only; a shell command can reach any path the
 * process can. Use the approval hook to vet commands.
 */
export function bashTool(options: BashToolOptions): Tool {
  const limit = options.timeoutMs ?? DEFAULT_BASH_TIMEOUT_MS;
  return builtinTool(
    {
      name: 'bash',
      description: `Run a shell command (bash -c) in the workspace root. Output is stdout and stderr combined. Timeout ${limit} ms unless timeout_ms is smaller.`,
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
        timeoutMs: Math.min(asked, limit),
        maxOutputBytes,
        signal: context.signal,
      });
    },
  );
}

interface RunOptions {
  cwd: string;
  timeoutMs: number;
  maxOutputBytes: number;
  signal: AbortSignal | undefined;
}

function runCommand(command: string, options: RunOptions): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn('bash', ['-c', command], { cwd: options.cwd, stdio: ['ignore', 'pipe', 'pipe'] });
    const chunks: Buffer[] = [];
    let kept = 0;
    let total = 0;
    const collect = (chunk: Buffer) => {
      total += chunk.length;
      // Only what can be shown is stored; the rest is counted, so a chatty command cannot fill memory.
      if (kept < options.maxOutputBytes) {
        chunks.push(chunk);
        kept += chunk.length;
      }
    };
    child.stdout.on('data', collect);
    child.stderr.on('data', collect);
    const output = () => capOutput(Buffer.concat(chunks).toString('utf8'), options.maxOutputBytes, total);
    let stopped: BuiltinToolError | undefined;
    const stop = (error: BuiltinToolError) => {
      if (stopped || child.exitCode !== null) return;
      stopped = error;
      if (child.pid !== undefined) treeKill(child.pid, 'SIGKILL');
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
    const finish = () => {
      clearTimeout(timer);
      options.signal?.removeEventListener('abort', onAbort);
    };
    child.on('error', (error) => {
      finish();
      reject(new BuiltinToolError('io', 'bash', `cannot start bash: ${error.message}`, { cause: error }));
    });
    child.on('close', (code, signal) => {
      finish();
      if (stopped) {
        stopped.message += `; output so far:\n${output()}`;
        return reject(stopped);
      }
      if (code === 0) return resolve(output());
      const how = code === null ? `killed by ${signal}` : `exit code ${code}`;
      reject(new BuiltinToolError('io', 'bash', `command failed (${how}):\n${output()}`));
    });
  });
}
