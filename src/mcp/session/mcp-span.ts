/**
 * The MCP client span of each request, as the OpenTelemetry MCP semantic conventions describe it
 * (https://opentelemetry.io/docs/specs/semconv/gen-ai/mcp/, "Spans > Client"): kind CLIENT, named
 * `{mcp.method.name} {target}` (the tool or prompt name where there is one), with `mcp.method.name`,
 * `gen_ai.tool.name` / `gen_ai.prompt.name` / `mcp.resource.uri`, `mcp.session.id`, `mcp.protocol.version`,
 * `jsonrpc.request.id`, `network.transport`, `server.address` / `server.port`, and on failure `error.type`
 * (the JSON-RPC code, `tool_error` for a result with `isError`, else the failure's kind) and
 * `rpc.response.status_code` for a JSON-RPC error. The span is active while the request is sent, so the
 * `traceparent` in its `_meta` (trace-context.ts; MCP spec 2026-07-28, "Basic > `_meta`") names it.
 */
import {
  activeSpan,
  type DescribeFailure,
  type SpanRecorder,
  type SpanSpec,
  tracerProviderRegistered,
  withSpan,
} from '../../core/telemetry.js';
import { MCPCallError } from '../protocol/errors.js';

/** Where the server is, as the conventions' network attributes say it. */
export interface PeerAddress {
  /** `pipe` for stdio, `tcp` for HTTP (the conventions' `network.transport`). */
  transport: 'pipe' | 'tcp';
  /** Host name or IP of an HTTP server. */
  address?: string;
  /** Port of an HTTP server (the scheme's default when the URL has none). */
  port?: number;
}

/** What the session knows of itself when a request starts. */
export interface SpanSession {
  sessionId: string | undefined;
  protocolVersion: string | undefined;
  peer: PeerAddress | undefined;
}

/** The span of a request of `method` with `params`. */
export function mcpSpan(method: string, params: Record<string, unknown>, session: SpanSession): SpanSpec {
  const name = typeof params.name === 'string' ? params.name : undefined;
  const tool = method === 'tools/call' ? name : undefined;
  const prompt = method === 'prompts/get' ? name : undefined;
  const target = tool ?? prompt;
  return {
    name: target === undefined ? method : `${method} ${target}`,
    kind: 'client',
    attributes: {
      'mcp.method.name': method,
      'gen_ai.operation.name': tool === undefined ? undefined : 'execute_tool',
      'gen_ai.tool.name': tool,
      'gen_ai.prompt.name': prompt,
      'mcp.resource.uri': typeof params.uri === 'string' ? params.uri : undefined,
      'mcp.session.id': session.sessionId,
      'mcp.protocol.version': session.protocolVersion,
      'network.transport': session.peer?.transport,
      'server.address': session.peer?.address,
      'server.port': session.peer?.port,
    },
  };
}

/** `error.type` of a failed request: the JSON-RPC code when the server answered with an error, else the kind. */
export const describeMcpFailure: DescribeFailure = (error) => {
  if (error instanceof MCPCallError) {
    const type = error.kind === 'jsonrpc' && error.code !== undefined ? String(error.code) : error.kind;
    return { type, description: error.message };
  }
  return { type: error instanceof Error ? error.name : '_OTHER' };
};

/** Records `rpc.response.status_code` beside `error.type` for a JSON-RPC error answer. */
export function noteFailure(span: SpanRecorder, error: unknown): void {
  if (error instanceof MCPCallError && error.kind === 'jsonrpc' && error.code !== undefined)
    span.set('rpc.response.status_code', String(error.code));
}

/** Spans still waiting for the id of their request, with its method. */
const awaitingId = new WeakMap<SpanRecorder, string>();

/** Marks `span` as the span of the next `method` request sent in its context (see {@link noteSent}). */
export function awaitRequestId(span: SpanRecorder, method: string): void {
  awaitingId.set(span, method);
}

/**
 * Called by the session's wire (wire.ts) with every message it sends: a request sent inside the span of its
 * method gets that span's `jsonrpc.request.id` (ids are given deep in the SDK or in calls.ts, after the span started).
 */
export function noteSent(message: unknown): void {
  const span = activeSpan();
  if (span === undefined || typeof message !== 'object' || message === null) return;
  const { method, id } = message as { method?: unknown; id?: unknown };
  if (awaitingId.get(span) !== method || (typeof id !== 'string' && typeof id !== 'number')) return;
  awaitingId.delete(span);
  span.set('jsonrpc.request.id', String(id));
}

/**
 * Runs one request of `method` inside its span (see the file header); a `tools/call` result with `isError`
 * marks the span `tool_error`.
 */
export function withMcpSpan<T>(
  method: string,
  params: Record<string, unknown>,
  session: SpanSession,
  work: () => Promise<T>,
): Promise<T> {
  // No span work without a tracer provider: nothing would record it (core/telemetry.ts).
  if (!tracerProviderRegistered()) return work();
  return withSpan(
    mcpSpan(method, params, session),
    async (span) => {
      awaitRequestId(span, method);
      try {
        const result = await work();
        if ((result as { isError?: unknown } | undefined)?.isError === true) span.fail('tool_error');
        return result;
      } catch (error) {
        noteFailure(span, error);
        throw error;
      }
    },
    describeMcpFailure,
  );
}
