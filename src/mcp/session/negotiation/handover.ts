/**
 * Reading the SDK `Client`'s refusal of a negotiated connection (negotiate.ts): an `initialize` refused with
 * -32022.
 */
import { ProtocolError } from '@modelcontextprotocol/client';
import { isRecord } from '../../../core/json.js';
import { MCPCallError } from '../../protocol/errors.js';
import {
  isModernVersion,
  type MCPProtocolVersionOption,
  noCommonVersion,
  offeredVersions,
  supportedFrom,
} from './protocol-versions.js';

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
