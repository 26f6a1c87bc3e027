/**
 * The gateway's MCP server: one low-level SDK `Server` per serving unit (an HTTP request, a stdio
 * connection; MCP SDK `McpServerFactory`), whose handlers answer lists from the catalog and route calls,
 * reads and prompt requests to their upstream. Results pass through as the upstream gave them (content
 * blocks, `structuredContent`, `isError`, `_meta`), minus the fields that describe the upstream's own
 * exchange (its `resultType` and caching hints, its `serverInfo`), which the gateway's SDK server sets for
 * its own. Progress of a call is forwarded to the client that asked for it, cancellation to the upstream.
 */
import {
  type McpRequestContext,
  ProtocolError,
  ProtocolErrorCode,
  type Server,
  type ServerContext,
} from '@modelcontextprotocol/server';
import { MCPCallError, type MCPClient } from '../mcp/for-gateway.js';
import { forbidden, GATEWAY_SERVER } from './access-policy.js';
import { type CallGate, gatedRequest } from './call-gate.js';
import { callerOf } from './caller.js';
import type { GatewayCatalog } from './catalog.js';
import type { InputRelay, RelayRound } from './relay.js';
import { type GatewayStatus, STATUS_RESOURCE } from './status.js';
import type { ResourceSubscriptions, SubscriptionHolder } from './subscriptions.js';
import { GatewayServer, registerTaskHandlers } from './task-handlers.js';
import type { GatewayTasks } from './tasks.js';
import { traceRequests } from './telemetry.js';
import { callUpstream } from './upstream-call.js';
import { describeUpstreamFailure } from './upstream-failure.js';
import type { UpstreamHealth } from './upstream-health.js';

/** What the handlers need of the gateway. */
export interface GatewayRoutes {
  catalog: GatewayCatalog;
  relay: InputRelay;
  status: GatewayStatus;
  /** The upstreams' health: requests to one that is down are refused at once (upstream-call.ts). */
  health: UpstreamHealth;
  /** The access policy, rate limits and audit every routed request passes (call-gate.ts). */
  gate: CallGate;
  /** Resource subscriptions shared by every instance; without it, none are offered. */
  subscriptions?: ResourceSubscriptions;
  /** Tasks passed through (tasks.ts); without it, none are offered. */
  tasks?: GatewayTasks;
  serverInfo: { name: string; version: string };
  /** Told of each instance made, and of its closing (stdio instances deliver their own notifications). */
  track?: (server: Server) => void;
  /**
   * Whether 2025-era instances can ask their client anything: true on a stdio connection, false for the
   * stateless 2025-era HTTP leg, which cannot receive the client's answer to a server request.
   */
  legacyCanAsk: boolean;
  /**
   * Whether 2025-era instances that can ask also offer resource subscriptions (default true): not on the
   * 2025 HTTP sessions (legacy-sessions.ts), whose `resources/updated` could not find the process holding
   * the client's GET stream.
   */
  legacySubscriptions?: boolean;
  /**
   * The outcome of `tools/call` request `id` when a fast path in front of the SDK server already made the
   * call (stdio: fast-call.ts), and tells it that the SDK's checks of this request passed.
   */
  settledCall?: (id: string | number, server: Server) => Promise<object> | undefined;
}

type Context = ServerContext;
type Result = Record<string, unknown>;

// Fields of an upstream result about its own exchange with the gateway, not the gateway's with its client.
const OWN_FIELDS = new Set(['resultType', 'ttlMs', 'cacheScope']);
const OWN_META = new Set(['io.modelcontextprotocol/serverInfo']);

