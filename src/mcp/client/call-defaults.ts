/**
 * The client's default call options (`MCPClientOptions.callOptions`, `setCallOptions`) and what a call's own
 * options make of them: resolved per call, except for the plain call (no defaults, no options of its own),
 * whose options are the same every time and are resolved once per tool, so that the hot path allocates
 * nothing for them.
 */
import {
  DEFAULT_CALL_TIMEOUT_MS,
  type MCPCallOptionsSource,
  type MCPToolCallOptions,
  type ResolvedCallOptions,
  resolveCallOptions,
} from '../session/call-options.js';
import type { MCPClientEvents, TypedEmitter } from './events.js';
import { withTaskEvents } from './task-calls.js';

/** How many tools' plain call options are kept: names come from the caller, and must not grow the map without end. */
const PLAIN_KEPT = 1024;

/** See the file header. */
export class CallDefaults {
  #source: MCPCallOptionsSource | undefined;
  readonly #events: Pick<TypedEmitter<MCPClientEvents>, 'emit'>;
  readonly #plain = new Map<string, ResolvedCallOptions>();

  /** @param events - where a task-backed call's `taskStatus` events go. */
  constructor(source: MCPCallOptionsSource | undefined, events: Pick<TypedEmitter<MCPClientEvents>, 'emit'>) {
    this.#source = source;
    this.#events = events;
  }

  /** Replaces the defaults (`undefined`: none). */
  set source(source: MCPCallOptionsSource | undefined) {
    this.#source = source;
    this.#plain.clear();
  }

  /**
   * The options of a call of `name`: the defaults with `options` over them (call-options.ts), the timeout
   * made explicit (`DEFAULT_CALL_TIMEOUT_MS` when none is given), task statuses also emitted as events.
   * Treat the result as read-only: a plain call's is shared.
   */
  resolve(name: string, options: MCPToolCallOptions | undefined): ResolvedCallOptions {
    if (options !== undefined || this.#source !== undefined) return this.#resolve(name, options);
    let resolved = this.#plain.get(name);
    if (resolved === undefined) {
      resolved = this.#resolve(name, undefined);
      if (this.#plain.size < PLAIN_KEPT) this.#plain.set(name, resolved);
    }
    return resolved;
  }

  #resolve(name: string, options: MCPToolCallOptions | undefined): ResolvedCallOptions {
    const resolved = withTaskEvents(resolveCallOptions(this.#source, name, options), this.#events, name);
    resolved.timeoutMs ??= DEFAULT_CALL_TIMEOUT_MS;
    return resolved;
  }
}
