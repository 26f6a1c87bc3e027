/**
 * The audit log of `agentwire serve`: one JSON object per line (JSON Lines) for each request of a gateway
 * client that the gate decided (call-gate.ts), appended to a file or written to stderr. Its fields are those
 * of {@link MCPGatewayAuditEntry}, in that order; never a request's arguments nor its result.
 */
import { createWriteStream } from 'node:fs';
import type { MCPGatewayAuditEntry } from './call-gate.js';

/** An audit sink writing JSON lines, and how to close it. */
export interface MCPGatewayAuditLog {
  write(entry: MCPGatewayAuditEntry): void;
  /** Flushes and closes the file (nothing for stderr). */
  close(): Promise<void>;
}

/**
 * The audit log to `target`: `'stderr'`, or a file path appended to (created with mode 0600: the log names
 * the callers).
 */
export function openAuditLog(target: string): MCPGatewayAuditLog {
  if (target === 'stderr')
    return {
      write: (entry) => void process.stderr.write(`${JSON.stringify(entry)}\n`),
      close: async () => {},
    };
  const file = createWriteStream(target, { flags: 'a', mode: 0o600 });
  // A write that fails (a full disk) must not take the gateway down; the line is lost.
  file.on('error', () => {});
  return {
    write: (entry) => void file.write(`${JSON.stringify(entry)}\n`),
    close: () => new Promise<void>((resolve) => file.end(() => resolve())),
  };
}
