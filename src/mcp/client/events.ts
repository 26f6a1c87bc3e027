/**
 * `MCPClient`'s typed events: connection state and reconnection, tool list changes
 * (`notifications/tools/list_changed`), server log messages (`notifications/message`). `error` is emitted
 * only when someone listens, so a background failure can never crash the host process through Node's
 * "unhandled 'error' event" rule.
 */
import { EventEmitter } from 'node:events';
import type { MCPTool } from '../adapter/mcp-tool.js';
import type { MCPCallError } from '../protocol/errors.js';
import type { MCPTask } from '../protocol/tasks.js';
import type { ServerLogMessage } from '../protocol/types.js';

/** Event names, for those who prefer constants (`mcp.on(MCPClientEvent.DISCONNECTED, …)`). */
export const MCPClientEvent = {
  CONNECTED: 'connected',
  CONNECT_FAILED: 'connectFailed',
  DISCONNECTED: 'disconnected',
  RECONNECTING: 'reconnecting',
  RECONNECTED: 'reconnected',
  TOOLS_CHANGED: 'toolsChanged',
  LOG: 'log',
  SERVER_LOG: 'serverLog',
  RESOURCE_UPDATED: 'resourceUpdated',
  RESOURCES_CHANGED: 'resourcesChanged',
  PROMPTS_CHANGED: 'promptsChanged',
  TASK_STATUS: 'taskStatus',
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
   * A connect (or reconnect) attempt failed: emitted the moment it does (a connect timeout, a refused
   * handshake or tool list), before what it opened is closed, which for a stdio server that ignores SIGTERM
   * takes seconds; `connect()` rejects with the same `error` once it is. Not emitted for an attempt stopped
   * by `disconnect()` or by its callers' signals, nor for a Streamable HTTP refusal that falls back to the
   * HTTP+SSE transport.
   */
  connectFailed: { error: MCPCallError };
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
  /** A task-backed tool call's task reported a status (its first included): MCP spec 2025-11-25, "Tasks". */
  taskStatus: { toolName: string; task: MCPTask };
  /** Out-of-band transport or background errors. Emitted only when a listener is attached. */
  error: Error;
}

type Listener<T> = (payload: T) => void;
// Node's listener type; the typed overloads below narrow it per event.
type AnyListener = (...args: unknown[]) => void;

/**
 * A Node `EventEmitter` whose `on`/`off`/`once`/`emit` know each event's payload type. `emit('error', …)`
 * with no listener is a no-op instead of a throw, and a listener that throws is reported on `error` (when
 * listened to) rather than breaking the emitter's owner.
 */
export class TypedEmitter<Events extends object> extends EventEmitter {
  constructor() {
    super();
    // Many agents may follow one client; the default of 10 would print MaxListenersExceeded warnings.
    this.setMaxListeners(0);
  }

  override on<E extends keyof Events & string>(event: E, listener: Listener<Events[E]>): this {
    return super.on(event, listener as AnyListener);
  }

  override once<E extends keyof Events & string>(event: E, listener: Listener<Events[E]>): this {
    return super.once(event, listener as AnyListener);
  }

  override off<E extends keyof Events & string>(event: E, listener: Listener<Events[E]>): this {
    return super.off(event, listener as AnyListener);
  }

  override addListener<E extends keyof Events & string>(event: E, listener: Listener<Events[E]>): this {
    return super.addListener(event, listener as AnyListener);
  }

  override removeListener<E extends keyof Events & string>(event: E, listener: Listener<Events[E]>): this {
    return super.removeListener(event, listener as AnyListener);
  }

  /** Emits `event`; returns whether anyone listened. Never throws, whatever the listeners do. */
  override emit<E extends keyof Events & string>(event: E, payload: Events[E]): boolean {
    if (event === 'error' && this.listenerCount('error') === 0) return false;
    const listeners = this.rawListeners(event) as Listener<Events[E]>[];
    for (const listener of listeners) {
      try {
        // rawListeners returns once-wrappers that remove themselves when called.
        listener.call(this, payload);
      } catch (error) {
        if (event !== 'error' && this.listenerCount('error') > 0) {
          super.emit('error', error instanceof Error ? error : new Error(String(error)));
        }
      }
    }
    return listeners.length > 0;
  }
}
