/**
 * W3C trace context in a request's `_meta` (MCP spec 2026-07-28, "Basic > `_meta` > OpenTelemetry trace
 * context": the unprefixed keys `traceparent` and `tracestate`, in W3C Trace Context format; in 2025-11-25
 * they are ordinary unprefixed `_meta` keys, which the same spec page leaves to implementations).
 *
 * The span comes from `@opentelemetry/api`, an optional peer dependency loaded on the first request
 * (core/otel-api.ts): a host without OpenTelemetry sends every request unchanged. Inside an agentwire MCP
 * client span (core/telemetry.ts) the active span is that request's own span.
 */
import { traceApi } from '../../core/otel-api.js';

export { setTraceApiLoader, type TraceApi, type TraceApiLoader } from '../../core/otel-api.js';

/**
 * `traceparent` (and `tracestate` when the span carries one) of the active OpenTelemetry span; empty when
 * `@opentelemetry/api` is absent, nothing is active, or the active span context is invalid.
 */
export function activeTraceContext(): Record<string, string> {
  const api = traceApi();
  if (api === undefined) return {};
  const span = api.trace.getSpanContext(api.context.active() as never);
  if (span === undefined || !api.isSpanContextValid(span)) return {};
  const flags = (span.traceFlags & 0xff).toString(16).padStart(2, '0');
  const out: Record<string, string> = { traceparent: `00-${span.traceId}-${span.spanId}-${flags}` };
  const state = span.traceState?.serialize();
  if (state) out.tracestate = state;
  return out;
}
