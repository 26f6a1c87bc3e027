/**
 * The scope of one client request (a `tools/call`, a `connect()`, a list): whom it is made for, and the
 * headers its hooks or its caller set, carried from the client's entry point to the HTTP transport's header
 * building through an `AsyncLocalStorage`. The layers in between (the session, the SDK's protocol layer,
 * the wire) pass messages, not contexts, and the connect's requests (`server/discover`, `initialize`) are
 * made by the SDK; the scope reaches them all without a parameter through each. A request made outside any
 * scope (a `list_changed` refresh started by the server) carries the scope its trigger ran in, which for
 * what the connection does on its own is the connect's. Entered only when the client has something to carry
 * (hooks, a `headers` function, a token supplier, a context or headers for the call): otherwise no scope is
 * entered and nothing is allocated.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import type { RunContext } from '../../../core/tool.js';

/** One client request's scope. */
export interface RequestScope {
  /** The host's context of the run or call (see `MCPRequestContext.run`). */
  readonly run: RunContext | undefined;
  /** The tool's name, for a `tools/call`. */
  readonly toolName?: string | undefined;
  /** Headers for this request's HTTP exchanges (the call's `headers`, as `beforeRequest` hooks left them). */
  readonly headers?: Readonly<Record<string, string>> | undefined;
}

const storage = new AsyncLocalStorage<RequestScope>();

/** Runs `work` in `scope`: what it sends (and what that starts) sees the scope. */
export function inScope<T>(scope: RequestScope, work: () => T): T {
  return storage.run(scope, work);
}

/** The scope of the request being sent, if it is made in one. */
export function currentScope(): RequestScope | undefined {
  return storage.getStore();
}