/** A factory for `createMcpHandler` / `serveStdio`: a fresh server for one era, with the gateway's handlers. */
export function gatewayServerFactory(routes: GatewayRoutes): (context: McpRequestContext) => Server {
  return ({ era }) => {
    // Subscriptions are offered where updates can reach the client: on 2026-07-28 listen streams, and on
    // a 2025-era connection that lasts (stdio), not on the stateless 2025 HTTP leg.
    const legacySubscribe = routes.legacyCanAsk && routes.legacySubscriptions !== false;
    const subscriptions = era === 'modern' || legacySubscribe ? routes.subscriptions : undefined;
    const tasks = routes.tasks?.capabilities(era, routes.catalog.tools()) ?? {};
    const server = new GatewayServer(routes.serverInfo, {
      capabilities: {
        tools: { listChanged: true },
        resources: { listChanged: true, ...(subscriptions && { subscribe: true }) },
        prompts: { listChanged: true },
        completions: {},
        ...tasks,
      },
    });
    traceRequests(server);
    register(server, routes, era === 'modern' || routes.legacyCanAsk);
    if (routes.tasks) registerTaskHandlers(server, routes.tasks, era, tasks, routes.legacyCanAsk);
    routes.track?.(server);
    if (subscriptions && era !== 'modern') subscribeHandlers(server, routes, subscriptions);
    return server;
  };
}

