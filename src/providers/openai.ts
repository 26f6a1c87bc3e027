/**
 * OpenAI Chat Completions adapter (`openai`, imported on the first request): streaming, tool calls. With
 * `baseURL` it talks to any OpenAI-compatible server (Ollama, llama.cpp, vLLM).
 *
 * Images of tool results: a Chat Completions `tool` message takes text only (OpenAI API reference, "Chat
 * Completions > Create > messages > Tool message": `content` is a string or an array of text parts), while
 * a `user` message takes `image_url` parts with base64 data URLs (OpenAI docs, "Images and vision"). So the
 * tool messages say where each image went, and one `user` message after the turn's tool messages carries
 * them, each after a text naming its tool call. A text-only model behind a compatible server may refuse
 * image parts: `sendImages: false` then sends the placeholders only.
 */
import type OpenAI from 'openai';
import type { JsonSchema } from '../core/json.js';
import { ModelError } from './errors.js';
import { guardedStream } from './guarded-stream.js';
import {
  type ImageLimits,
  type ImageOptions,
  imageLimits,
  type PreparedImages,
  prepareImages,
} from './media.js';
import type {
  AssistantMessage,
  Message,
  Model,
  ModelEvent,
  ModelRequest,
  ModelToolSpec,
  ResponseInfo,
  StopReason,
  TextPart,
  ToolCallPart,
  ToolResult,
  Usage,
} from './model.js';
import { normalizeSchema } from './schema.js';
import { lazyClient, loadSdk } from './sdk.js';

/**
 * Chat Completions' image limits (OpenAI docs, "Images and vision > Image input requirements"): PNG, JPEG,
 * WebP and non-animated GIF, 20 MB per image, 500 images and 50 MB of image bytes per request; with
 * `detail: "high"` an image is first scaled to fit 2048 × 2048. The defaults: 20 000 000 bytes, 2048 px,
 * the 50 newest images and 50 000 000 bytes of them per request.
 */
export const OPENAI_IMAGE_LIMITS: Readonly<ImageLimits> = {
  sendImages: true,
  maxImageBytes: 20_000_000,
  maxImageDimensionPx: 2048,
  maxImagesPerRequest: 50,
  maxImageBytesPerRequest: 50_000_000,
  mimeTypes: ['image/png', 'image/jpeg', 'image/webp', 'image/gif'],
};

/** Options of {@link openai}; images of tool results: see {@link OPENAI_IMAGE_LIMITS} for defaults. */
export interface OpenAIModelOptions extends ImageOptions {
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
  readonly #images: ImageLimits;

  constructor(options: OpenAIModelOptions) {
    this.id = options.model;
    this.#options = { ...options };
    this.#images = imageLimits(options, OPENAI_IMAGE_LIMITS);
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
            messages: toOpenAIMessages(
              request.system,
              request.messages,
              await prepareImages(request.messages, this.#images),
            ),
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
  const info: ResponseInfo = {};
  for await (const chunk of chunks) {
    sawChunk = true;
    if (chunk.model) info.model = chunk.model;
    if (chunk.id) info.id = chunk.id;
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
    ? { type: 'response', message, stopReason, info }
    : { type: 'response', message, stopReason, usage, info };
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
  images: PreparedImages,
): OpenAI.Chat.Completions.ChatCompletionMessageParam[] {
  const out: OpenAI.Chat.Completions.ChatCompletionMessageParam[] = system
    ? [{ role: 'system', content: system }]
    : [];
  for (const message of messages) {
    if (message.role === 'user') out.push({ role: 'user', content: message.content });
    else if (message.role === 'tool') {
      // Chat Completions has no error flag on tool messages; the text says it.
      const attached: OpenAI.Chat.Completions.ChatCompletionContentPart[] = [];
      for (const r of message.results) {
        const sends = r.parts?.some((p) => p.type === 'image' && images.has(p)) === true;
        const content = sends ? resultText(r, images, attached) : r.content;
        out.push({
          role: 'tool',
          tool_call_id: r.toolCallId,
          content: r.isError ? `Error: ${content}` : content,
        });
      }
      if (attached.length > 0) out.push({ role: 'user', content: attached });
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

/**
 * A result's text for its tool message: each image sent is announced there and added to `attached` (the
 * parts of the user message that follows the tool messages), numbered across the turn; audio and images
 * left out of the request are their placeholder.
 */
function resultText(
  result: ToolResult,
  images: PreparedImages,
  attached: OpenAI.Chat.Completions.ChatCompletionContentPart[],
): string {
  return (result.parts ?? [])
    .map((part) => {
      if (part.type === 'text') return part.text;
      const image = part.type === 'image' ? images.get(part) : undefined;
      if (image === undefined) return part.placeholder;
      const n = attached.length / 2 + 1;
      attached.push(
        {
          type: 'text',
          text: `Image ${n}, from the result of ${result.name} (tool call ${result.toolCallId}):`,
        },
        { type: 'image_url', image_url: { url: `data:${image.mimeType};base64,${image.data}` } },
      );
      return `[image ${n}: in the user message after the tool results]`;
    })
    .join('\n');
}
