/**
 * Handing a negotiated connection (negotiate.ts) to the SDK's `Client`, and reading its refusals.
 */
import { ProtocolError } from '@modelcontextprotocol/client';
import { isRecord } from '../../core/json.js';
import { MCPCallError } from '../protocol/errors.js';
import type { AgentwireTransport } from '../transports/transport.js';
import { PROBE_ID_PREFIX } from './negotiate.js';
import {
  isModernVersion,
  type MCPProtocolVersionOption,
  noCommonVersion,
  offeredVersions,
  supportedFrom,
} from './protocol-versions.js';

/**
 * Readies `transport.start()` for the SDK's `Client.connect`: a no-op when the probe `started` it
 * ({@link startedAlready}), else ended by `signal` ({@link abortableStart}). The caller removes the own
 * `start` property once connected.
 */
export function prepareStart(
  transport: AgentwireTransport,
  started: boolean,
  signal: AbortSignal | undefined,
): void {
  if (started) startedAlready(transport);
  else abortableStart(transport, signal);
}

/**
 * The probe started `transport`, and `Client.connect` starts it again (our transports refuse a second
 * `start()`): the next `start()` is a no-op. The caller removes the own property once connected.
 */
export function startedAlready(transport: AgentwireTransport): void {
  Object.defineProperty(transport, 'start', {
    value: () => Promise.resolve(),
    configurable: true,
    writable: true,
  });
}

/**
 * The SDK's `Client.connect` awaits `transport.start()` before it sends `initialize`, the first request
 * that carries the connect's `signal`; a `start()` that waits on the server (the HTTP+SSE transport's GET,
 * MCP spec 2024-11-05, "Transports > HTTP with SSE") would not hear it. So while `start()` is pending,
 * `signal` closes the transport, which ends that `start()`. Like {@link startedAlready}, an own `start`
 * property the caller removes once connected.
 */
export function abortableStart(transport: AgentwireTransport, signal: AbortSignal | undefined): void {
  if (signal === undefined) return;
  const start = transport.start.bind(transport);
  const close = () => void transport.close().catch(() => {});
  Object.defineProperty(transport, 'start', {
    value: async () => {
      signal.addEventListener('abort', close, { once: true });
      try {
        if (signal.aborted) close();
        await start();
      } finally {
        signal.removeEventListener('abort', close);
      }
    },
    configurable: true,
    writable: true,
  });
}

/**
 * A probe went unanswered, and a slow server may still answer it: its answer is dropped before the SDK
 * sees it, which would otherwise report a response to an unknown request.
 */
export function dropLateProbeAnswers(transport: AgentwireTransport): void {
  const deliver = transport.onmessage;
  if (!deliver) return;
  transport.onmessage = (message, extra) => {
    const id = 'id' in message ? message.id : undefined;
    if (typeof id === 'string' && id.startsWith(PROBE_ID_PREFIX) && !('method' in message)) return;
    deliver(message, extra);
  };
}

/**
 * The typed error for an `initialize` refused with -32022 (MCP spec 2026-07-28, "Basic > Versioning": a
 * modern-only server names its revisions in `data.supported`), naming ours beside them; `undefined` for
 * any other failure.
 */
export function refusedVersion(
  error: unknown,
  server: string,
  protocolVersion: MCPProtocolVersionOption,
): MCPCallError | undefined {
  const refusal = versionRefusal(error);
  if (refusal === undefined) return undefined;
  const supported = supportedFrom(refusal.data);
  // In 'auto', a server naming a modern revision we speak was only too slow for the probe: not "nothing in
  // common", so the server's own error stands.
  if (
    protocolVersion === 'auto' &&
    supported?.some((v) => isModernVersion(v) && offeredVersions('auto').includes(v))
  )
    return undefined;
  return noCommonVersion(server, 'initialize', offeredVersions(protocolVersion), supported, error);
}

/**
 * The -32022 refusal in `error`: the SDK's `ProtocolError` (stdio, or a JSON-RPC error in a 2xx body), or an
 * HTTP 400 whose body is that JSON-RPC error (MCP spec 2026-07-28, "Transports > Streamable HTTP": a
 * modern-only server answers a 2025-era `initialize` so), which the 2025 transport reports as kind `http`.
 */
function versionRefusal(error: unknown): { data: unknown } | undefined {
  if (error instanceof ProtocolError) return error.code === -32022 ? { data: error.data } : undefined;
  if (!(error instanceof MCPCallError) || error.status !== 400 || error.body === undefined) return undefined;
  let body: unknown;
  try {
    body = JSON.parse(error.body);
  } catch {
    return undefined;
  }
  const refusal = isRecord(body) && isRecord(body.error) ? body.error : undefined;
  return refusal?.code === -32022 ? { data: refusal.data } : undefined;
}
