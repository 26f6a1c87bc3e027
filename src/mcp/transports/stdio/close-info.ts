/**
 * The `closeInfo` records of the stdio transport: why the connection to a server process ended, in the
 * shape `MCPClient` turns into an {@link MCPCallError} for every call that was pending.
 */
import type { TransportCloseInfo } from '../transport.js';

/** How the server process ended, as Node's `exit` event reports it. */
export interface ExitStatus {
  /** The exit code, or `null` when a signal ended the process. */
  code: number | null;
  /** The signal that ended the process, or `null` when it exited by itself. */
  signal: NodeJS.Signals | null;
}

/** What is known about a server process when its connection ends. */
export interface ProcessFacts {
  server: string;
  /** `undefined` while the process runs (or never ran). */
  exit: ExitStatus | undefined;
  /** The last lines of its stderr, oldest first. */
  stderrTail: readonly string[];
}

/** Lines of stderr quoted in a message, and the longest part of each that is quoted, in characters. */
const QUOTED_LINES = 3;
const QUOTED_CHARS = 200;

/**
 * The server exited (or was killed) while connected: kind `connection_closed`, with a one-line message
 * like `server "x" exited with code 1; last stderr: Error: boom`.
 */
export function exitedInfo(facts: ProcessFacts): TransportCloseInfo {
  const how =
    facts.exit === undefined
      ? 'is gone'
      : facts.exit.signal !== null
        ? `was killed by signal ${facts.exit.signal}`
        : `exited with code ${facts.exit.code}`;
  return {
    ...details(facts),
    kind: 'connection_closed',
    message: `server "${facts.server}" ${how}${quoteStderr(facts.stderrTail)}`,
  };
}

/**
 * The server closed its stdout but kept running: it can never answer again, so the connection is over
 * (kind `connection_closed`), e.g. `server "x" closed its stdout while still running`.
 */
export function stdoutClosedInfo(facts: ProcessFacts): TransportCloseInfo {
  return {
    ...details(facts),
    kind: 'connection_closed',
    message: `server "${facts.server}" closed its stdout while still running${quoteStderr(facts.stderrTail)}`,
  };
}

/** Lines that tell a reader what went wrong. */
const INFORMATIVE = /error|exception|fatal|cannot|denied|not found/i;
/** Lines that never do: Node's `Node.js v20.1.0` banner, stack frames, a lone `}` or `^` of a crash dump. */
const NOISE = [/^Node\.js v\d/, /^\s*at\s/, /^[\s\p{P}\p{S}]*$/u];

/**
 * The stderr lines worth quoting in a one-line message (at most {@link QUOTED_LINES}): those of the
 * paragraph (lines between blank lines) holding the last informative line, up to and including it, noise
 * left out; without an informative line, the end of the last paragraph. A crashed Node server's tail ends
 * with a stack, a `}` and a version banner: the plain last lines would quote `} |  | Node.js v20.20.2`
 * where `Error: cannot open database` is what the reader needs.
 */
export function stderrSummary(tail: readonly string[]): string[] {
  const paragraphs: string[][] = [[]];
  for (const line of tail) {
    if (line.trim() === '') paragraphs.push([]);
    else if (!NOISE.some((noise) => noise.test(line))) paragraphs.at(-1)?.push(line.trim());
  }
  const kept = paragraphs.filter((lines) => lines.length > 0);
  for (const lines of [...kept].reverse()) {
    const last = lines.findLastIndex((line) => INFORMATIVE.test(line));
    if (last !== -1) return lines.slice(Math.max(0, last + 1 - QUOTED_LINES), last + 1);
  }
  return kept.at(-1)?.slice(-QUOTED_LINES) ?? [];
}

function quoteStderr(tail: readonly string[]): string {
  const lines = stderrSummary(tail).map(truncate);
  return lines.length > 0 ? `; last stderr: ${lines.join(' | ')}` : '';
}

/** The transport was closed on purpose: kind `not_connected`. */
export function closedInfo(facts: ProcessFacts): TransportCloseInfo {
  const message = `server "${facts.server}" is not connected: the transport was closed`;
  return { ...details(facts), kind: 'not_connected', message };
}

/**
 * The server sent a message over `maxMessageBytes`: kind `protocol`. Recorded as soon as the line passes
 * the limit, so its full size is not known.
 */
export function oversizedInfo(facts: ProcessFacts, limit: number): TransportCloseInfo {
  const message = `server "${facts.server}" sent a message over maxMessageBytes (${limit} bytes)`;
  return { ...details(facts), kind: 'protocol', message };
}

/** Shortens a line quoted in a message to {@link QUOTED_CHARS} characters. */
export function truncate(line: string): string {
  return line.length > QUOTED_CHARS ? `${line.slice(0, QUOTED_CHARS)}…` : line;
}

function details(facts: ProcessFacts): Omit<TransportCloseInfo, 'kind' | 'message'> {
  return {
    server: facts.server,
    exitCode: facts.exit?.code,
    signal: facts.exit?.signal,
    stderrTail: facts.stderrTail,
  };
}
