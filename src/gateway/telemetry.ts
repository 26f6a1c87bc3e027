/**
 * The gateway's MCP server span of each request it serves, as the OpenTelemetry MCP semantic conventions
 * describe it (https://opentelemetry.io/docs/specs/semconv/gen-ai/mcp/, "Spans > Server"): kind SERVER,
 * named `{mcp.method.name} {target}` (the tool or prompt name the client asked for, where there is one),
 * with `mcp.method.name`, `gen_ai.operation.name` (`execute_tool`) and `gen_ai.tool.name` for `tools/call`,
 * `gen_ai.prompt.name` for `prompts/get`, `mcp.resource.uri`, `mcp.protocol.version`, `jsonrpc.request.id`,
 * `network.transport` (`pipe` on stdio, `tcp` with `network.protocol.name` `http` over Streamable HTTP),
 * `mcp.session.id` where the transport has a session, and on failure `error.type` (the JSON-RPC code of the
 * error answer, `tool_error` for a result with `isError`) with `rpc.response.status_code`.
 *
 * Parent: the context the client put in the request's `params._meta` ("Context propagation": MCP spec
 * 2026-07-28, "Basic > `_meta`", the unprefixed `traceparent` / `tracestate`), read by the host's
 * configured propagators; when they find none there (no propagator configured, or one that does not read
 * W3C Trace Context), the W3C `traceparent` the MCP spec fixes for `_meta`. The ambient context (an HTTP
 * server span of the host's HTTP instrumentation, say) is linked, as the conventions say, and becomes the
 * parent only when `_meta` carries no context. The handler runs inside the span, so the upstream request
 * it makes gets an MCP client span of its own (mcp/session/mcp-span.ts) whose `traceparent` replaces the
 * client's in the upstream's `_meta` (the rest of a `tools/call`'s `_meta` is passed on: routing.ts).
 */
import {
  PROTOCOL_VERSION_META_KEY,
  type Server,
  type ServerContext,
  TRACEPARENT_META_KEY,
  TRACESTATE_META_KEY,
} from '@modelcontextprotocol/server';
import type { SpanContextLike, TraceApi } from '../core/otel-api.js';
import { traceApi } from '../core/otel-api.js';
import { type DescribeFailure, type SpanSpec, withSpan } from '../core/telemetry.js';

/** Requests the SDK's server answers itself (negotiation, liveness): no span of the gateway's. */
const SDK_OWN = new Set(['initialize', 'server/discover', 'ping', 'logging/setLevel']);

/** JSON-RPC `InternalError`: what the SDK answers for a thrown error without a numeric `code`. */
const INTERNAL_ERROR = -32603;

// The W3C Trace Context `traceparent` (https://www.w3.org/TR/trace-context/#traceparent-header): version
// `00` has exactly four fields; a later version may add more, which are ignored.
const TRACEPARENT = /^([\da-f]{2})-([\da-f]{32})-([\da-f]{16})-([\da-f]{2})(-.*)?$/;

type Handler = (request: unknown, ctx: ServerContext) => unknown;

/**
 * Makes every request handler registered on `server` from now on run inside its server span (see the file
 * header). Without `@opentelemetry/api` installed, `server` is left as it is.
 */
export function traceRequests(server: Server): void {
  const api = traceApi();
  if (api === undefined) return;
  const register = server.setRequestHandler.bind(server) as (...args: unknown[]) => void;
  (server as { setRequestHandler: unknown }).setRequestHandler = (method: string, ...rest: unknown[]) => {
    const handler = rest.at(-1) as Handler;
    // The three-argument form (method, schemas, handler) hands the handler the params themselves.
    const paramsOf =
      rest.length > 1
        ? asRecord
        : (input: unknown) => asRecord((input as { params?: unknown } | undefined)?.params);
    if (SDK_OWN.has(method) || typeof handler !== 'function') return register(method, ...rest);
    const traced: Handler = (request, ctx) => {
      const spec = serverSpan(api, server, method, paramsOf(request), ctx);
      return withSpan(
        spec,
        async (span) => {
          try {
            const result = await handler(request, ctx);
            if ((result as { isError?: unknown } | undefined)?.isError === true) span.fail('tool_error');
            return result;
          } catch (error) {
            span.set('rpc.response.status_code', String(answeredCode(error)));
            throw error;
          }
        },
        describeAnswer,
      );
    };
    return register(method, ...rest.slice(0, -1), traced);
  };
}

