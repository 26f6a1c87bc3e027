/**
 * What a 2026-era request changes on Streamable HTTP (MCP spec 2026-07-28, "Transports > Streamable HTTP"):
 * its request metadata headers, mirrored from the body ("Request Metadata"), and its 4xx answers, which
 * carry a JSON-RPC error the call fails with (`-32022` unsupported version, `-32020` header mismatch,
 * `-32021` missing client capability, `-32601` on 404), rather than a bare HTTP error. A request is 2026-era
 * when its `params._meta` names a 2026-era `io.modelcontextprotocol/protocolVersion` (protocol/mcp-headers.ts);
 * every other request is sent exactly as before.
 */
import type { JSONRPCMessage, RequestId } from '@modelcontextprotocol/client';
import { isRecord } from '../../../core/json.js';
import type { MCPCallError } from '../../protocol/errors.js';
import { modernEnvelopeVersion, standardMcpHeaders } from '../../protocol/mcp-headers.js';
import { excerpt, type HttpErrorContext, httpStatusError, httpTransportError } from './errors.js';

/** Whether `message` is a 2026-era request: its `params._meta` envelope names a 2026-era protocol version. */
export function isModernRequest(message: JSONRPCMessage): boolean {
  return 'method' in message && 'id' in message && modernEnvelopeVersion(message.params) !== undefined;
}

/**
 * The standard headers of `message` when it is a 2026-era request (`mcp-protocol-version` from its
 * envelope, `mcp-method`, `mcp-name`); `undefined` for a notification, a response, or a 2025-era request.
 */
export function modernRequestHeaders(message: JSONRPCMessage): Record<string, string> | undefined {
  if (!('method' in message && 'id' in message)) return undefined;
  return standardMcpHeaders(message.method, message.params);
}

/**
 * Sets the standard headers on `headers`, over whatever came before: the caller's static headers, the
 * per-message extras (`Mcp-Param-*` pass; a stray `Mcp-Method` or `Mcp-Name` is dropped, the body is the
 * source of truth, "Server Validation"), and the `MCP-Protocol-Version` slot set after negotiation (the
 * body's version wins: the header MUST match it, "Protocol Version Header").
 */
export function applyModernHeaders(headers: Record<string, string>, standard: Record<string, string>): void {
  delete headers['mcp-method'];
  delete headers['mcp-name'];
  Object.assign(headers, standard);
}

/** Longest error body read for its JSON-RPC error, in bytes (a `-32020` carries the mismatching pair). */
const ERROR_BODY_LIMIT = 65_536;

/**
 * The error for a non-2xx answer to 2026-era `request` (other than the 401/403 that OAuth handled). A 4xx
 * whose body is a JSON-RPC error response for this request (its id, or `null` when the server could not
 * tell) is that error: kind `jsonrpc` with `code`, `data`, and the HTTP `status` and `body` kept (a
 * negotiation tells a modern server's `-32022` / `-32601` from a legacy server's answer by them, spec
 * "Backward Compatibility"). Anything else is kind `http`, as for a 2025-era request.
 */
export async function modernFailedAnswer(
  response: Response,
  context: HttpErrorContext,
  request: JSONRPCMessage,
): Promise<MCPCallError> {
  const text = await readBounded(response);
  const id = 'id' in request ? request.id : undefined;
  const error = response.status >= 400 && response.status < 500 ? jsonRpcError(text, id) : undefined;
  if (error === undefined) return httpStatusError(context, response.status, excerpt(text));
  return httpTransportError(
    'jsonrpc',
    context,
    `server returned JSON-RPC error ${error.code}: ${error.message}`,
    { code: error.code, data: error.data, status: response.status, body: excerpt(text) },
  );
}

/** The `error` of a JSON-RPC error response answering request `id` (or `null`), if `text` is one. */
function jsonRpcError(
  text: string,
  id: RequestId | undefined,
): { code: number; message: string; data: unknown } | undefined {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (!isRecord(parsed) || parsed.jsonrpc !== '2.0' || 'result' in parsed) return undefined;
  if (parsed.id !== id && parsed.id !== null) return undefined;
  const error = parsed.error;
  if (!isRecord(error) || typeof error.code !== 'number' || !Number.isInteger(error.code)) return undefined;
  const message = typeof error.message === 'string' ? error.message : '';
  return { code: error.code, message, data: error.data };
}

/** Reads at most {@link ERROR_BODY_LIMIT} bytes of an error body as UTF-8, then releases it; '' if unreadable. */
async function readBounded(response: Response): Promise<string> {
  const body = response.body;
  if (body === null) return '';
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let text = '';
  let bytes = 0;
  try {
    while (bytes < ERROR_BODY_LIMIT) {
      const { done, value } = await reader.read();
      if (done) break;
      bytes += value.byteLength;
      text += decoder.decode(value, { stream: true });
    }
    text += decoder.decode();
  } catch {
    // Best-effort, as readBodyExcerpt: what arrived is still worth reading.
  } finally {
    reader.cancel().catch(() => {});
  }
  return text;
}
