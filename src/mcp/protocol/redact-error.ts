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

/** Originals already copied (shared values, cycles), per walk. */
type Seen = Map<object, unknown>;

/**
 * `value` with every string inside redacted: strings, arrays, plain objects, errors (see
 * {@link redactError}), and URLs (as their redacted text when redaction changes them). Returns `value`
 * itself when nothing in it changed, so an error without secrets keeps its exact cause.
 */
export function redactValue(value: unknown, redact: Redactor): unknown {
  return walk(value, redact, new Map(), 0);
}

function walk(value: unknown, redact: Redactor, seen: Seen, depth: number): unknown {
  if (typeof value === 'string') return redact(value);
  if (typeof value !== 'object' || value === null) return value;
  if (seen.has(value)) return seen.get(value);
  if (depth > MAX_DEPTH) return TOO_DEEP;
  // A cycle back to a value being copied keeps the original until its copy exists: its strings are
  // redacted by that copy.
  seen.set(value, value);
  let result: unknown;
  if (value instanceof Error) result = copyError(value, redact, seen, depth);
  else if (Array.isArray(value)) result = copyArray(value, redact, seen, depth);
  else if (value instanceof URL) {
    const text = redact(value.href);
    result = text === value.href ? value : text;
  } else result = copyObject(value, redact, seen, depth);
  seen.set(value, result);
  return result;
}

function copyArray(array: readonly unknown[], redact: Redactor, seen: Seen, depth: number): unknown {
  let changed = false;
  const out = array.map((item) => {
    const next = walk(item, redact, seen, depth + 1);
    if (next !== item) changed = true;
    return next;
  });
  return changed ? out : array;
}

/** Own properties (enumerable or not, getters read once) with their values redacted. */
function copyProperties(
  source: object,
  redact: Redactor,
  seen: Seen,
  depth: number,
): { changed: boolean; descriptors: PropertyDescriptorMap } {
  let changed = false;
  const descriptors: PropertyDescriptorMap = {};
  for (const key of Reflect.ownKeys(source)) {
    const descriptor = Object.getOwnPropertyDescriptor(source, key);
    if (descriptor === undefined) continue;
    let original: unknown;
    if ('value' in descriptor) original = descriptor.value;
    else {
      // A getter may compute a secret from hidden state: the copy holds its redacted value instead.
      changed = true;
      try {
        original = descriptor.get?.call(source);
      } catch {
        original = undefined;
      }
    }
    const value = walk(original, redact, seen, depth + 1);
    if (value !== original) changed = true;
    descriptors[key] = {
      value,
      writable: descriptor.writable ?? true,
      enumerable: descriptor.enumerable ?? false,
      configurable: true,
    };
  }
  return { changed, descriptors };
}

function copyObject(source: object, redact: Redactor, seen: Seen, depth: number): unknown {
  const prototype = Object.getPrototypeOf(source) as object | null;
  // Maps, Headers, Buffers and the like keep their content in internal slots a copy cannot have: their
  // own properties are all there is to redact; anything else is a record of fields.
  const { changed, descriptors } = copyProperties(source, redact, seen, depth);
  return changed ? Object.create(prototype, descriptors) : source;
}

/**
 * A redacted copy of a foreign error: same prototype (so `instanceof` still holds), every own field and
 * the `stack` redacted, the `cause` chain copied the same way. An error whose `message` or `name` is a
 * prototype getter over internal state (`DOMException`) becomes a plain `Error` with the same name, code
 * and message, since a copy of its prototype could not read them.
 */
function copyError(error: Error, redact: Redactor, seen: Seen, depth: number): Error {
  const { changed, descriptors } = copyProperties(error, redact, seen, depth);
  const ownMessage = Object.hasOwn(error, 'message') || !('message' in error);
  if (ownMessage) {
    if (!changed) return error;
    return Object.create(Object.getPrototypeOf(error) as object, descriptors) as Error;
  }
  const message = redact(String(error.message));
  const stack = error.stack === undefined ? undefined : redact(error.stack);
  if (!changed && message === error.message && stack === error.stack) return error;
  const copy = new Error(message);
  Object.defineProperties(copy, descriptors);
  Object.defineProperty(copy, 'name', { value: error.name, writable: true, configurable: true });
  if (stack !== undefined) copy.stack = stack;
  const code: unknown = (error as { code?: unknown }).code;
  if (code !== undefined && !Object.hasOwn(copy, 'code')) {
    Object.defineProperty(copy, 'code', { value: code, writable: true, configurable: true });
  }
  return copy;
}

/**
 * `error` with every secret `redact` knows removed: an {@link MCPCallError} stays one, its reason, body,
 * `data`, `stderrTail` and `cause` chain redacted and its message rebuilt from them; any other error becomes
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
  const seen: Seen = new Map([[error, error]]);
  const reason = redact(error.reason);
  const body = error.body === undefined ? undefined : redact(error.body);
  const data = walk(error.data, redact, seen, 1);
  const stderrTail = walk(error.stderrTail, redact, seen, 1) as readonly string[] | undefined;
  const cause = walk(error.cause, redact, seen, 1);
  if (
    reason === error.reason &&
    body === error.body &&
    data === error.data &&
    stderrTail === error.stderrTail &&
    cause === error.cause
  ) {
    return error;
  }
  return error.with({ reason, body, data, stderrTail, cause });
}
