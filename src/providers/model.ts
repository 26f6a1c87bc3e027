/**
 * The one small interface every model vendor sits behind, and the provider-neutral conversation it speaks.
 * The agent loop knows only these types; each adapter (`anthropic.ts`, `openai.ts`) translates them to and
 * from its vendor's wire format. Same split as OpenAI Agents JS's `Model`, with the AbortSignal carried on
 * the request.
 */
import type { JsonSchema } from '../core/json.js';
import type { ToolOutputPart } from '../core/tool-output.js';

/** A prompt or follow-up from the user. */
export interface UserMessage {
  role: 'user';
  content: string;
}

/** Text the model produced. */
export interface TextPart {
  type: 'text';
  text: string;
}

/**
 * A tool call the model made. `name` is the model-facing name (see the agent's name mapping); `arguments`
 * is the JSON text exactly as the model produced it, which may be invalid JSON — the loop reports that
 * back to the model as an error result rather than guessing.
 */
export interface ToolCallPart {
  type: 'tool_call';
  id: string;
  name: string;
  arguments: string;
}

/** One assistant turn: text and tool calls in the order the model produced them. */
export interface AssistantMessage {
  role: 'assistant';
  content: (TextPart | ToolCallPart)[];
  /**
   * The vendor's own blocks of this turn, when it holds some `content` cannot carry (Anthropic's tool
   * search blocks); the same vendor's adapter sends them back as they are, any other uses `content`.
   */
  providerContent?: ProviderContent;
}

/** A vendor's content blocks of one assistant turn, in its own wire format. */
export interface ProviderContent {
  /** The `Model.provider` that made them. */
  provider: string;
  blocks: readonly unknown[];
}

/** The result of one tool call, as the model will see it. */
export interface ToolResult {
  toolCallId: string;
  /** Model-facing tool name (OpenAI-compatible servers and logs like to see it). */
  name: string;
  /** The rendered result, or the error message when `isError`. */
  content: string;
  /** True when the tool failed; Anthropic's `is_error`, a marked text for OpenAI. */
  isError: boolean;
  /**
   * The same result with its images and audio in place, when it has some (MCP image / audio blocks).
   * Adapters whose API takes a medium send it (scaled to the vendor's limits), and its `placeholder`
   * otherwise; adapters that know no media send `content`.
   */
  parts?: readonly ToolOutputPart[];
}

/** The results of every tool call of one assistant turn, answered together. */
export interface ToolResultsMessage {
  role: 'tool';
  results: ToolResult[];
}

/** One entry of a conversation. */
export type Message = UserMessage | AssistantMessage | ToolResultsMessage;

/** A tool as offered to the model: a valid provider name and an already-normalised input schema. */
export interface ModelToolSpec {
  name: string;
  description: string;
  inputSchema: JsonSchema;
}

/** Token counts of one model response. */
export interface Usage {
  inputTokens: number;
  outputTokens: number;
}

/**
 * Why the model stopped: `end_turn` (done), `tool_use` (waiting for tool results), `max_tokens` (cut off),
 * `other` (anything else the vendor reports, e.g. a refusal or content filter).
 */
export type StopReason = 'end_turn' | 'tool_use' | 'max_tokens' | 'other';

/** What a model adapter is asked for. */
export interface ModelRequest {
  /** System prompt; omitted when empty. */
  system?: string;
  messages: readonly Message[];
  tools: readonly ModelToolSpec[];
  /** Upper bound on output tokens for this response. Adapters default it (Anthropic requires one). */
  maxTokens?: number;
  /** Aborts the HTTP stream; the iterator then throws the vendor SDK's abort error. */
  signal?: AbortSignal;
  /**
   * Longest wait for the vendor's next stream event (from sending the request), in ms; then the request is
   * aborted and fails with a `ModelError` of kind `timeout`. `0` turns it off. Default
   * `DEFAULT_MODEL_IDLE_TIMEOUT_MS` (120 000) in the built-in adapters.
   */
  idleTimeoutMs?: number;
  /**
   * Longest time for the whole request (SDK retries and the streamed response included), in ms; then it
   * fails like an idle timeout. `0` turns it off. Default `DEFAULT_MODEL_REQUEST_TIMEOUT_MS` (600 000).
   */
  requestTimeoutMs?: number;
}

/**
 * What a model stream yields: zero or more `text_delta` events as text arrives, then exactly one
 * `response` with the whole assistant message. Tool calls are only complete in `response`.
 */
export type ModelEvent =
  | { type: 'text_delta'; text: string }
  | {
      type: 'response';
      message: AssistantMessage;
      stopReason: StopReason;
      usage?: Usage;
      /** What the vendor said of the response, when it says it (telemetry reads it). */
      info?: ResponseInfo;
    };

/** The vendor's account of one response. */
export interface ResponseInfo {
  /** The model that answered (may be a dated version of the requested id). */
  model?: string;
  /** The vendor's id of the response. */
  id?: string;
}

/**
 * A model vendor's adapter.
 *
 * `stream` must honour `request.signal` (abort the HTTP request) and throw on any failure; it never retries
 * on its own beyond what the vendor SDK is configured to do. `normalizeToolSchema` adapts a valid JSON
 * Schema to what the vendor accepts and throws a {@link SchemaConversionError} when it cannot.
 */
export interface Model {
  /** Vendor name: `anthropic`, `openai`, or a custom adapter's. */
  readonly provider: string;
  /** The model id sent to the vendor. */
  readonly id: string;
  /**
   * True when the vendor defers tool definitions itself (Anthropic's tool search, `toolSearch` of
   * `anthropic()`): the agent then offers every tool and not its own `search_tools`. Default false.
   */
  readonly defersToolLoading?: boolean;
  stream(request: ModelRequest): AsyncIterable<ModelEvent>;
  normalizeToolSchema(schema: JsonSchema): JsonSchema;
}
