/**
 * `tools/call` through the SDK's request funnel on a 2026-07-28 connection (envelope, strict `resultType`,
 * `input_required` rounds and stream-close cancellation are the SDK's), with agentwire's exact
 * `maxTotalTimeoutMs` and the tool's `Mcp-Param-*` headers. The direct path (modern-calls.ts) is the default;
 * this one stays as its reference (`SessionEra.modernCalls: 'funnel'`, the parity tests and the bench).
 */
import { type Client, SdkError, SdkErrorCode } from '@modelcontextprotocol/client';
import type { CallToolResult } from '../../protocol/types.js';
import type { RequestOptions } from '../request-options.js';
import { sdkOptions } from './request-extras.js';
import { callToolResultSchema } from './result-checks.js';

/** A `tools/call` as the funnel sends it: params (log level already in `_meta`) and extra HTTP headers. */
export interface FunnelCall {
  params: { name: string; arguments: Record<string, unknown> } & Record<string, unknown>;
  headers?: Record<string, string> | undefined;
}

/**
 * Sends `call` through `sdk.request`.
 * @throws (rejects with) the SDK's error values; `SdkError` `RequestTimeout` `{ maxTotalTimeout }` when
 *   `maxTotalTimeoutMs` ran out (the SDK checks it only when progress arrives, so a timer of ours makes it exact).
 */
export async function callThroughSdk(
  sdk: Client,
  call: FunnelCall,
  options: RequestOptions,
): Promise<CallToolResult> {
  const cap = options.maxTotalTimeoutMs;
  const capper = cap === undefined ? undefined : new AbortController();
  const timer = cap === undefined ? undefined : setTimeout(() => capper?.abort(), cap);
  const signal =
    capper && options.signal
      ? AbortSignal.any([options.signal, capper.signal])
      : (capper?.signal ?? options.signal);
  const headers = call.headers;
  try {
    return await sdk.request({ method: 'tools/call', params: call.params }, callToolResultSchema, {
      ...sdkOptions({ ...options, signal }),
      ...(headers && { headers }),
    });
  } catch (error) {
    const capped = capper?.signal.aborted === true && options.signal?.aborted !== true;
    if (!capped) throw error;
    throw new SdkError(SdkErrorCode.RequestTimeout, 'Maximum total timeout exceeded', {
      maxTotalTimeout: cap,
    });
  } finally {
    clearTimeout(timer);
  }
}