function register(server: Server, routes: GatewayRoutes, canAsk: boolean): void {
  const { catalog, gate } = routes;
  const relay = { round: relayRound(routes.relay, canAsk) };
  // What the caller of a request may see (access-policy.ts): the caller the access check recognised.
  const grants = (ctx: Context) => gate.policy.grants(callerOf(ctx.http?.authInfo));
  server.setRequestHandler('tools/list', (_request, ctx) => {
    const visible = grants(ctx);
    const tools = catalog.tools();
    const shown = gate.policy.active
      ? tools.filter((tool) => visible.allows('tools', tool.client.name, tool.upstreamName))
      : tools;
    // Definitions pass through as the upstreams gave them; the SDK's types are narrower than the wire.
    return { tools: shown.map((tool) => tool.definition) } as never;
  });
  server.setRequestHandler('tools/call', async (request, ctx) => {
    const settled = routes.settledCall?.(ctx.mcpReq.id, server);
    if (settled) return (await settled) as never;
    // The tool's name as the request's JSON-RPC body names it (the SDK parsed it), never a header.
    const { name, arguments: input = {} } = request.params;
    const target = catalog.resolveTool(name);
    if (!target) throw invalidParams(`Tool ${name} not found`);
    const caller = callerOf(ctx.http?.authInfo);
    const gated = gatedRequest(caller, 'tools/call', 'tools', target.client.name, target.name);
    return gate.run(gated, async () => {
      const progress = progressForwarder(request.params._meta?.progressToken, ctx);
      const task = routes.tasks?.call(target, request.params, ctx, routes.legacyCanAsk);
      const result = await relayed(relay, target.client, ctx, (signal) =>
        callUpstream(routes.health, target.client, catalog.mayRepeat(name), () =>
          target.client.callTool(target.name, input, {
            signal,
            // The gateway's client decides whether a call lost with its upstream is sent again.
            retryOnReconnect: false,
            // The client's `_meta` goes on (the client layer keeps its own keys: call-meta.ts).
            ...(request.params._meta && { _meta: request.params._meta }),
            ...(progress && { onprogress: progress }),
            ...task?.options,
          }),
        ),
      );
      return (task ? task.answer(result, passThrough) : passThrough(result)) as never;
    });
  });
  server.setRequestHandler('prompts/list', async (_request, ctx) => {
    const visible = grants(ctx);
    return { prompts: await catalog.prompts((server, name) => visible.allows('prompts', server, name)) };
  });
  server.setRequestHandler('prompts/get', async (request, ctx) => {
    const target = await catalog.resolvePrompt(request.params.name);
    if (!target) throw invalidParams(`Prompt ${request.params.name} not found`);
    const args = request.params.arguments ?? {};
    const caller = callerOf(ctx.http?.authInfo);
    const gated = gatedRequest(caller, 'prompts/get', 'prompts', target.client.name, target.name);
    return gate.run(gated, async () => {
      const result = await relayed(relay, target.client, ctx, (signal) =>
        callUpstream(routes.health, target.client, true, () =>
          target.client.getPrompt(target.name, args, { signal }),
        ),
      );
      return passThrough(result) as never;
    });
  });
  server.setRequestHandler('resources/list', async (_request, ctx) => {
    const visible = grants(ctx);
    const status = visible.allows('resources', GATEWAY_SERVER, STATUS_RESOURCE)
      ? [routes.status.resource()]
      : [];
    return {
      resources: [
        ...status,
        ...(await catalog.resources((server, uri) => visible.allows('resources', server, uri))),
      ],
    };
  });
  server.setRequestHandler('resources/templates/list', async (_request, ctx) => {
    const visible = grants(ctx);
    return {
      resourceTemplates: await catalog.resourceTemplates((server, uri) =>
        visible.allows('resources', server, uri),
      ),
    };
  });
  server.setRequestHandler('resources/read', async (request, ctx) => {
    const { uri } = request.params;
    const caller = callerOf(ctx.http?.authInfo);
    if (uri === STATUS_RESOURCE) {
      const gated = gatedRequest(caller, 'resources/read', 'resources', GATEWAY_SERVER, uri);
      return gate.run(gated, async () => routes.status.read() as never);
    }
    const client = await catalog.resolveResource(uri);
    if (!client) throw invalidParams(`Resource ${uri} not found`);
    const gated = gatedRequest(caller, 'resources/read', 'resources', client.name, uri);
    return gate.run(gated, async () => {
      const result = await relayed(relay, client, ctx, (signal) =>
        callUpstream(routes.health, client, true, () => client.readResource(uri, { signal })),
      );
      return passThrough(result) as never;
    });
  });
  server.setRequestHandler('completion/complete', async (request, ctx) => {
    const { ref, argument, context } = request.params;
    const target =
      ref.type === 'ref/prompt'
        ? await catalog.resolvePrompt(ref.name)
        : await catalog.resolveTemplate(ref.uri);
    if (!target)
      throw invalidParams(`${ref.type === 'ref/prompt' ? 'Prompt' : 'Resource template'} not found`);
    // The prompt goes back under its upstream name; a template keeps its URI template.
    const upstreamRef = ref.type === 'ref/prompt' ? { type: ref.type, name: target.name } : ref;
    const caller = callerOf(ctx.http?.authInfo);
    const kind = ref.type === 'ref/prompt' ? 'prompts' : 'resources';
    const gated = gatedRequest(caller, 'completion/complete', kind, target.client.name, target.name);
    const completion = await gate.run(gated, () =>
      relayed(relay, target.client, ctx, (signal) =>
        callUpstream(routes.health, target.client, true, () =>
          target.client.complete(
            {
              ref: upstreamRef,
              argument,
              ...(context?.arguments && { context: { arguments: context.arguments } }),
            },
            { signal },
          ),
        ),
      ),
    );
    return { completion } as never;
  });
}

/** `resources/subscribe` / `unsubscribe` of a 2025-era connection, held until the connection closes. */
function subscribeHandlers(server: Server, routes: GatewayRoutes, subscriptions: ResourceSubscriptions) {
  const { catalog, gate } = routes;
  const holder: SubscriptionHolder = {
    updated: (uri) => {
      server.sendResourceUpdated({ uri }).catch(() => {
        // The connection is closing: it has nobody left to tell.
      });
    },
  };
  server.setRequestHandler('resources/subscribe', async (request, ctx) => {
    const { uri } = request.params;
    const client = await catalog.resolveResource(uri);
    if (!client) throw invalidParams(`Resource ${uri} not found`);
    if (!gate.policy.grants(callerOf(ctx.http?.authInfo)).allows('resources', client.name, uri))
      throw forbidden('resources/subscribe', client.name, uri);
    try {
      await subscriptions.subscribe(holder, uri, client);
    } catch (error) {
      throw upstreamError(error, client.name);
    }
    return {};
  });
  server.setRequestHandler('resources/unsubscribe', async (request) => {
    await subscriptions.unsubscribe(holder, request.params.uri);
    return {};
  });
  const closed = server.onclose;
  server.onclose = () => {
    closed?.();
    void subscriptions.release(holder);
  };
}

