/**
 * The agent's OpenTelemetry spans, named and attributed as the GenAI semantic conventions say: a run is
 * `invoke_agent` (https://opentelemetry.io/docs/specs/semconv/gen-ai/gen-ai-agent-spans/, "Invoke agent
 * span", kind INTERNAL: the agent runs in this process), each model request `chat {model}` (gen-ai-spans/,
 * "Inference", kind CLIENT), each tool call `execute_tool {tool}` (gen-ai-spans/, "Execute tool span", kind
 * INTERNAL). MCP requests a tool makes nest below as the MCP client spans of mcp/session/mcp-span.ts.
 * Message contents, tool arguments and results are opt-in attributes of the conventions and not recorded.
 */
import { type DescribeFailure, describeByName, type SpanSpec } from '../core/telemetry.js';
import { ModelError } from '../providers/errors.js';
import type { Model, StopReason } from '../providers/model.js';
import { AgentAbortError, AgentError } from './errors.js';

/** Options of the agent's spans (`AgentOptions.telemetry`). */
export interface AgentTelemetryOptions {
  /**
   * Whether the agent makes its spans (`invoke_agent`, `chat`, `execute_tool`); they are recorded only when
   * `@opentelemetry/api` is installed and the host registered a tracer provider. Default `true`. MCP
   * client spans belong to the clients and are not affected.
   */
  enabled?: boolean;
  /** `gen_ai.agent.name`, and the `invoke_agent {name}` span name. Default: none (`invoke_agent`). */
  agentName?: string;
}

/** The span of a run; `undefined` when the agent's spans are off. */
export function agentSpan(model: Model, options: AgentTelemetryOptions | undefined): SpanSpec | undefined {
  if (options?.enabled === false) return undefined;
  const name = options?.agentName;
  return {
    name: name === undefined ? 'invoke_agent' : `invoke_agent ${name}`,
    kind: 'internal',
    attributes: {
      'gen_ai.operation.name': 'invoke_agent',
      'gen_ai.provider.name': model.provider,
      'gen_ai.request.model': model.id,
      'gen_ai.agent.name': name,
    },
  };
}

/** The span of one model request. */
export function chatSpan(
  model: Model,
  maxTokens: number | undefined,
  options: AgentTelemetryOptions | undefined,
): SpanSpec | undefined {
  if (options?.enabled === false) return undefined;
  return {
    name: `chat ${model.id}`,
    kind: 'client',
    attributes: {
      'gen_ai.operation.name': 'chat',
      'gen_ai.provider.name': model.provider,
      'gen_ai.request.model': model.id,
      'gen_ai.request.max_tokens': maxTokens,
      'gen_ai.request.stream': true,
    },
  };
}

/** The span of one tool call: `name` is the tool's own name, `callId` the model's id for the call. */
export function toolSpan(
  name: string,
  callId: string,
  options: AgentTelemetryOptions | undefined,
): SpanSpec | undefined {
  if (options?.enabled === false) return undefined;
  return {
    name: `execute_tool ${name}`,
    kind: 'internal',
    attributes: {
      'gen_ai.operation.name': 'execute_tool',
      'gen_ai.tool.name': name,
      'gen_ai.tool.call.id': callId,
      'gen_ai.tool.type': 'function',
    },
  };
}

/** `gen_ai.response.finish_reasons` of a response, in the conventions' words where they have one. */
export function finishReason(reason: StopReason): string {
  if (reason === 'end_turn') return 'stop';
  if (reason === 'max_tokens') return 'length';
  if (reason === 'tool_use') return 'tool_call';
  return 'other';
}

/**
 * `error.type` of a failed run or request: an abort is `cancelled`, a `ModelError` or `AgentError` its
 * `kind` (`timeout`, `request_failed`, `max_turns`, …), anything else its class name.
 */
export const describeAgentFailure: DescribeFailure = (error) => {
  if (error instanceof AgentAbortError) return { type: 'cancelled', description: error.message };
  if (error instanceof ModelError || error instanceof AgentError)
    return { type: error.kind, description: error.message };
  return describeByName(error);
};
