/**
 * `MCPClient`'s typed events (TypeScript seed, "Connection Loss and Reconnection", "Tool List Changes",
 * "Events" table). `error` is emitted only when someone listens, so a background failure can never crash
 * the host process through Node's "unhandled 'error' event" rule.
 */
import { EventEmitter } from 'node:events';
import type { MCPTool } from './mcp-tool.js';
import type { ServerLogMessage } from './types.js';

/** Event names, for those who prefer constants (`mcp.on(MCPClientEvent.DISCONNECTED, …)`). */
export const MCPClientEvent = {
  CONNECTED: 'connected',
  DISCONNECTED: 'disconnected',
  RECONNECTING: 'reconnecting',
  RECONNECTED: 'reconnected',
  TOOLS_CHANGED: 'toolsChanged',
  LOG: 'log',
  SERVER_LOG: 'serverLog',
  RESOURCE_UPDATED: 'resourceUpdated',
  RESOURCES_CHANGED: 'resourcesChanged',
  PROMPTS_CHANGED: 'promptsChanged',
  ERROR: 'error',
} as const;

/** A diagnostic from agentwire itself about this connection (not the server's own log messages). */
export interface MCPClientLogEntry {
  level: 'debug' | 'info' | 'warn';
  message: string;
}

/** Payload of each event. */
export interface MCPClientEvents {
  /** `connect()` succeeded; `tools` is the discovered list. */
  connected: { tools: MCPTool[] };
  /**
   * The connection ended. `deliberate` is true for `disconnect()`; `willReconnect` is true when automatic
   * reconnection will try to restore it; `error` says why an unexpected end happened.
   */
  disconnected: { error?: Error; deliberate: boolean; willReconnect: boolean };
  /** Before each reconnect attempt (1-based), after waiting `delayMs`. */
  reconnecting: { attempt: number; delayMs: number };
  /** A reconnect succeeded. */
  reconnected: { tools: MCPTool[] };
  /**
   * The server's tool list differs from the one held. `added`: new names; `removed`: names gone (the old
   * instances); `changed`: same name, new definition (the new instances). Unchanged tools keep their identity.
   */
  toolsChanged: { tools: MCPTool[]; added: MCPTool[]; removed: MCPTool[]; changed: MCPTool[] };
  /** agentwire's own diagnostics about this connection (e.g. a server sending unadvertised notifications). */
  log: MCPClientLogEntry;
  /** A `notifications/message` log entry from the server (see `logLevel` / `setLoggingLevel()`). */
  serverLog: ServerLogMessage & { server: string };
  /** `notifications/resources/updated` for a URI subscribed with `subscribeResource()`. */
  resourceUpdated: { uri: string };
  /** `notifications/resources/list_changed`: call `listResources()` again. */
  resourcesChanged: Record<string, never>;
  /** `notifications/prompts/list_changed`: call `listPrompts()` again. */
  promptsChanged: Record<string, never>;
  /** Out-of-band transport or background errors. Emitted only when a listener is attached. */
  error: Error;
}

type Listener<T> = (payload: T) => void;

/** An EventEmitter whose `on`/`off`/`once` know each event's payload type. */
export class TypedEmitter<Events extends object> {
  readonly #emitter = new EventEmitter();

  constructor() {
    // Many agents may follow one client; the default of 10 would print MaxListenersExceeded warnings.
    this.#emitter.setMaxListeners(0);
  }

  on<E extends keyof Events & string>(event: E, listener: Listener<Events[E]>): this {
    this.#emitter.on(event, listener);
    return this;
  }

  once<E extends keyof Events & string>(event: E, listener: Listener<Events[E]>): this {
    this.#emitter.once(event, listener);
    return this;
  }

  off<E extends keyof Events & string>(event: E, listener: Listener<Events[E]>): this {
    this.#emitter.off(event, listener);
    return this;
  }

  /** How many listeners `event` has. */
  listenerCount<E extends keyof Events & string>(event: E): number {
    return this.#emitter.listenerCount(event);
  }

  /**
   * Emits `event`. A listener that throws does not break the emitter's owner: the exception is reported on
   * `error` (when listened to) and otherwise dropped. `error` itself is only emitted when listened to.
   */
  protected emit<E extends keyof Events & string>(event: E, payload: Events[E]): void {
    if (event === 'error' && this.#emitter.listenerCount('error') === 0) return;
    for (const listener of this.#emitter.rawListeners(event) as Listener<Events[E]>[]) {
      try {
        listener.call(this, payload);
        // rawListeners returns once-wrappers that remove themselves when called.
      } catch (error) {
        if (event !== 'error' && this.#emitter.listenerCount('error') > 0) {
          this.#emitter.emit('error', error instanceof Error ? error : new Error(String(error)));
        }
      }
    }
  }
}
