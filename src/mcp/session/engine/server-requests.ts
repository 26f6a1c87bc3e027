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
} from '../../protocol/types.js';

/** What a server-request handler receives besides the params. */
export interface ServerRequestContext {
  /** The server's name. */
  server: string;
  /** Aborts when the server cancels the request (`notifications/cancelled`) or the connection ends. */
  signal: AbortSignal;
}

/**
 * A URL-mode elicitation (MCP spec 2025-11-25 and 2026-07-28, "Client > Elicitation > URL Mode"): the server
 * asks the user to open `url` for an interaction that must not pass through the client (a third-party
 * authorization, a payment, a secret). The client shows the URL (and its host) and asks for consent; it
 * never opens it unasked, and never sees what the user does there.
 */
export interface MCPUrlElicitation {
  /** The URL the user is asked to open. */
  url: string;
  /** The server's explanation of why. */
  message: string;
  /**
   * The server's identifier for the elicitation (2025-11-25: in `elicitation/create` and in each entry of a
   * -32042 error, echoed by `notifications/elicitation/complete`). Absent in 2026-07-28, which correlates
   * through `requestState` instead.
   */
  elicitationId?: string;
}

/** The user's answer to a URL elicitation: consent to open it, a refusal, or a dismissal. */
export type MCPUrlElicitationAction = 'accept' | 'decline' | 'cancel';

/** Handlers for server-initiated requests; each one present declares its capability in `initialize`. */
export interface MCPServerRequestHandlers {
  /**
   * Answers `sampling/createMessage` with the host's model (declares `sampling`); in 2026-07-28 also the
   * sampling requests of `input_required` rounds. Sampling is deprecated in MCP 2026-07-28 (changelog,
   * "Deprecated"; still fully functional, and supported here).
   */
  onSampling?: (params: CreateMessageParams, context: ServerRequestContext) => Promise<CreateMessageResult>;
  /**
   * Answers `elicitation/create` (declares `elicitation.form`). For an accepted form, fields the handler
   * leaves out are filled from the `default`s in `requestedSchema`.
   */
  onElicitation?: (params: ElicitParams, context: ServerRequestContext) => Promise<ElicitResult>;
  /**
   * Answers URL-mode elicitations (declares `elicitation.url`): an `elicitation/create` of mode `url` (a
   * server request in 2025-11-25, an `input_required` round in 2026-07-28), and each entry of a -32042 "URL
   * elicitation required" error, after which the failed request is sent once more when every entry was
   * accepted. `'accept'` means the user consented (and, for a -32042, finished the interaction: the request
   * is retried when the handler returns). Without it, a -32042 fails the request with `MCPCallError` kind
   * `jsonrpc`, `code` -32042, the URLs in its message and `data.elicitations`.
   */
  onUrlElicitation?: (
    elicitation: MCPUrlElicitation,
    context: ServerRequestContext,
  ) => Promise<MCPUrlElicitationAction>;
  /**
   * Told of `notifications/elicitation/complete` for an elicitation `onUrlElicitation` accepted (MCP spec
   * 2025-11-25, "Elicitation > Completion Notifications"); notifications for unknown or already completed
   * ids are ignored. 2026-07-28 has no such notification.
   */
  onUrlElicitationComplete?: (elicitationId: string, context: { server: string }) => void;
  /**
   * The connections on which `onUrlElicitation` is declared: `'all'` (default), or `'2026-07-28'`, where it
   * is declared in each 2026-07-28 request's `_meta` (MCP spec 2026-07-28, "Client > Elicitation >
   * Capabilities") and a 2025-era connection goes as without the handler (no `elicitation.url` in
   * `initialize`; a -32042 fails the request naming its URLs). For a host that cannot ask anyone: its
   * handler can refuse naming the URL, where a 2026-07-28 server not told of the capability refuses the
   * request with -32021 naming none, and a 2025-era server sees the capabilities it always saw.
   */
  urlElicitationEras?: 'all' | '2026-07-28';
  /**
   * Roots offered to the server on `roots/list` (declares `roots.listChanged`); change with `setRoots()`.
   * Roots are deprecated in MCP 2026-07-28 (changelog, "Deprecated"; still fully functional, and supported
   * here).
   */
  roots?: Root[];
}

/**
 * `handlers` as a connection of one era uses them: without the URL elicitation handlers on a 2025-era one
 * (`modern` false) when `urlElicitationEras` is `'2026-07-28'`; else as given.
 */
export function eraHandlers<T extends MCPServerRequestHandlers>(handlers: T, modern: boolean): T {
  if (modern || handlers.urlElicitationEras !== '2026-07-28') return handlers;
  const { onUrlElicitation: _url, onUrlElicitationComplete: _complete, ...rest } = handlers;
  return rest as T;
}

/** The `capabilities` to declare in `initialize` for these handlers. */
export function clientCapabilities(handlers: MCPServerRequestHandlers): Record<string, object> {
  const capabilities: Record<string, object> = {};
  if (handlers.onSampling) capabilities.sampling = {};
  if (handlers.onElicitation || handlers.onUrlElicitation) {
    capabilities.elicitation = {
      ...(handlers.onElicitation && { form: {} }),
      ...(handlers.onUrlElicitation && { url: {} }),
    };
  }
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
