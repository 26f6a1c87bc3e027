/**
 * One `connect()` attempt, shared by every caller that asks for a connection while it runs, and what a
 * caller's `AbortSignal` does to it.
 *
 * The rule, chosen so that no attempt outlives everyone who wanted it (a stdio server started for nobody)
 * and no caller is stopped by another's signal:
 * - a caller without a signal waits until the attempt ends; while one waits, the attempt always runs on;
 * - a caller whose signal fires stops waiting at once (its promise rejects with `MCPCallError` kind
 *   `aborted`, `cause` the signal's reason), and the attempt runs on for the others;
 * - when the last caller has left that way, the attempt is aborted: it closes what it opened (the stdio
 *   server's process tree, the HTTP requests in flight), and only then does that last caller's promise
 *   reject, so nothing of the attempt is left when it does;
 * - once the outcome is decided (the session is the client's), a signal changes nothing.
 */
import type { RunContext } from '../../core/tool.js';
import type { MCPCallError } from '../protocol/errors.js';
import { toCallError } from '../session/error-mapping.js';

/** Options of `MCPClient.connect()`. */
export interface MCPConnectOptions {
  /**
   * Stops waiting for the connection: the call rejects with `MCPCallError` kind `aborted` whose `cause` is
   * the signal's reason, and the attempt is aborted when no other caller waits for it (see
   * `MCPClient.connect`). An already-aborted signal rejects at once, starting nothing. Default: wait until
   * the attempt ends.
   */
  signal?: AbortSignal | undefined;
  /**
   * Whom the connect is made for (a tenant): the `headers` function and a token supplier see it in
   * `MCPRequestContext.run` for the connect's requests (`server/discover`, `initialize`, `tools/list`, …),
   * for what the connection sends on its own later (the GET stream, a `list_changed` refresh), and for each
   * reconnect. A caller that joins an attempt under way shares that attempt's context. Default: none.
   */
  context?: RunContext | undefined;
}

/** A connect attempt in flight (see the file header). */
export class ConnectAttempt {
  /** Settles when the attempt has ended and closed what it opened, if it failed. */
  readonly promise: Promise<void>;
  readonly #abort = new AbortController();
  /** A caller waits without a signal: it can never leave, so the attempt is never abandoned. */
  #pinned = false;
  /** Callers waiting with a signal that has not fired. */
  #waiting = 0;
  #abandoned = false;
  #decided = false;

  /**
   * Starts `run`, which connects, watching `signal`, and calls `decide()` at the moment the outcome is
   * settled (the new session is the client's). `ended` runs once the attempt has settled.
   */
  constructor(run: (signal: AbortSignal, decide: () => void) => Promise<void>, ended: () => void) {
    this.promise = run(this.#abort.signal, () => {
      this.#decided = true;
    }).finally(() => {
      this.#decided = true;
      ended();
    });
    // Every caller may have left: the attempt's own failure is then nobody's to handle.
    this.promise.catch(() => {});
  }

  /** Every caller left (their signals fired): the attempt is being wound down. */
  get abandoned(): boolean {
    return this.#abandoned;
  }

  /** Aborts the attempt for `disconnect()`, whoever waits. */
  cancel(): void {
    this.#abort.abort();
  }

  /**
   * A caller's wait for the attempt. Without `signal`, the attempt's own promise (the same one for every
   * such caller); with one, a promise of this caller's own that rejects with {@link connectAborted} for
   * `server` when the signal fires first.
   */
  join(signal: AbortSignal | undefined, server: string): Promise<void> {
    if (!signal) {
      this.#pinned = true;
      return this.promise;
    }
    this.#waiting += 1;
    let counted = true;
    const stopCounting = () => {
      if (counted) this.#waiting -= 1;
      counted = false;
    };
    return untilAborted(
      this.promise,
      signal,
      () => connectAborted(server, signal),
      () => {
        if (this.#decided) return 'stay';
        stopCounting();
        if (this.#pinned || this.#waiting > 0) return 'leave';
        this.#abandoned = true;
        this.#abort.abort(signal.reason);
        return 'leave after';
      },
    ).finally(stopCounting);
  }
}

/**
 * What a caller does when its signal fires: nothing (the outcome is decided), leave now, or leave once
 * `pending` has settled.
 */
type OnAbort = () => 'stay' | 'leave' | 'leave after';

/**
 * `pending`, unless `signal` fires first: then a rejection with `aborted()`, at once or (`leave after`)
 * once `pending` has settled. `decide` decides, when the signal fires; by default the caller leaves.
 */
export function untilAborted(
  pending: Promise<void>,
  signal: AbortSignal,
  aborted: () => MCPCallError,
  decide: OnAbort = () => 'leave',
): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    let left = false;
    const abort = () => {
      const choice = decide();
      if (choice === 'stay') return;
      left = true;
      const error = aborted();
      if (choice === 'leave') reject(error);
      else void pending.catch(() => {}).then(() => reject(error));
    };
    const stopWatching = onAbort(signal, abort);
    pending.then(
      () => {
        if (left) return;
        stopWatching();
        resolve();
      },
      (error: unknown) => {
        if (left) return;
        stopWatching();
        reject(error);
      },
    );
  });
}

/** The callbacks waiting on each signal, behind the one `abort` listener this module adds to it. */
const watchers = new WeakMap<AbortSignal, Set<() => void>>();

/**
 * Runs `callback` once when `signal` fires, until the returned function is called. However many waits
 * share one signal (`MCPServers.connectAll` hands its signal to every server's `connect()`), the signal
 * gets one listener from here: one each would pass Node's limit of 10 per event target at the eleventh
 * server and print a `MaxListenersExceededWarning` for what is no leak.
 */
function onAbort(signal: AbortSignal, callback: () => void): () => void {
  let callbacks = watchers.get(signal);
  if (callbacks === undefined) {
    const created = new Set<() => void>();
    callbacks = created;
    watchers.set(signal, created);
    signal.addEventListener(
      'abort',
      () => {
        watchers.delete(signal);
        for (const one of [...created]) one();
      },
      { once: true },
    );
  }
  const set = callbacks;
  set.add(callback);
  return () => {
    set.delete(callback);
  };
}

/** The error of a `connect()` whose caller's `signal` fired: kind `aborted`, `cause` the signal's reason. */
export function connectAborted(server: string, signal: AbortSignal): MCPCallError {
  return toCallError(signal.reason, { server, method: 'connect', signal });
}
