/**
 * The MCP client layer's public face: the clients, their options, events and errors, configuration files,
 * result rendering, and the MCP wire types those signatures speak. Everything else under `mcp/` is internal.
 */

export {
  renderCallToolResult,
  renderCallToolResultText,
  renderContentBlock,
} from './adapter/content.js';
export { IDEMPOTENCY_KEY_META_KEY } from './adapter/idempotency-key.js';
export { MCPTool } from './adapter/mcp-tool.js';
export type { MCPFormatResultContext, MCPFormatResultHook } from './adapter/present-result.js';
export {
  MCPAuthConfigError,
  type MCPAuthConfigErrorDetails,
  type MCPAuthConfigProblem,
} from './auth/auth-config-error.js';
// Authorization without a browser: client credentials, JWT bearer (workload identity), enterprise-managed.
export type {
  MCPClientCredentialsAuth,
  MCPEnterpriseAuth,
  MCPEnterpriseIdp,
  MCPGrantContext,
  MCPHttpAuth,
  MCPJwtBearerAuth,
  MCPSecretSource,
  MCPTokenEndpointAuthMethod,
} from './auth/auth-grant.js';
export {
  MCPOAuthGrantError,
  type MCPOAuthGrantErrorDetails,
  type MCPOAuthGrantType,
} from './auth/grant-error.js';
export { MCPClient } from './client/client.js';
export type { MCPCompleteParams, MCPCompletion } from './client/completion.js';
export type { MCPConnectOptions } from './client/connect-attempt.js';
export { createClient, type MCPCreateClientOptions } from './client/create-client.js';
export { MCPClientEvent, type MCPClientEvents, type MCPClientLogEntry } from './client/events.js';
export type {
  MCPAfterResultHook,
  MCPBeforeRequestHook,
  MCPBeforeRetryHook,
  MCPHttpOutgoingRequest,
  MCPOutgoingRequest,
  MCPRetry,
  MCPStdioOutgoingRequest,
  MCPTaskCreatedHook,
  MCPWireHook,
} from './client/hooks/hook-types.js';
export type {
  MCPClientHooks,
  MCPClientOptions,
  MCPClientState,
  MCPRequestOptions,
} from './client/options.js';
export type { MCPReconnectOptions } from './client/reconnect.js';
// Skills (MCP Skills extension, SEP-2640)
export type { MCPSkill, MCPSkillFileEntry } from './client/skill-entries.js';
export {
  MCPSkillNotFoundError,
  MCPSkillVerificationError,
  type MCPSkillVerificationReason,
} from './client/skill-errors.js';
export type { MCPSkillFile } from './client/skill-verify.js';
export type { MCPLoadedSkill } from './client/skills.js';
export type { MCPTaskCall } from './client/task-calls.js';
export type { MCPWireMessage } from './client/wire-tap.js';
export type { MCPHttpServerEntry, MCPServerEntry, MCPStdioServerEntry } from './config/entry.js';
export {
  getServerEntry,
  loadServerConfig,
  type MCPConfigWarning,
  type MCPInvalidServerEntry,
  type MCPLoadConfigOptions,
  type MCPServerConfig,
  parseServerConfig,
} from './config/load.js';
export type {
  MCPHeadersFunction,
  MCPRequestContext,
  MCPTokenSupplier,
  MCPTokens,
} from './config/request-context.js';
export type { MCPDpopOption, MCPHttpServer, MCPStdioServer } from './config/server-spec.js';
export { type MCPToolFilter, toolFilter } from './config/tool-filter.js';
export {
  MCPCallError,
  type MCPCallErrorChanges,
  type MCPCallErrorDetails,
  type MCPCallErrorKind,
  MCPConfigError,
  type MCPConfigErrorDetails,
  MCPError,
  MCPServerUrlError,
  type MCPServerUrlProblem,
  MCPToolError,
} from './protocol/errors.js';
export type { MCPTask, MCPTaskStatus, MCPTaskSupport } from './protocol/tasks.js';
export type {
  Annotations,
  AudioContent,
  BlobResourceContents,
  CallToolResult,
  ContentBlock,
  CreateMessageParams,
  CreateMessageResult,
  ElicitParams,
  ElicitResult,
  EmbeddedResource,
  GetPromptResult,
  ImageContent,
  Implementation,
  LoggingLevel,
  MCPServerCapabilities,
  MCPToolDefinition,
  Progress,
  Prompt,
  ReadResourceResult,
  Resource,
  ResourceLink,
  ResourceTemplate,
  Root,
  SamplingMessage,
  ServerLogMessage,
  TextContent,
  TextResourceContents,
  ToolAnnotations,
  UnknownContent,
} from './protocol/types.js';
export { MCPLazyTool } from './servers/lazy-tool.js';
export {
  type MCPLazyServerOptions,
  MCPPrefixedTool,
  type MCPServerConnectResult,
  type MCPServerStatus,
  MCPServers,
  type MCPServersConfigOptions,
  type MCPServersEvents,
  type MCPServersToolOptions,
} from './servers/servers.js';
export { type MCPToolListCache, MCPToolListFileCache, toolListCacheKey } from './servers/tool-list-cache.js';
export type {
  MCPCallOptionsContext,
  MCPCallOptionsHook,
  MCPCallOptionsSource,
  MCPToolCallOptions,
} from './session/call-options.js';
export type {
  MCPServerRequestHandlers,
  MCPUrlElicitation,
  MCPUrlElicitationAction,
  ServerRequestContext,
} from './session/engine/server-requests.js';
export type {
  MCPProtocolVersion,
  MCPProtocolVersionOption,
} from './session/negotiation/protocol-versions.js';
export type { MCPTaskPassThrough } from './session/tasks/tasks-passthrough.js';
export type { AuthorizationCallback } from './transports/http/auth.js';
export {
  OAuthFileStore,
  type OAuthStoredClient,
  type OAuthStoredLogin,
  OAuthStoreError,
  type OAuthStoreProblem,
} from './transports/http/oauth-file-store.js';
export {
  StoredOAuthClientProvider,
  type StoredOAuthClientProviderOptions,
} from './transports/http/stored-oauth-provider.js';
