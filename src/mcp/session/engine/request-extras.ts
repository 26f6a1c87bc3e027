/**
 * What a session sends beyond the bare request: our request options as the SDK's, the log level that the
 * 2026-07-28 era carries in every request's `_meta` instead of `logging/setLevel`, and W3C trace context.
 */
import { LOG_LEVEL_META_KEY, type RequestOptions as SdkRequestOptions } from '@modelcontextprotocol/client';
import type { LoggingLevel } from '../../protocol/types.js';
import type { RequestOptions } from '../request-options.js';
import { activeTraceContext } from '../trace-context.js';
import { progressOf } from '../wire/calls.js';

/**
 * Our request options as the SDK's, without `undefined` keys. A progress token is attached whenever progress can
 * matter: the SDK only asks for progress when `onprogress` is set, so `resetTimeoutOnProgress` alone would
 * never see a notification to reset on.
 */
export function sdkOptions(options: RequestOptions): SdkRequestOptions {
  const out: SdkRequestOptions = {};
  if (options.signal) out.signal = options.signal;
  if (options.timeoutMs !== undefined) out.timeout = options.timeoutMs;
  if (options.maxTotalTimeoutMs !== undefined) out.maxTotalTimeout = options.maxTotalTimeoutMs;
  if (options.resetTimeoutOnProgress) out.resetTimeoutOnProgress = true;
  const onprogress = options.onprogress;
  if (onprogress) out.onprogress = (p) => onprogress(progressOf(p));
  else if (options.resetTimeoutOnProgress) out.onprogress = () => {};
  return out;
}

/**
 * `params` as sent: with `io.modelcontextprotocol/logLevel` in `_meta` when `level` is set (MCP spec
 * 2026-07-28, changelog: the log level is set per request; servers send `notifications/message` only for
 * requests that carry it), and `traceparent` / `tracestate` when the caller runs inside an OpenTelemetry
 * span (trace-context.ts). These win over keys already in `_meta` (a caller's `_meta` on a tool call
 * keeps its own `traceparent` only where no span is active: call-meta.ts). Without either, `params` itself.
 */
export function outboundParams(
  params: Record<string, unknown>,
  level?: LoggingLevel,
): Record<string, unknown> {
  const trace = activeTraceContext();
  if (level === undefined && trace.traceparent === undefined) return params;
  const meta = typeof params._meta === 'object' && params._meta !== null ? params._meta : {};
  const levelMeta = level === undefined ? {} : { [LOG_LEVEL_META_KEY]: level };
  return { ...params, _meta: { ...meta, ...levelMeta, ...trace } };
}
