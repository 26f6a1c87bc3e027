/**
 * W3C trace context in a request's `_meta` (MCP spec 2026-07-28, "Basic > `_meta` > OpenTelemetry trace
 * context": the unprefixed keys `traceparent` and `tracestate`, in W3C Trace Context format; in 2025-11-25
 * they are ordinary unprefixed `_meta` keys, which the same spec page leaves to implementations).
 *
 * The span comes from `@opentelemetry/api`, an optional peer dependency: it is loaded on the first request,
 * synchronously, and never again when it is absent, so a host without OpenTelemetry pays one failed
 * resolution and sends every request unchanged.
 */
import { createRequire } from 'node:module';

/** The W3C Trace Context fields of an OpenTelemetry span context. */
interface SpanContextLike {
  traceId: string;
  spanId: string;
  traceFlags: number;
  traceState?: { serialize(): string } | undefined;
}

/** The part of `@opentelemetry/api` used here. */
export interface TraceApi {
  context: { active(): unknown };
  trace: { getSpanContext(context: never): SpanContextLike | undefined };
  isSpanContextValid(spanContext: SpanContextLike): boolean;
}

/** Loads `@opentelemetry/api`; `undefined` when it is not installed. */
export type TraceApiLoader = () => TraceApi | undefined;

const requireModule = createRequire(import.meta.url);

function loadInstalled(): TraceApi | undefined {
  try {
    return requireModule('@opentelemetry/api') as TraceApi;
  } catch {
    // Not installed: trace context is an opt-in of the host, never a failure.
    return undefined;
  }
}

let loader: TraceApiLoader = loadInstalled;
let loaded: { api: TraceApi | undefined } | undefined;

/**
 * Replaces how `@opentelemetry/api` is loaded (tests simulate its absence); `undefined` restores the default.
 * The next request loads again.
 */
export function setTraceApiLoader(replacement: TraceApiLoader | undefined): void {
  loader = replacement ?? loadInstalled;
  loaded = undefined;
}

/**
 * `traceparent` (and `tracestate` when the span carries one) of the active OpenTelemetry span; empty when
 * `@opentelemetry/api` is absent, nothing is active, or the active span context is invalid.
 */
export function activeTraceContext(): Record<string, string> {
  loaded ??= { api: loader() };
  const api = loaded.api;
  if (api === undefined) return {};
  const span = api.trace.getSpanContext(api.context.active() as never);
  if (span === undefined || !api.isSpanContextValid(span)) return {};
  const flags = (span.traceFlags & 0xff).toString(16).padStart(2, '0');
  const out: Record<string, string> = { traceparent: `00-${span.traceId}-${span.spanId}-${flags}` };
  const state = span.traceState?.serialize();
  if (state) out.tracestate = state;
  return out;
}
