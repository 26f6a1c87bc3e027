/**
 * OpenTelemetry spans through `@opentelemetry/api` (an optional peer, core/otel-api.ts), with the tracer
 * `agentwire` of the host's global tracer provider. Without the API nothing is loaded beyond one failed
 * resolution and the work runs as it is; with the API but no registered provider the API's no-op tracer
 * answers, and a non-recording span that carries its parent's context is not even made active.
 *
 * Which spans and attributes: the OpenTelemetry GenAI semantic conventions
 * (https://opentelemetry.io/docs/specs/semconv/gen-ai/gen-ai-spans/ and gen-ai-agent-spans/) in agent/,
 * and the MCP semantic conventions (https://opentelemetry.io/docs/specs/semconv/gen-ai/mcp/) in mcp/ (client
 * spans) and gateway/ (server spans).
 */
import {
  type SpanAttributeValue,
  type SpanContextLike,
  type SpanLike,
  type TraceApi,
  traceApi,
} from './otel-api.js';
import { VERSION } from './version.js';

/** `SpanKind` of the OpenTelemetry API. */
const KIND = { internal: 0, server: 1, client: 2 } as const;
/** `SpanStatusCode.ERROR` of the OpenTelemetry API. */
const STATUS_ERROR = 2;

/** Attributes of a span; `undefined` values are left out. */
export type SpanAttributes = Readonly<Record<string, SpanAttributeValue | undefined>>;

/** What a span is: its name, kind and first attributes. */
export interface SpanSpec {
  name: string;
  kind: keyof typeof KIND;
  attributes: SpanAttributes;
  /** The parent's context (an OpenTelemetry `Context`); default the active one. */
  parent?: unknown;
  /** Span contexts the span links to (semantic conventions: a transport's context beside the parent). */
  links?: readonly SpanContextLike[];
}

/** The span of a piece of work, as the work sees it; every method is a no-op when nothing records. */
export interface SpanRecorder {
  /** Sets `key`; `undefined` leaves it out. */
  set(key: string, value: SpanAttributeValue | undefined): void;
  /**
   * Marks the span failed: `error.type` and an `ERROR` status with `description` (semantic conventions,
   * "Recording errors"). The first call wins.
   */
  fail(errorType: string, description?: string): void;
}

const NOTHING: SpanRecorder = { set() {}, fail() {} };

class Recorder implements SpanRecorder {
  failed = false;
  constructor(readonly span: SpanLike) {}
  set(key: string, value: SpanAttributeValue | undefined): void {
    if (value !== undefined) this.span.setAttribute(key, value);
  }
  fail(errorType: string, description?: string): void {
    if (this.failed) return;
    this.failed = true;
    this.span.setAttribute('error.type', errorType);
    this.span.setStatus(
      description === undefined ? { code: STATUS_ERROR } : { code: STATUS_ERROR, message: description },
    );
  }
}

/** Whether `@opentelemetry/api` is installed (loaded on the first call): callers skip building spans without it. */
export function tracingAvailable(): boolean {
  return traceApi() !== undefined;
}

/**
 * Whether a tracer provider is registered, so that spans may record (false without `@opentelemetry/api`):
 * for paths that skip the span machinery entirely when nothing would be recorded. The API's global is a
 * proxy (`ProxyTracerProvider`) whose `getDelegateTracer` gives nothing until a provider is set; a
 * provider that is not such a proxy counts as registered.
 */
export function tracerProviderRegistered(): boolean {
  const api = traceApi();
  if (api === undefined) return false;
  const provider = api.trace.getTracerProvider();
  return (
    typeof provider.getDelegateTracer !== 'function' ||
    provider.getDelegateTracer('agentwire', VERSION) !== undefined
  );
}

/** The recorders of the recording spans agentwire started, by span (for {@link activeSpan}). */
const recorders = new WeakMap<SpanLike, SpanRecorder>();

/**
 * The recorder of the active span when it is one agentwire started and it records; else `undefined`
 * (also without `@opentelemetry/api`).
 */
export function activeSpan(): SpanRecorder | undefined {
  const api = traceApi();
  if (api === undefined) return undefined;
  const span = api.trace.getSpan(api.context.active() as never);
  return span === undefined ? undefined : recorders.get(span);
}

function defined(attributes: SpanAttributes): Record<string, SpanAttributeValue> {
  const out: Record<string, SpanAttributeValue> = {};
  for (const [key, value] of Object.entries(attributes)) if (value !== undefined) out[key] = value;
  return out;
}

/** How a failure reads on a span: `error.type` and the status description. */
export type DescribeFailure = (error: unknown) => { type: string; description?: string };

/** `error.type` of an exception: its class name (semantic conventions, "Recording errors"). */
export const describeByName: DescribeFailure = (error) =>
  error instanceof Error
    ? { type: error.name || error.constructor.name, description: error.message }
    : { type: '_OTHER' };

/**
 * Runs `work` inside a span that is active for everything it starts (so child spans nest and
 * `traceparent` names it), ends the span when `work` settles, and records a rejection as `describe` says.
 * `spec` `undefined` runs `work` without a span. Never throws on its own: `work`'s result and error pass
 * through unchanged.
 */
export function withSpan<T>(
  spec: SpanSpec | undefined,
  work: (span: SpanRecorder) => Promise<T>,
  describe: DescribeFailure = describeByName,
): Promise<T> {
  const api = spec === undefined ? undefined : traceApi();
  if (api === undefined || spec === undefined) return work(NOTHING);
  const parent = spec.parent ?? api.context.active();
  const options = { kind: KIND[spec.kind], attributes: defined(spec.attributes) };
  const links = spec.links?.map((context) => ({ context }));
  // Asked for each span, not kept: a host may replace its global provider (the SDK caches tracers).
  const span = api.trace
    .getTracer('agentwire', VERSION)
    .startSpan(spec.name, links?.length ? { ...options, links } : options, parent);
  const recording = span.isRecording();
  const recorder = recording ? new Recorder(span) : undefined;
  if (recorder) recorders.set(span, recorder);
  const run = async (): Promise<T> => {
    try {
      return await work(recorder ?? NOTHING);
    } catch (error) {
      if (recorder) {
        const { type, description } = describe(error);
        recorder.fail(type, description);
      }
      throw error;
    } finally {
      span.end();
    }
  };
  // The no-op tracer's span carries its parent's context: making it active would change nothing.
  if (!recording && sameSpan(api, parent, span)) return run();
  return api.context.with(api.trace.setSpan(parent as never, span as never), run);
}

function sameSpan(api: TraceApi, parent: unknown, span: SpanLike): boolean {
  const before = api.trace.getSpanContext(parent as never);
  const now = span.spanContext();
  if (before === undefined) return !api.isSpanContextValid(now);
  return before.spanId === now.spanId && before.traceId === now.traceId;
}
