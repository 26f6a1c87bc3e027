/**
 * protocol/: what every room of the MCP layer speaks: wire types, errors, the JSON-RPC check, redaction.
 *
 * The MCP wire types that agentwire's public API speaks, written out here so that no SDK type leaks into
 * our signatures. Field names follow the MCP specification (2025-11-25, "Tools" and "Content").
 */
import type { JsonSchema } from '../../core/json.js';

/** Optional hints on a content block (MCP "Annotations"). */
export interface Annotations {
  audience?: ('user' | 'assistant')[];
  priority?: number;
  lastModified?: string;
}

/**
 * What a server declared it offers (MCP spec 2025-11-25 and 2026-07-28, "Lifecycle > Capability
 * Negotiation": the `capabilities` of `initialize`, or of `server/discover` in 2026-07-28). A feature is
 * offered when its key is present; the sub-flags refine it. Fields the specification adds later pass through.
 */
export interface MCPServerCapabilities {
  tools?: { listChanged?: boolean | undefined; [key: string]: unknown } | undefined;
  prompts?: { listChanged?: boolean | undefined; [key: string]: unknown } | undefined;
  resources?:
    | { subscribe?: boolean | undefined; listChanged?: boolean | undefined; [key: string]: unknown }
    | undefined;
  logging?: Record<string, unknown> | undefined;
  completions?: Record<string, unknown> | undefined;
  /** The 2025-11-25 experimental tasks (MCP spec 2025-11-25, "Basic > Utilities > Tasks"). */
  tasks?: Record<string, unknown> | undefined;
  /** Extensions the server implements, by identifier (`io.modelcontextprotocol/skills`, …), with settings. */
  extensions?: Record<string, object> | undefined;
  experimental?: Record<string, object> | undefined;
  [key: string]: unknown;
}

/** `{ type: "text" }` content. */
export interface TextContent {
  type: 'text';
  text: string;
  annotations?: Annotations;
  _meta?: Record<string, unknown>;
}

/** `{ type: "image" }` content: base64 `data` and its `mimeType`. */
export interface ImageContent {
  type: 'image';
  data: string;
  mimeType: string;
  annotations?: Annotations;
  _meta?: Record<string, unknown>;
}

/** `{ type: "audio" }` content: base64 `data` and its `mimeType`. */
export interface AudioContent {
  type: 'audio';
  data: string;
  mimeType: string;
  annotations?: Annotations;
  _meta?: Record<string, unknown>;
}

/** Contents of a resource as text. */
export interface TextResourceContents {
  uri: string;
  mimeType?: string;
  text: string;
  _meta?: Record<string, unknown>;
}

/** Contents of a resource as base64 `blob`. */
export interface BlobResourceContents {
  uri: string;
  mimeType?: string;
  blob: string;
  _meta?: Record<string, unknown>;
}

/** `{ type: "resource" }` content: a resource embedded in the result. */
export interface EmbeddedResource {
  type: 'resource';
  resource: TextResourceContents | BlobResourceContents;
  annotations?: Annotations;
  _meta?: Record<string, unknown>;
}

/** `{ type: "resource_link" }` content: a pointer to a resource the client may read. */
export interface ResourceLink {
  type: 'resource_link';
  uri: string;
  name: string;
  title?: string;
  description?: string;
  mimeType?: string;
  size?: number;
  annotations?: Annotations;
  _meta?: Record<string, unknown>;
}

/** A block type this version of agentwire does not know; kept, and named when rendered. */
export interface UnknownContent {
  type: string;
  [field: string]: unknown;
}

/** One block of a tool result's `content`. */
export type ContentBlock =
  | TextContent
  | ImageContent
  | AudioContent
  | EmbeddedResource
  | ResourceLink
  | UnknownContent;

/** The result of `tools/call` (MCP `CallToolResult`), as the server sent it. */
export interface CallToolResult {
  content: ContentBlock[];
  structuredContent?: Record<string, unknown>;
  isError?: boolean;
  _meta?: Record<string, unknown>;
  [field: string]: unknown;
}

