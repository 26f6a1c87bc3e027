/**
 * OpenAI Chat Completions adapter (`openai`, imported on the first request): streaming, tool calls. With
 * `baseURL` it talks to any OpenAI-compatible server (Ollama, llama.cpp, vLLM).
 */
import type OpenAI from 'openai';
import type { JsonSchema } from '../core/json.js';
import { ModelError } from './errors.js';
import { guardedStream } from './guarded-stream.js';
import type {
  AssistantMessage,
  Message,
  Model,
  ModelEvent,
  ModelRequest,
  ModelToolSpec,
  StopReason,
  TextPart,
  ToolCallPart,
  Usage,
} from './model.js';
import { normalizeSchema } from './schema.js';
import { lazyClient, loadSdk } from './sdk.js';

/** Options of {@link openai}. */
export interface OpenAIModelOptions {
  /** Model id, e.g. `gpt-4.1`, or a local model's name (`llama3.1`). */
  model: string;
  /**
   * Defaults to the `OPENAI_API_KEY` environment variable. Local servers ignore it; when neither is set,
   * a placeholder is sent so that a `baseURL` alone is enough.
   */
  apiKey?: string;
  /** Defaults to `OPENAI_BASE_URL` (read at the first request), else `https://api.openai.com/v1`. */
  baseURL?: string;
  /** `max_completion_tokens` when the request sets none. Default: unset (the server's default). */
  maxTokens?: number;
  /** SDK retries. Default 2 (the SDK's). */
  maxRetries?: number;
  /** SDK request timeout in ms. Default: the SDK's (10 minutes). */
  timeoutMs?: number;
  /** Ask for token usage in the stream (`stream_options.include_usage`). Default true. */
  includeUsage?: boolean;
}

/**
 * Creates a {@link Model} for OpenAI Chat Completions or an OpenAI-compatible server. The SDK (an optional
 * peer dependency) is imported on the first request; when it is not installed, that request fails with a
 * `ModelError` of kind `not_configured` naming the package.
 */
export function openai(options: OpenAIModelOptions): Model {
  return new OpenAIModel(options);
}

type Chunk = OpenAI.Chat.Completions.ChatCompletionChunk;

class OpenAIModel implements Model {
  readonly provider = 'openai';
  readonly id: string;
  readonly #options: OpenAIModelOptions;
  /** Read when the model is created, as the SDK would read it when its client is. */
  readonly #apiKey: string;

  constructor(options: OpenAIModelOptions) {
    this.id = options.model;
    this.#options = { ...options };
    this.#apiKey = options.apiKey ?? process.env.OPENAI_API_KEY ?? 'not-needed';
  }

  /** The SDK client, created on first use (see {@link lazyClient}). */
  readonly #sdkClient = lazyClient(async () => {
    const options = this.#options;
    const Sdk = await loadSdk('openai');
    return new Sdk({
      apiKey: this.#apiKey,
      ...(options.baseURL === undefined ? {} : { baseURL: options.baseURL }),
      ...(options.maxRetries === undefined ? {} : { maxRetries: options.maxRetries }),
      ...(options.timeoutMs === undefined ? {} : { timeout: options.timeoutMs }),
    });
  });

  normalizeToolSchema(schema: JsonSchema): JsonSchema {
    return normalizeSchema(schema, 'openai');
  }

  async *stream(request: ModelRequest): AsyncIterable<ModelEvent> {
    const maxTokens = request.maxTokens ?? this.#options.maxTokens;
    yield* guardedStream(
      this.provider,
      request,
      async (signal) =>
        (await this.#sdkClient()).chat.completions.create(
          {
            model: this.id,
            messages: toOpenAIMessages(request.system, request.messages),
            stream: true,
            ...(this.#options.includeUsage === false ? {} : { stream_options: { include_usage: true } }),
            ...(maxTokens === undefined ? {} : { max_completion_tokens: maxTokens }),
            ...(request.tools.length > 0 ? { tools: request.tools.map(toOpenAITool) } : {}),
          },
          { signal },
        ),
      readStream,
    );
  }
}