function asRecord(value: unknown): Record<string, unknown> {
  return typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : {};
}

/** The JSON-RPC code the SDK answers a thrown error with: its numeric `code`, else `InternalError`. */
function answeredCode(error: unknown): number {
  const code = (error as { code?: unknown } | undefined)?.code;
  return typeof code === 'number' && Number.isSafeInteger(code) ? code : INTERNAL_ERROR;
}

/** `error.type` of a thrown error: the code of the JSON-RPC error answer; the description its message. */
const describeAnswer: DescribeFailure = (error) => {
  const message = (error as { message?: unknown } | undefined)?.message;
  return {
    type: String(answeredCode(error)),
    ...(typeof message === 'string' && { description: message }),
  };
};

/** The server span of one request of `method` with `params` (see the file header). */
export function serverSpan(
  api: TraceApi,
  server: Server,
  method: string,
  params: Record<string, unknown>,
  ctx: ServerContext,
): SpanSpec {
  const name = typeof params.name === 'string' ? params.name : undefined;
  const tool = method === 'tools/call' ? name : undefined;
  const prompt = method === 'prompts/get' ? name : undefined;
  const target = tool ?? prompt;
  const http = ctx.http !== undefined;
  const { id } = ctx.mcpReq;
  const envelope = ctx.mcpReq.envelope as Record<string, unknown> | undefined;
  const version =
    envelope?.[PROTOCOL_VERSION_META_KEY] ??
    server.getNegotiatedProtocolVersion() ??
    ctx.http?.req?.headers.get('mcp-protocol-version') ??
    undefined;
  const { parent, links } = parentOf(api, ctx.mcpReq._meta as Record<string, unknown> | undefined);
  return {
    name: target === undefined ? method : `${method} ${target}`,
    kind: 'server',
    parent,
    links,
    attributes: {
      'mcp.method.name': method,
      'gen_ai.operation.name': tool === undefined ? undefined : 'execute_tool',
      'gen_ai.tool.name': tool,
      'gen_ai.prompt.name': prompt,
      'mcp.resource.uri': typeof params.uri === 'string' ? params.uri : undefined,
      'mcp.session.id': ctx.sessionId,
      'mcp.protocol.version': typeof version === 'string' ? version : undefined,
      'jsonrpc.request.id': typeof id === 'string' || typeof id === 'number' ? String(id) : undefined,
      'network.transport': http ? 'tcp' : 'pipe',
      'network.protocol.name': http ? 'http' : undefined,
    },
  };
}

/**
 * The span's parent and links: the context in `_meta` when there is one (the ambient span, when another,
 * linked), else the ambient context.
 */
function parentOf(
  api: TraceApi,
  meta: Record<string, unknown> | undefined,
): { parent: unknown; links: SpanContextLike[] } {
  const ambient = api.context.active();
  const around = api.trace.getSpanContext(ambient as never);
  let parent = meta === undefined ? ambient : api.propagation.extract(ambient as never, meta);
  let remote = api.trace.getSpanContext(parent as never);
  if (meta !== undefined && sameSpan(remote, around)) {
    const carried = w3cContext(api, meta);
    if (carried) {
      parent = api.trace.setSpanContext(ambient as never, carried as never);
      remote = carried;
    }
  }
  const linked = around !== undefined && api.isSpanContextValid(around) && !sameSpan(remote, around);
  return { parent, links: linked ? [around] : [] };
}

function sameSpan(a: SpanContextLike | undefined, b: SpanContextLike | undefined): boolean {
  return a?.spanId === b?.spanId && a?.traceId === b?.traceId;
}

/** The span context of a W3C `traceparent` (and `tracestate`) in `_meta`; `undefined` when there is none valid. */
function w3cContext(api: TraceApi, meta: Record<string, unknown>): SpanContextLike | undefined {
  const header = meta[TRACEPARENT_META_KEY];
  const match = typeof header === 'string' ? TRACEPARENT.exec(header.trim()) : null;
  if (match === null) return undefined;
  const [, version, traceId, spanId, flags, rest] = match as unknown as string[];
  if (version === 'ff' || (version === '00' && rest !== undefined)) return undefined;
  const state = meta[TRACESTATE_META_KEY];
  const context = {
    traceId: traceId as string,
    spanId: spanId as string,
    traceFlags: Number.parseInt(flags as string, 16),
    isRemote: true,
    ...(typeof state === 'string' && { traceState: api.createTraceState(state) }),
  };
  return api.isSpanContextValid(context) ? context : undefined;
}
