/** The agent: one provider-neutral loop, MCP and built-in tools side by side. */
export { Agent, type AgentOptions, DEFAULT_MAX_TURNS, type RunOptions } from './agent.js';
export type { ApprovalDecision, ApproveHook, ToolCallRequest } from './approval.js';
export { AgentAbortError, AgentError, type AgentErrorKind } from './errors.js';
export type { AgentEvent, AgentEventType, AgentResult, ToolCallInfo } from './events.js';
export type { McpServerHandle, McpServerOptions } from './mcp-servers.js';
export { type RenderOptions, renderEvent } from './render.js';
export { type SamplingHandler, samplingConversation, samplingHandler } from './sampling.js';
export { mapToolNames, PROVIDER_TOOL_NAME, toProviderToolName } from './tool-names.js';
export type { ToolNamePrefixPolicy, ToolWarning } from './tool-registry.js';