/** One round of `start` through the relay, with an upstream failure turned into the client's error. */
type Relay = {
  round: (
    server: string,
    round: RelayRound,
    start: (signal: AbortSignal) => Promise<object>,
  ) => Promise<object>;
};

function relayRound(relay: InputRelay, canAsk: boolean): Relay['round'] {
  return (server, round, start) => relay.round(server, { ...round, canAsk }, start);
}

async function relayed(
  relay: Relay,
  client: MCPClient,
  ctx: Context,
  start: (signal: AbortSignal) => Promise<object>,
): Promise<object> {
  const state = ctx.mcpReq.requestState();
  const round: RelayRound = {
    requestState: typeof state === 'string' ? state : undefined,
    inputResponses: ctx.mcpReq.inputResponses,
    signal: ctx.mcpReq.signal,
    canAsk: true,
  };
  try {
    return await relay.round(client.name, round, start);
  } catch (error) {
    // The gateway's own refusals (an upstream that is down) go out as they are.
    if (error instanceof ProtocolError) throw error;
    throw upstreamError(error, client.name);
  }
}

/**
 * The JSON-RPC error the gateway's client gets for a failed upstream request: the upstream's own JSON-RPC
 * error (code, message, data) as it is (the message as the upstream sent it, `serverMessage`, not this
 * gateway's client's sentence about it, which would state the code a second time); any other failure -32603 with `data: { server, kind }` (the
 * `MCPCallError` kind: `connection_closed`, `timeout`, `not_connected`, …; `exitCode` / `signal` of a stdio
 * server that ended). Messages are built from the error's fields, which never carry the upstream's
 * credentials, nor its stderr (upstream-failure.ts).
 */
export function upstreamError(error: unknown, server: string): ProtocolError {
  if (error instanceof MCPCallError) {
    if (error.kind === 'jsonrpc' && error.code !== undefined)
      return new ProtocolError(error.code, error.serverMessage ?? error.reason, error.data);
    const failure = describeUpstreamFailure(error, server);
    return new ProtocolError(ProtocolErrorCode.InternalError, failure.message, failure.data);
  }
  return new ProtocolError(ProtocolErrorCode.InternalError, `MCP server "${server}" failed`, {
    server,
    kind: 'gateway',
  });
}

function invalidParams(message: string): ProtocolError {
  return new ProtocolError(ProtocolErrorCode.InvalidParams, message);
}

function progressForwarder(token: unknown, ctx: Context) {
  if (typeof token !== 'string' && typeof token !== 'number') return undefined;
  return (progress: { progress: number; total?: number; message?: string }) => {
    ctx.mcpReq
      .notify({ method: 'notifications/progress', params: { progressToken: token, ...progress } })
      .catch(() => {
        // The client went away: nothing left to tell.
      });
  };
}

/** The upstream's result without the fields of its own exchange (see the file header). */
export function passThrough(result: object): Result {
  // The relay's own question for the client goes out as it is.
  if ((result as Result).resultType === 'input_required') return result as Result;
  const out: Result = {};
  for (const [key, value] of Object.entries(result)) {
    if (OWN_FIELDS.has(key)) continue;
    if (key === '_meta' && value && typeof value === 'object') {
      const meta = Object.fromEntries(Object.entries(value).filter(([name]) => !OWN_META.has(name)));
      if (Object.keys(meta).length > 0) out._meta = meta;
      continue;
    }
    out[key] = value;
  }
  return out;
}
