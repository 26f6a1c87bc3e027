/**
 * Redacted copies of what an error carries: its message and fields, JSON-RPC `data` (every string inside),
 * and every error of its `cause` chain (the transport's own error, the SDK's `ProtocolError`, a Node
 * `TypeError` quoting a URL). A host that logs an error with its cause (pino, Sentry, `util.inspect`) sees
 * only copies, made with the same prototype, name, code and fields, their strings redacted (redact.ts).
 */
import { MCPCallError } from './errors.js';
import type { Redactor } from './redact.js';

export type { Redactor } from './redact.js';

/** How deep data and cause chains are walked; deeper values are replaced, never kept unredacted. */
const MAX_DEPTH = 32;

/** Stands in for a value nested deeper than {@link MAX_DEPTH}. */
const TOO_DEEP = '[nested too deep]';

/**
 * One walk: `dirty` remembers which objects hold a secret somewhere inside (computed once each), `copies`
 * the copy made of each, registered before its fields are filled so that a cycle points at the copy.
 */
interface Walk {
  redact: Redactor;
  dirty: Map<object, boolean>;
  copies: Map<object, unknown>;
}

/**
 * `value` with every string inside redacted: strings, arrays, plain objects, errors (see
 * {@link redactError}), and URLs (as their redacted text when redaction changes them). Returns `value`
 * itself when nothing in it changed, so an error without secrets keeps its exact cause.
 */
export function redactValue(value: unknown, redact: Redactor): unknown {
  return copy(value, { redact, dirty: new Map(), copies: new Map() }, 0);
}

/** Own properties as [key, value] (getters read once; one that throws reads as `undefined`). */
function properties(source: object): [key: string | symbol, value: unknown, enumerable: boolean][] {
  const out: [string | symbol, unknown, boolean][] = [];
  for (const key of Reflect.ownKeys(source)) {
    const descriptor = Object.getOwnPropertyDescriptor(source, key);
    if (descriptor === undefined) continue;
    let value: unknown = descriptor.value;
    if (!('value' in descriptor)) {
      // A getter (V8's `stack` on some Node versions) may compute a secret from hidden state: a copy holds
      // its redacted value instead.
      try {
        value = descriptor.get?.call(source);
      } catch {
        value = undefined;
      }
    }
    out.push([key, value, descriptor.enumerable ?? false]);
  }
  return out;
}

/** Whether an error's `message` is a prototype getter over internal state (`DOMException`). */
function inheritedMessage(error: Error): boolean {
  return !Object.hasOwn(error, 'message') && 'message' in error;
}

/** Whether redaction changes anything inside `value`. */
function isDirty(value: unknown, walk: Walk, depth: number): boolean {
  if (typeof value === 'string') return walk.redact(value) !== value;
  if (typeof value !== 'object' || value === null) return false;
  if (depth > MAX_DEPTH) return true;
  const known = walk.dirty.get(value);
  if (known !== undefined) return known;
  // A cycle adds no string of its own: while `value` is being looked at, a way back to it counts as clean.
  walk.dirty.set(value, false);
  let dirty: boolean;
  if (value instanceof URL) dirty = isDirty(value.href, walk, depth);
  else if (Array.isArray(value)) dirty = value.some((item) => isDirty(item, walk, depth + 1));
  else {
    dirty = properties(value).some(([, property]) => isDirty(property, walk, depth + 1));
    if (!dirty && value instanceof Error && inheritedMessage(value)) {
      dirty = isDirty(String(value.message), walk, depth) || isDirty(value.stack, walk, depth);
    }
  }
  walk.dirty.set(value, dirty);
  return dirty;
}

function copy(value: unknown, walk: Walk, depth: number): unknown {
  if (typeof value === 'string') return walk.redact(value);
  if (typeof value !== 'object' || value === null) return value;
  if (depth > MAX_DEPTH) return TOO_DEEP;
  if (walk.copies.has(value)) return walk.copies.get(value);
  if (!isDirty(value, walk, depth)) return value;
  if (value instanceof URL) return walk.redact(value.href);
  if (Array.isArray(value)) {
    const out: unknown[] = [];
    walk.copies.set(value, out);
    for (const item of value) out.push(copy(item, walk, depth + 1));
    return out;
  }
  // Maps, Headers, Buffers and the like keep their content in internal slots a copy cannot have: their
  // own properties are all there is to redact; anything else is a record of fields, copied with its
  // prototype (so `instanceof` still holds). An error whose `message` is a prototype getter over internal
  // state becomes a plain `Error` of the same name, code and message, since a copy could not read them.
  const shell =
    value instanceof Error && inheritedMessage(value)
      ? errorShell(value, walk)
      : Object.create(Object.getPrototypeOf(value) as object | null);
  walk.copies.set(value, shell);
  for (const [key, property, enumerable] of properties(value)) {
    Object.defineProperty(shell, key, {
      value: copy(property, walk, depth + 1),
      writable: true,
      enumerable,
      configurable: true,
    });
  }
  return shell;
}

function errorShell(error: Error, walk: Walk): Error {
  const shell = new Error(walk.redact(String(error.message)));
  const fields: Record<string, unknown> = { name: error.name, code: (error as { code?: unknown }).code };
  if (error.stack !== undefined) fields.stack = walk.redact(error.stack);
  for (const [key, value] of Object.entries(fields)) {
    if (value !== undefined) Object.defineProperty(shell, key, { value, writable: true, configurable: true });
  }
  return shell;
}

/**
 * `error` with every secret `redact` knows removed: an {@link MCPCallError} stays one, its reason, body,
 * `serverMessage`, `data`, `stderrTail` and `cause` chain redacted and its message rebuilt from them; any other error becomes
 * a redacted copy (see {@link redactValue}). Returns `error` itself when nothing changed.
 */
export function redactError(error: Error, redact: Redactor | undefined): Error {
  if (redact === undefined) return error;
  if (error instanceof MCPCallError) return redactCallError(error, redact);
  return redactValue(error, redact) as Error;
}

/** {@link redactError} for an {@link MCPCallError}: the same error, or a redacted one built with `with()`. */
export function redactCallError(error: MCPCallError, redact: Redactor | undefined): MCPCallError {
  if (redact === undefined) return error;
  const walk: Walk = { redact, dirty: new Map(), copies: new Map([[error, error]]) };
  const reason = redact(error.reason);
  const body = error.body === undefined ? undefined : redact(error.body);
  const serverMessage = error.serverMessage === undefined ? undefined : redact(error.serverMessage);
  const data = copy(error.data, walk, 1);
  const stderrTail = copy(error.stderrTail, walk, 1) as readonly string[] | undefined;
  const cause = copy(error.cause, walk, 1);
  if (
    reason === error.reason &&
    body === error.body &&
    serverMessage === error.serverMessage &&
    data === error.data &&
    stderrTail === error.stderrTail &&
    cause === error.cause
  ) {
    return error;
  }
  return error.with({ reason, body, serverMessage, data, stderrTail, cause });
}
