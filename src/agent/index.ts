/**
 * The agent's public face: one provider-neutral loop, MCP and built-in tools side by side, its options,
 * events, errors, and the pieces a host wires up itself (approval hook, sampling handler, event rendering).
 */
export { Agent, type AgentOptions, type RunOptions } from './agent.js';
export type { ApprovalDecision, ApproveHook, ToolCallRequest } from './approval.js';
export { AgentAbortError, AgentError, type AgentErrorKind } from './errors.js';
export type { AgentEvent, AgentEventType, AgentResult, ToolCallInfo } from './events.js';
export type { McpServerHandle, McpServerOptions } from './mcp-servers.js';
export { PROVIDER_MAX_TOOLS } from './provider-limits.js';
export { type RenderOptions, renderEvent } from './render.js';
export { DEFAULT_MAX_TOOL_RESULT_BYTES } from './result-budget.js';
export { type SamplingHandler, samplingHandler } from './sampling.js';
export { DEFAULT_MAX_SERVER_INSTRUCTIONS_BYTES } from './system-prompt.js';
export type { AgentTelemetryOptions } from './telemetry.js';
export type { ToolNamePrefixPolicy, ToolWarning } from './tool-registry.js';
export { DEFAULT_TOOL_SEARCH_THRESHOLD } from './tool-search.js';
