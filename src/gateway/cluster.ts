/**
 * How the processes of one gateway reach each other: a process has an id, can send a message to one other
 * process (by id) and to all of them. The gateway keeps every exchange with an upstream on the process that
 * started it (an upstream call is a live pipe or stream, it cannot move), and what a client sends for that
 * exchange to another process is forwarded here: a 2025 client's answer to an elicitation or sampling
 * request, its `notifications/cancelled`, a 2026-07-28 retry carrying a `requestState` (and the outcome
 * back). The ids are in what the client echoes (a server request's id, a `requestState`), so no lookup is
 * needed; only a cancellation, which names the client's own request id, goes to every process.
 *
 * {@link localCluster} is the one process alone; redis-cluster.ts is the same over Redis pub/sub.
 */
import { randomBytes } from 'node:crypto';

/** A message between gateway processes (JSON). */
export type ClusterMessage = Record<string, unknown> & { type: string };

/** The processes of one gateway, as one process sees them. */
export interface GatewayCluster {
  /** This process's id: short, URL-safe, unique among the processes (random per start). */
  readonly id: string;
  /**
   * Sends `message` to process `to`. Resolves true once it is on its way to a live process, false when no
   * process of that id listens (it has ended) or the channel is down.
   */
  send(to: string, message: ClusterMessage): Promise<boolean>;
  /** Sends `message` to every other process; resolves once it is on its way (never rejects). */
  broadcast(message: ClusterMessage): Promise<void>;
  /** Whether process `id` is still there (false when it is not known to be). */
  alive(id: string): Promise<boolean>;
  /** Sets the receiver of the messages sent to this process or to all. */
  onMessage(receiver: (message: ClusterMessage) => void): void;
  /** Stops receiving and sending. Idempotent. */
  close(): Promise<void>;
}

/** A fresh process id: 8 random bytes, base64url (11 characters). */
export function newProcessId(): string {
  return randomBytes(8).toString('base64url');
}

/** One process on its own: nothing to send to, nobody else alive. */
export function localCluster(id = newProcessId()): GatewayCluster {
  return {
    id,
    send: async () => false,
    broadcast: async () => {},
    alive: async (other) => other === id,
    onMessage: () => {},
    close: async () => {},
  };
}
