/**
 * The `closeInfo` records of the stdio transport: why the connection to a server process ended, in the
 * shape `MCPClient` turns into an {@link MCPCallError} for every call that was pending.
 */
import type { TransportCloseInfo } from './transport.js';

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
  const last = facts.stderrTail.slice(-QUOTED_LINES).map(truncate);
  const stderr = last.length > 0 ? `; last stderr: ${last.join(' | ')}` : '';
  return {
    ...details(facts),
    kind: 'connection_closed',
    message: `server "${facts.server}" ${how}${stderr}`,
  };
}

/** The transport was closed on purpose: kind `not_connected`. */
export function closedInfo(facts: ProcessFacts): TransportCloseInfo {
  const message = `server "${facts.server}" is not connected: the transport was closed`;
  return { ...details(facts), kind: 'not_connected', message };
}

/** The server sent a message over `maxMessageBytes`: kind `protocol`. */
export function oversizedInfo(facts: ProcessFacts, bytes: number, limit: number): TransportCloseInfo {
  const message = `server "${facts.server}" sent a message of ${bytes} bytes, over maxMessageBytes (${limit} bytes)`;
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