/** Accumulates the chunks of one streamed completion; tool call fragments are joined by `index`. */
async function* readStream(chunks: AsyncIterable<Chunk>): AsyncIterable<ModelEvent> {
  let text = '';
  const calls = new Map<number, ToolCallPart>();
  let finish: string | null = null;
  let usage: Usage | undefined;
  let sawChunk = false;
  for await (const chunk of chunks) {
    sawChunk = true;
    if (chunk.usage)
      usage = { inputTokens: chunk.usage.prompt_tokens, outputTokens: chunk.usage.completion_tokens };
    const choice = chunk.choices[0];
    if (!choice) continue;
    if (choice.delta.content) {
      text += choice.delta.content;
      yield { type: 'text_delta', text: choice.delta.content };
    }
    for (const fragment of choice.delta.tool_calls ?? []) {
      const call = calls.get(fragment.index) ?? { type: 'tool_call', id: '', name: '', arguments: '' };
      if (fragment.id) call.id = fragment.id;
      if (fragment.function?.name) call.name += fragment.function.name;
      if (fragment.function?.arguments) call.arguments += fragment.function.arguments;
      calls.set(fragment.index, call);
    }
    if (choice.finish_reason) finish = choice.finish_reason;
  }
  if (!sawChunk)
    throw new ModelError('bad_response', 'openai stream ended without a chunk', { provider: 'openai' });
  const toolCalls = [...calls.entries()].sort(([a], [b]) => a - b).map(([, call]) => call);
  const content: (TextPart | ToolCallPart)[] = text === '' ? [] : [{ type: 'text', text }];
  content.push(...toolCalls.map((call, i) => (call.id ? call : { ...call, id: `call_${i}` })));
  const message: AssistantMessage = { role: 'assistant', content };
  const stopReason = toStopReason(finish, toolCalls.length > 0);
  yield usage === undefined
    ? { type: 'response', message, stopReason }
    : { type: 'response', message, stopReason, usage };
}

/** Some compatible servers omit `finish_reason`; the presence of tool calls then decides. */
function toStopReason(finish: string | null, hasToolCalls: boolean): StopReason {
  if (finish === 'tool_calls' || finish === 'function_call') return 'tool_use';
  if (finish === 'length') return 'max_tokens';
  if (finish === 'stop') return hasToolCalls ? 'tool_use' : 'end_turn';
  if (finish === null) return hasToolCalls ? 'tool_use' : 'end_turn';
  return 'other';
}

function toOpenAITool(tool: ModelToolSpec): OpenAI.Chat.Completions.ChatCompletionTool {
  return {
    type: 'function',
    function: { name: tool.name, description: tool.description, parameters: tool.inputSchema },
  };
}

function toOpenAIMessages(
  system: string | undefined,
  messages: readonly Message[],
): OpenAI.Chat.Completions.ChatCompletionMessageParam[] {
  const out: OpenAI.Chat.Completions.ChatCompletionMessageParam[] = system
    ? [{ role: 'system', content: system }]
    : [];
  for (const message of messages) {
    if (message.role === 'user') out.push({ role: 'user', content: message.content });
    else if (message.role === 'tool') {
      // Chat Completions has no error flag on tool messages; the text says it.
      for (const r of message.results) {
        out.push({
          role: 'tool',
          tool_call_id: r.toolCallId,
          content: r.isError ? `Error: ${r.content}` : r.content,
        });
      }
    } else {
      const text = message.content.flatMap((p) => (p.type === 'text' ? [p.text] : [])).join('');
      const toolCalls = message.content.flatMap((p) =>
        p.type === 'tool_call'
          ? [
              {
                id: p.id,
                type: 'function' as const,
                function: { name: p.name, arguments: p.arguments || '{}' },
              },
            ]
          : [],
      );
      out.push({
        role: 'assistant',
        content: text === '' ? null : text,
        ...(toolCalls.length > 0 ? { tool_calls: toolCalls } : {}),
      });
    }
  }
  return out;
}
