/**
 * The SDK's `auth()` writes warnings to the console (`[mcp-sdk] Could not refresh OAuth tokens … Cause:
 * "…"`), quoting what an authorization server answered, which may echo the refresh token or the client's
 * Basic credentials. While an `auth()` of ours runs, console lines that start with the SDK's `[mcp-sdk]`
 * prefix are still written, to the same console method, but with every secret of every running
 * authorization redacted; everything else passes through untouched.
 */
import type { Redactor } from '../../protocol/redact.js';

/** The prefix of the SDK's console warnings (`@modelcontextprotocol/client`, auth and client modules). */
const SDK_PREFIX = '[mcp-sdk]';

const METHODS = ['log', 'info', 'warn', 'error', 'debug'] as const;
type ConsoleMethod = (typeof METHODS)[number];
type Writer = (...args: unknown[]) => void;

/** The redactors of the authorizations in progress (one per running `auth()`). */
const active = new Map<symbol, Redactor>();
/** The console methods replaced while {@link active} is not empty: ours, and the ones they replaced. */
let installed: { method: ConsoleMethod; ours: Writer; original: Writer }[] = [];

function redactAll(text: string): string {
  let out = text;
  for (const redact of active.values()) out = redact(out);
  return out;
}

function install(): void {
  installed = METHODS.map((method) => {
    const original = console[method] as Writer;
    const ours: Writer = (...args) => {
      const sdk = typeof args[0] === 'string' && args[0].startsWith(SDK_PREFIX);
      original.apply(
        console,
        sdk ? args.map((arg) => (typeof arg === 'string' ? redactAll(arg) : arg)) : args,
      );
    };
    console[method] = ours;
    return { method, ours, original };
  });
}

function uninstall(): void {
  // A method someone replaced after us (a test spy, a logger) stays theirs; ours underneath just passes on.
  for (const { method, ours, original } of installed)
    if (console[method] === ours) console[method] = original;
  installed = [];
}

/** Runs `task` (an `auth()` call) with the SDK's console lines redacted by `redact`. */
export async function withRedactedSdkConsole<T>(redact: Redactor, task: () => Promise<T>): Promise<T> {
  const key = Symbol('auth');
  if (active.size === 0) install();
  active.set(key, redact);
  try {
    return await task();
  } finally {
    active.delete(key);
    if (active.size === 0) uninstall();
  }
}