/** Behaviour hints on a tool (MCP `ToolAnnotations`). */
export interface ToolAnnotations {
  title?: string;
  readOnlyHint?: boolean;
  destructiveHint?: boolean;
  idempotentHint?: boolean;
  openWorldHint?: boolean;
}

/** A tool as `tools/list` describes it (MCP `Tool`), unreduced. */
export interface MCPToolDefinition {
  name: string;
  title?: string;
  description?: string;
  inputSchema: JsonSchema;
  outputSchema?: JsonSchema;
  annotations?: ToolAnnotations;
  _meta?: Record<string, unknown>;
  [field: string]: unknown;
}

/** Name and version of a client or server (MCP `Implementation`). */
export interface Implementation {
  name: string;
  version: string;
  title?: string;
}

/** `notifications/progress` params, minus the token. */
export interface Progress {
  progress: number;
  total?: number;
  message?: string;
}

/** A resource the server offers (MCP `Resource`). */
export interface Resource {
  uri: string;
  name: string;
  title?: string;
  description?: string;
  mimeType?: string;
  size?: number;
  annotations?: Annotations;
  _meta?: Record<string, unknown>;
  [field: string]: unknown;
}

/** A family of resources addressed by an RFC 6570 URI template (MCP `ResourceTemplate`). */
export interface ResourceTemplate {
  uriTemplate: string;
  name: string;
  title?: string;
  description?: string;
  mimeType?: string;
  [field: string]: unknown;
}

/** `resources/read` result. */
export interface ReadResourceResult {
  contents: (TextResourceContents | BlobResourceContents)[];
  [field: string]: unknown;
}

/** A prompt template (MCP `Prompt`). */
export interface Prompt {
  name: string;
  title?: string;
  description?: string;
  arguments?: { name: string; description?: string; required?: boolean }[];
  [field: string]: unknown;
}

/** `prompts/get` result. */
export interface GetPromptResult {
  description?: string;
  messages: { role: 'user' | 'assistant'; content: ContentBlock }[];
  [field: string]: unknown;
}

/** Syslog severities used by MCP logging (`logging/setLevel`, `notifications/message`). */
export type LoggingLevel =
  | 'debug'
  | 'info'
  | 'notice'
  | 'warning'
  | 'error'
  | 'critical'
  | 'alert'
  | 'emergency';

/** A log message from the server (`notifications/message` params). */
export interface ServerLogMessage {
  level: LoggingLevel;
  logger?: string;
  data: unknown;
}

/** A root the client exposes to the server (MCP `Root`): a `file://` URI and an optional name. */
export interface Root {
  uri: string;
  name?: string;
}

/** A message in a sampling request or result. */
export interface SamplingMessage {
  role: 'user' | 'assistant';
  content: ContentBlock | ContentBlock[];
  [field: string]: unknown;
}

/** `sampling/createMessage` params: the server asks the client's model for a completion. */
export interface CreateMessageParams {
  messages: SamplingMessage[];
  systemPrompt?: string;
  maxTokens: number;
  temperature?: number;
  stopSequences?: string[];
  modelPreferences?: Record<string, unknown>;
  includeContext?: 'none' | 'thisServer' | 'allServers';
  metadata?: Record<string, unknown>;
  [field: string]: unknown;
}

/** What a sampling handler returns (MCP `CreateMessageResult`). */
export interface CreateMessageResult {
  role: 'assistant';
  content: ContentBlock | ContentBlock[];
  model: string;
  stopReason?: string;
  [field: string]: unknown;
}

/** `elicitation/create` params: the server asks the user for input matching `requestedSchema`. */
export interface ElicitParams {
  mode?: 'form' | 'url';
  message: string;
  requestedSchema?: {
    type: 'object';
    properties: Record<string, Record<string, unknown>>;
    required?: string[];
  };
  url?: string;
  elicitationId?: string;
  [field: string]: unknown;
}

/** What an elicitation handler returns (MCP `ElicitResult`). */
export interface ElicitResult {
  action: 'accept' | 'decline' | 'cancel';
  content?: Record<string, string | number | boolean | string[]>;
  [field: string]: unknown;
}
