/**
 * The client side of MCP beyond tools: requests a server sends to the client (MCP spec 2025-11-25,
 * "Client Features": sampling, elicitation, roots). Capabilities are declared only for what has a handler,
 * so a server never asks for something the host cannot answer.
 */
import type {
  CreateMessageParams,
  CreateMessageResult,
  ElicitParams,
  ElicitResult,
  Root,
} from '../protocol/types.js';

/** What a server-request handler receives besides the params. */
export interface ServerRequestContext {
  /** The server's name. */
  server: string;
  /** Aborts when the server cancels the request (`notifications/cancelled`) or the connection ends. */
  signal: AbortSignal;
}

/** Handlers for server-initiated requests; each one present declares its capability in `initialize`. */
export interface MCPServerRequestHandlers {
  /** Answers `sampling/createMessage` with the host's model (declares `sampling`). */
  onSampling?: (params: CreateMessageParams, context: ServerRequestContext) => Promise<CreateMessageResult>;
  /**
   * Answers `elicitation/create` (declares `elicitation.form`). For an accepted form, fields the handler
   * leaves out are filled from the `default`s in `requestedSchema`.
   */
  onElicitation?: (params: ElicitParams, context: ServerRequestContext) => Promise<ElicitResult>;
  /** Roots offered to the server on `roots/list` (declares `roots.listChanged`); change with `setRoots()`. */
  roots?: Root[];
}

/** The `capabilities` to declare in `initialize` for these handlers. */
export function clientCapabilities(handlers: MCPServerRequestHandlers): Record<string, object> {
  const capabilities: Record<string, object> = {};
  if (handlers.onSampling) capabilities.sampling = {};
  if (handlers.onElicitation) capabilities.elicitation = { form: {} };
  if (handlers.roots) capabilities.roots = { listChanged: true };
  return capabilities;
}

/**
 * Fills the fields of an accepted form that the user left empty with the schema's defaults (MCP spec
 * 2025-11-25, "Elicitation > Requested Schema": primitive properties may carry a `default`).
 */
export function applyElicitationDefaults(params: ElicitParams, result: ElicitResult): ElicitResult {
  const properties = params.requestedSchema?.properties;
  if (result.action !== 'accept' || !properties || (params.mode !== undefined && params.mode !== 'form'))
    return result;
  const content: Record<string, unknown> = { ...result.content };
  for (const [key, property] of Object.entries(properties)) {
    if (content[key] === undefined && property.default !== undefined) content[key] = property.default;
  }
  return { ...result, content: content as NonNullable<ElicitResult['content']> };
}
