/**
 * `@opentelemetry/api`, an optional peer dependency, loaded on first use: synchronously, once, and never
 * again when it is absent, so a host without OpenTelemetry pays one failed resolution and nothing more.
 * Only the part of the API agentwire uses is typed here, so that no type of the peer reaches a host that
 * does not install it.
 */
import { createRequire } from 'node:module';

/** The W3C Trace Context fields of an OpenTelemetry span context. */
export interface SpanContextLike {
  traceId: string;
  spanId: string;
  traceFlags: number;
  traceState?: { serialize(): string } | undefined;
}

/** An attribute value as the OpenTelemetry API takes it. */
export type SpanAttributeValue = string | number | boolean | readonly string[];

/** The part of an OpenTelemetry `Span` used here. */
export interface SpanLike {
  spanContext(): SpanContextLike;
  isRecording(): boolean;
  setAttribute(key: string, value: SpanAttributeValue): unknown;
  setStatus(status: { code: number; message?: string }): unknown;
  end(): void;
}

/** The part of an OpenTelemetry `Tracer` used here. */
export interface TracerLike {
  startSpan(
    name: string,
    options: {
      kind: number;
      attributes: Record<string, SpanAttributeValue>;
      links?: { context: SpanContextLike }[];
    },
    context: unknown,
  ): SpanLike;
}

/** The part of `@opentelemetry/api` used here. */
export interface TraceApi {
  context: {
    active(): unknown;
    with<T>(context: unknown, work: () => T): T;
  };
  trace: {
    getSpanContext(context: never): SpanContextLike | undefined;
    getTracer(name: string, version?: string): TracerLike;
    /** The global provider: in `@opentelemetry/api` 1.x a proxy with `getDelegateTracer` until one is set. */
    getTracerProvider(): { getDelegateTracer?: (name: string, version?: string) => unknown };
    setSpan(context: never, span: never): unknown;
    getSpan(context: never): SpanLike | undefined;
    setSpanContext(context: never, spanContext: never): unknown;
  };
  /** The host's configured propagators (the API's no-op one, with no `fields`, until one is set). */
  propagation: {
    extract(context: never, carrier: Readonly<Record<string, unknown>>): unknown;
    fields(): string[];
  };
  createTraceState(serialized?: string): { serialize(): string };
  isSpanContextValid(spanContext: SpanContextLike): boolean;
}

/** Loads `@opentelemetry/api`; `undefined` when it is not installed. */
export type TraceApiLoader = () => TraceApi | undefined;

const requireModule = createRequire(import.meta.url);

function loadInstalled(): TraceApi | undefined {
  try {
    return requireModule('@opentelemetry/api') as TraceApi;
  } catch {
    // Not installed: tracing is an opt-in of the host, never a failure.
    return undefined;
  }
}

let loader: TraceApiLoader = loadInstalled;
let loaded: { api: TraceApi | undefined } | undefined;

/**
 * Replaces how `@opentelemetry/api` is loaded (tests simulate its absence); `undefined` restores the default.
 * The next use loads again.
 */
export function setTraceApiLoader(replacement: TraceApiLoader | undefined): void {
  loader = replacement ?? loadInstalled;
  loaded = undefined;
}

/** `@opentelemetry/api`, loaded on the first call; `undefined` when it is not installed. */
export function traceApi(): TraceApi | undefined {
  loaded ??= { api: loader() };
  return loaded.api;
}
