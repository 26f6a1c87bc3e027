/**
 * Matching for `search` off the main thread. The pattern comes from the model, and a JavaScript regular
 * expression can backtrack for hours (`(a+)+$` on a long line of a's): run on the event loop, it would stop
 * timeouts, aborts and Ctrl-C from working. A worker thread can be terminated mid-match instead.
 */
import { Worker } from 'node:worker_threads';
import { BuiltinToolError } from './errors.js';

/** One file to search: where it is, and the name shown in results. */
export interface SearchFile {
  absolute: string;
  relative: string;
}

/** What the worker searches. Files that are not regular, larger than `maxFileBytes`, or binary are skipped. */
export interface SearchJob {
  /** The regular expression's source and flags (already checked to parse). */
  source: string;
  flags: string;
  files: SearchFile[];
  /** Most matching lines reported. */
  maxMatches: number;
  /** Larger files are skipped, in bytes. */
  maxFileBytes: number;
  /** Longer lines are cut in results, in UTF-16 code units. */
  maxLineChars: number;
  /** Check each opened file by its `/proc/self/fd` name (Linux) rather than by a second resolution. */
  procFd: boolean;
}

/** Matching lines as `file:line: text`; `stopped` when `maxMatches` was reached before the end. */
export interface SearchOutcome {
  matches: string[];
  stopped: boolean;
}

// Plain JavaScript, run with `eval: true`: a worker file would need its own path in `src/` (TypeScript,
// which Node 20 cannot load) and in `dist/`. Binary means a NUL byte in the first 8 KiB, as git decides.
// Each file is opened as \`confined.ts\` opens one (no symlink as its last part, O_NONBLOCK for FIFOs), and
// skipped unless the descriptor is the file at that real path: a path swapped for a symlink since the
// walk listed it is never read.
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const fs = require('node:fs');
const { source, flags, files, maxMatches, maxFileBytes, maxLineChars, procFd } = workerData;
const c = fs.constants;
const openFlags = c.O_RDONLY | (c.O_NOFOLLOW ?? 0) | (c.O_NONBLOCK ?? 0);
const regex = new RegExp(source, flags);
const matches = [];
let stopped = false;
function isTheFile(fd, real) {
  if (procFd) return fs.readlinkSync('/proc/self/fd/' + fd) === real;
  if (fs.realpathSync(real) !== real) return false;
  const opened = fs.fstatSync(fd);
  const there = fs.statSync(real);
  return opened.dev === there.dev && opened.ino === there.ino;
}
function readChecked(real) {
  const fd = fs.openSync(real, openFlags);
  try {
    if (!isTheFile(fd, real)) return undefined;
    const info = fs.fstatSync(fd);
    if (!info.isFile() || info.size > maxFileBytes) return undefined;
    return fs.readFileSync(fd);
  } finally {
    fs.closeSync(fd);
  }
}
search: for (const file of files) {
  let buffer;
  try {
    buffer = readChecked(file.absolute);
  } catch {
    continue;
  }
  if (buffer === undefined) continue;
  if (buffer.subarray(0, 8192).includes(0)) continue;
  const lines = buffer.toString('utf8').split('\\n');
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    if (!regex.test(line)) continue;
    const shown = line.length > maxLineChars ? line.slice(0, maxLineChars) + '…' : line;
    matches.push(file.relative + ':' + (i + 1) + ': ' + shown);
    if (matches.length >= maxMatches) {
      stopped = true;
      break search;
    }
  }
}
parentPort.postMessage({ matches, stopped });
`;

/**
 * Runs `job` in a new worker thread, terminated (and awaited) when it finishes, after `timeoutMs`, or when
 * `signal` fires.
 * @throws {BuiltinToolError} `timeout` (`search timed out after <timeoutMs> ms`), `aborted`
 *   (`search aborted`), or `io` when the worker fails.
 */
export function searchInWorker(
  job: SearchJob,
  options: { timeoutMs: number; signal: AbortSignal | undefined },
): Promise<SearchOutcome> {
  const { timeoutMs, signal } = options;
  const worker = new Worker(WORKER_SOURCE, { eval: true, workerData: job });
  return new Promise((resolve, reject) => {
    let settled = false;
    const finish = (outcome: SearchOutcome | BuiltinToolError) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
      // Settle only once the thread is gone, so that no call leaves a worker spinning behind it.
      void worker.terminate().then(() => (outcome instanceof Error ? reject(outcome) : resolve(outcome)));
    };
    const timer = setTimeout(
      () => finish(new BuiltinToolError('timeout', 'search', `search timed out after ${timeoutMs} ms`)),
      timeoutMs,
    );
    const onAbort = () =>
      finish(new BuiltinToolError('aborted', 'search', 'search aborted', { cause: signal?.reason }));
    signal?.addEventListener('abort', onAbort, { once: true });
    if (signal?.aborted) onAbort();
    worker.once('message', (message: unknown) => finish(parseOutcome(message)));
    worker.once('error', (error) =>
      finish(new BuiltinToolError('io', 'search', `search failed: ${error.message}`, { cause: error })),
    );
    worker.once('exit', (code) =>
      finish(new BuiltinToolError('io', 'search', `search worker exited with code ${code} before answering`)),
    );
  });
}

function parseOutcome(message: unknown): SearchOutcome | BuiltinToolError {
  if (typeof message === 'object' && message !== null && 'matches' in message && 'stopped' in message) {
    const { matches, stopped } = message;
    if (
      Array.isArray(matches) &&
      matches.every((m) => typeof m === 'string') &&
      typeof stopped === 'boolean'
    ) {
      return { matches, stopped };
    }
  }
  return new BuiltinToolError('io', 'search', 'search worker answered in an unexpected shape');
}
