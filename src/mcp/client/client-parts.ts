/**
 * The parts of one `MCPClient` and how they are wired together: its tool set, response cache, call limiter,
 * server features (resources, prompts, completion, logging), tool discovery and connection. Each part is
 * told of the others only what it needs; the client (client.ts) is the public face over them and owns them.
 */
import type { MCPTool, MCPToolHost } from '../adapter/mcp-tool.js';
import { ToolSet } from '../adapter/tool-set.js';
import type { Root } from '../protocol/types.js';
import type { Session } from '../session/session.js';
import { CallLimiter } from './call-limiter.js';
import { Connection } from './connection.js';
import type { MCPClientEvents, TypedEmitter } from './events.js';
import type { RequestHooks } from './hooks/request-hooks.js';
import type { MCPClientOptions } from './options.js';
import { ResponseCache } from './response-cache.js';
import { ServerFeatures } from './server-features.js';
import { clientSessionEvents } from './session-events.js';
import { ToolRefresh } from './tool-refresh.js';
import type { TransportPlan } from './transport-plan.js';

/** The client the parts serve: its tools' host and the emitter of its events. */
export type ClientFace = MCPToolHost & TypedEmitter<MCPClientEvents> & { getTools(): MCPTool[] };

/** One client's parts. */
export interface ClientParts {
  readonly tools: ToolSet;
  /** Cacheable 2026-07-28 results, across connections (`cache` option; response-cache.ts). */
  readonly cache: ResponseCache | undefined;
  readonly calls: CallLimiter;
  /** Resources, prompts, completion, logging (server-features.ts). */
  readonly features: ServerFeatures;
  /** Tool discovery after `connect()`: refreshes, `list_changed` (tool-refresh.ts). */
  readonly toolRefresh: ToolRefresh;
  /** The connection's state machine and reconnection (connection.ts). */
  readonly connection: Connection;
}

/**
 * Builds the parts of the client `face` named `name`, which reaches its server by `plan`; `roots` gives the
 * roots offered to the server at the time it asks; `requests` carries its requests through its hooks.
 */
export function clientParts(
  face: ClientFace,
  name: string,
  plan: TransportPlan,
  options: MCPClientOptions,
  roots: () => Root[],
  requests: RequestHooks,
): ClientParts {
  const tools = new ToolSet(face);
  const cache = options.cache === false ? undefined : new ResponseCache();
  const calls = new CallLimiter(options.maxConcurrentCalls, name);
  const cacheFor = (session: Session) => cache?.forSession(session);
  // The parts below ask for the connection only once the client runs, after it exists.
  let made: Connection | undefined;
  const connectionOf = () => made as Connection;
  const features = new ServerFeatures({ name, options, connection: connectionOf, cacheFor, requests });
  const toolRefresh = new ToolRefresh({
    name,
    options,
    tools,
    cache,
    events: face,
    connection: connectionOf,
  });
  made = new Connection({
    name,
    plan,
    options,
    events: face,
    tools: () => face.getTools(),
    toolsListed: (definitions) => toolRefresh.apply(definitions),
    toolListChanged: (session) => toolRefresh.onListChanged(session),
    sessionEnded: (deliberate) => {
      toolRefresh.cancel();
      if (deliberate) tools.clear();
    },
    sessionEvents: clientSessionEvents(name, face, cache),
    features: () => ({ ...options, currentRoots: roots, redact: plan.redact }),
    cacheFor,
    hooks: requests.resolved,
    inConnectScope: (work) => requests.inConnectScope(work),
  });
  return { tools, cache, calls, features, toolRefresh, connection: made };
}
