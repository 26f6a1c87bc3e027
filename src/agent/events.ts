/**
 * What a run reports as it goes (`agent.prompt()`), in order: `agent_start`, then per turn `turn_start`,
 * `text_delta`s, `tool_start` / `tool_progress` / `tool_end` per tool call, `turn_end`; finally `agent_end`,
 * or `error` when the run fails. `warning`s may come at any point.
 */
import type { ToolProgress } from '../core/tool.js';
import type { AssistantMessage, Message, StopReason, Usage } from '../providers/model.js';

/** Which tool a tool event is about. */
export interface ToolCallInfo {
  /** The model's id for the call. */
  toolCallId: string;
  /** The tool's own name (an MCP tool's name on its server). */
  name: string;
  /** The name the model used (provider-valid, possibly prefixed, see the agent's name mapping). */
  modelName: string;
  /** Where the tool comes from: an MCP server's name, `builtin`, or `local`. */
  source: string;
}

/** The final result of a run (`agent.execute()`, or the `agent_end` event). */
export interface AgentResult {
  /** The text of the model's last turn. */
  text: string;
  /** The whole conversation after the run, oldest first (history kept across runs, see `agent.reset()`). */
  messages: Message[];
  /** Model turns this run took. */
  turns: number;
  /** Token use summed over the run's turns; omitted when the provider reported none. */
  usage?: Usage;
  /** Why the last turn ended. */
  stopReason: StopReason;
}

/** One event of a run. */
export type AgentEvent =
  | { type: 'agent_start'; prompt: string }
  | { type: 'turn_start'; turn: number }
  | { type: 'text_delta'; turn: number; text: string }
  | ({
      type: 'tool_start';
      turn: number;
      /** The parsed arguments; `{}` when the model's text is not a JSON object (see `rawArguments`). */
      input: Record<string, unknown>;
      /** The arguments text exactly as the model sent it, present only when it is not a JSON object. */
      rawArguments?: string;
    } & ToolCallInfo)
  | ({ type: 'tool_progress'; turn: number; progress: ToolProgress } & ToolCallInfo)
  | ({
      type: 'tool_end';
      turn: number;
      /** What the model is told: the rendered result, or the error message. */
      result: string;
      isError: boolean;
      /** Wall time of the call in ms (0 when it never started: unknown tool, bad arguments, denied). */
      durationMs: number;
    } & ToolCallInfo)
  | { type: 'turn_end'; turn: number; message: AssistantMessage; stopReason: StopReason; usage?: Usage }
  | { type: 'warning'; message: string; tool?: string }
  | { type: 'error'; error: Error }
  | { type: 'agent_end'; result: AgentResult };

/** The `type`s of {@link AgentEvent}. */
export type AgentEventType = AgentEvent['type'];
