/**
 * Anthropic Messages API adapter (`@anthropic-ai/sdk`, imported on the first request): streaming, tool use,
 * `is_error` tool results, images of tool results as `image` blocks inside the `tool_result` (Anthropic
 * docs, "Tool use > Handling tool results": `content` may be a list of text and image blocks).
 */
import type Anthropic from '@anthropic-ai/sdk';
import type { JsonSchema } from '../core/json.js';
import {
  deferredTools,
  keptContent,
  providerContent,
  type StreamedBlock,
  serverBlock,
} from './anthropic-tool-search.js';
import { ModelError } from './errors.js';
import { guardedStream } from './guarded-stream.js';
import { parseToolArguments } from './json-args.js';
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
 * The Messages API's image limits (Anthropic docs, "Vision > Limitations" and "API errors"): 5 MB of base64
 * per image, 8000 px per edge (2000 px once a request holds more than 20 images), 100 images and 32 MB per
 * request; JPEG, PNG, GIF, WebP. The defaults stay inside them: 3 932 160 decoded bytes (5 MiB of base64),
 * 1568 px (the longest edge the docs advise; the API scales larger ones down itself), the 20 newest
 * images and 15 MiB of them (20 MiB of base64) per request.
 */
export const ANTHROPIC_IMAGE_LIMITS: Readonly<ImageLimits> = {
  sendImages: true,
  maxImageBytes: 3_932_160,
  maxImageDimensionPx: 1568,
  maxImagesPerRequest: 20,
  maxImageBytesPerRequest: 15_728_640,
  mimeTypes: ['image/jpeg', 'image/png', 'image/gif', 'image/webp'],
};

/** Which of Anthropic's tool search tools: BM25 ranking of natural-language queries, or regular expressions. */
export type AnthropicToolSearch = 'bm25' | 'regex';

/** Options of {@link anthropic}; images of tool results: see {@link ANTHROPIC_IMAGE_LIMITS} for defaults. */
export interface AnthropicModelOptions extends ImageOptions {
  /** Model id, e.g. `claude-sonnet-5`. */
  model: string;
  /** Defaults to the `ANTHROPIC_API_KEY` environment variable (read by the SDK, at the first request). */
  apiKey?: string;
  /** Defaults to `ANTHROPIC_BASE_URL` (read at the first request), else `https://api.anthropic.com`. */
  baseURL?: string;
  /** `max_tokens` of each request when the request does not set one. Default 4096. */
  maxTokens?: number;
  /** SDK retries on 408/409/429/5xx and connection errors. Default 2 (the SDK's). */
  maxRetries?: number;
  /** SDK request timeout in ms. Default: the SDK's (10 minutes). */
  timeoutMs?: number;
  /**
   * Anthropic's own tool search (Anthropic docs, "Tool use > Tool search tool"): every tool is sent with
   * `defer_loading: true` beside the server tool `tool_search_tool_bm25` (`'bm25'`) or
   * `tool_search_tool_regex` (`'regex'`), and the API loads the definitions the model finds. An agent
   * with such a model offers every tool, without its own `search_tools`. Default: off.
   */
  toolSearch?: AnthropicToolSearch;
  /** With `toolSearch`: the tools (model-facing names) sent without `defer_loading`. Default: none. */
  loadedTools?: readonly string[];
}

/**
 * Creates a {@link Model} for the Anthropic Messages API. The SDK (an optional peer dependency) is imported
 * on the first request; when it is not installed, that request fails with a `ModelError` of kind
 * `not_configured` naming the package.
 */
export function anthropic(options: AnthropicModelOptions): Model {
  return new AnthropicModel(options);
}

type Stream = AsyncIterable<Anthropic.Messages.RawMessageStreamEvent>;

class AnthropicModel implements Model {
  readonly provider = 'anthropic';
  readonly id: string;
  readonly #options: AnthropicModelOptions;
  readonly #maxTokens: number;
  readonly #images: ImageLimits;
  readonly defersToolLoading: boolean;
  readonly #loadedTools: ReadonlySet<string>;

  constructor(options: AnthropicModelOptions) {
    this.id = options.model;
    this.defersToolLoading = options.toolSearch !== undefined;
    this.#loadedTools = new Set(options.loadedTools);
    this.#options = { ...options };
    this.#maxTokens = options.maxTokens ?? 4096;
    this.#images = imageLimits(options, ANTHROPIC_IMAGE_LIMITS);
  }

  /** The SDK client, created on first use (see {@link lazyClient}). */
  readonly #sdkClient = lazyClient(async () => {
    const options = this.#options;
    const Sdk = await loadSdk('anthropic');
    return new Sdk({
      ...(options.apiKey === undefined ? {} : { apiKey: options.apiKey }),
      ...(options.baseURL === undefined ? {} : { baseURL: options.baseURL }),
      ...(options.maxRetries === undefined ? {} : { maxRetries: options.maxRetries }),
      ...(options.timeoutMs === undefined ? {} : { timeout: options.timeoutMs }),
    });
  });

  normalizeToolSchema(schema: JsonSchema): JsonSchema {
    return normalizeSchema(schema, 'anthropic');
  }

  async *stream(request: ModelRequest): AsyncIterable<ModelEvent> {
    yield* guardedStream(
      this.provider,
      request,
      async (signal) =>
        (await this.#sdkClient()).messages.create(
          {
            model: this.id,
            max_tokens: request.maxTokens ?? this.#maxTokens,
            messages: toAnthropicMessages(
              request.messages,
              await prepareImages(request.messages, this.#images),
            ),
            stream: true,
            ...(request.system ? { system: request.system } : {}),
            ...(request.tools.length > 0 ? { tools: this.#tools(request.tools) } : {}),
          },
          { signal },
        ),
      readStream,
    );
  }

  #tools(tools: readonly ModelToolSpec[]): Anthropic.Messages.ToolUnion[] {
    const search = this.#options.toolSearch;
    const out = tools.map(toAnthropicTool);
    return search === undefined ? out : deferredTools(out, search, this.#loadedTools);
  }
}

/** Accumulates the SSE events of one response (Anthropic "Streaming Messages"). */
async function* readStream(events: Stream): AsyncIterable<ModelEvent> {
  const blocks = new Map<number, StreamedBlock>();
  const usage: Usage = { inputTokens: 0, outputTokens: 0 };
  const info: ResponseInfo = {};
  let stopReason: StopReason = 'other';
  let stopped = false;
  for await (const event of events) {
    switch (event.type) {
      case 'message_start':
        usage.inputTokens = event.message.usage.input_tokens;
        usage.outputTokens = event.message.usage.output_tokens;
        info.model = event.message.model;
        info.id = event.message.id;
        break;
      case 'content_block_start': {
        const block = event.content_block;
        if (block.type === 'text') blocks.set(event.index, { type: 'text', text: block.text });
        const server = serverBlock(block);
        if (server) blocks.set(event.index, server);
        if (block.type === 'tool_use') {
          blocks.set(event.index, {
            type: 'tool_call',
            kind: 'tool',
            id: block.id,
            name: block.name,
            arguments: '',
          });
        }
        break;
      }
      case 'content_block_delta': {
        const block = blocks.get(event.index);
        if (event.delta.type === 'text_delta' && block?.type === 'text') {
          block.text += event.delta.text;
          yield { type: 'text_delta', text: event.delta.text };
        }
        if (event.delta.type === 'input_json_delta' && block?.type === 'tool_call') {
          block.arguments += event.delta.partial_json;
        }
        if (event.delta.type === 'input_json_delta' && block?.type === 'server_tool_use')
          block.input += event.delta.partial_json;
        break;
      }
      case 'message_delta':
        stopReason = toStopReason(event.delta.stop_reason);
        usage.outputTokens = event.usage.output_tokens;
        if (typeof event.usage.input_tokens === 'number') usage.inputTokens = event.usage.input_tokens;
        break;
      case 'message_stop':
        stopped = true;
        break;
    }
  }
  if (!stopped) throw new ModelError('bad_response', 'anthropic stream ended before message_stop');
  yield { type: 'response', message: toAssistantMessage(blocks), stopReason, usage, info };
}

function toAssistantMessage(blocks: Map<number, StreamedBlock>): AssistantMessage {
  const ordered = [...blocks.entries()].sort(([a], [b]) => a - b).map(([, block]) => block);
  const content = ordered.flatMap((block): (TextPart | ToolCallPart)[] => {
    if (block.type === 'text') return [block];
    if (block.type !== 'tool_call') return [];
    return [{ type: 'tool_call', id: block.id, name: block.name, arguments: block.arguments }];
  });
  const kept = providerContent(ordered);
  return kept === undefined
    ? { role: 'assistant', content }
    : { role: 'assistant', content, providerContent: kept };
}

function toStopReason(reason: string | null): StopReason {
  if (reason === 'end_turn' || reason === 'stop_sequence') return 'end_turn';
  if (reason === 'tool_use') return 'tool_use';
  if (reason === 'max_tokens') return 'max_tokens';
  return 'other';
}

function toAnthropicTool(tool: ModelToolSpec): Anthropic.Messages.Tool {
  return {
    name: tool.name,
    description: tool.description,
    input_schema: tool.inputSchema as Anthropic.Messages.Tool.InputSchema,
  };
}

function toAnthropicMessages(
  messages: readonly Message[],
  images: PreparedImages,
): Anthropic.Messages.MessageParam[] {
  return messages.map((message): Anthropic.Messages.MessageParam => {
    if (message.role === 'user') return { role: 'user', content: message.content };
    if (message.role === 'tool') {
      return {
        role: 'user',
        content: message.results.map((r) => ({
          type: 'tool_result',
          tool_use_id: r.toolCallId,
          content: toResultContent(r, images),
          is_error: r.isError,
        })),
      };
    }
    const kept = keptContent(message.providerContent);
    if (kept) return { role: 'assistant', content: kept };
    // Anthropic rejects empty text blocks, which a turn made only of tool calls can leave behind.
    const content = message.content
      .filter((part) => part.type !== 'text' || part.text !== '')
      .map(
        (part): Anthropic.Messages.ContentBlockParam =>
          part.type === 'text'
            ? { type: 'text', text: part.text }
            : {
                type: 'tool_use',
                id: part.id,
                name: part.name,
                input: parseToolArguments(part.arguments) ?? {},
              },
      );
    return { role: 'assistant', content };
  });
}

type ResultBlock = Anthropic.Messages.TextBlockParam | Anthropic.Messages.ImageBlockParam;

/**
 * A result's parts as `tool_result` content: text blocks (adjacent texts joined, empty ones dropped, as the
 * API refuses them) and image blocks; audio, which the API does not take, and images left out of the
 * request become their placeholder text.
 */
function toResultContent(result: ToolResult, images: PreparedImages): string | ResultBlock[] {
  // Without an image to send, the text as before: `content` already renders every part as text.
  if (!result.parts?.some((p) => p.type === 'image' && images.has(p))) return result.content;
  const blocks: ResultBlock[] = [];
  const addText = (text: string) => {
    const last = blocks.at(-1);
    if (last?.type === 'text') last.text = `${last.text}\n${text}`;
    else blocks.push({ type: 'text', text });
  };
  for (const part of result.parts) {
    const image = part.type === 'image' ? images.get(part) : undefined;
    if (image) {
      const media_type = image.mimeType as Anthropic.Messages.Base64ImageSource['media_type'];
      blocks.push({ type: 'image', source: { type: 'base64', media_type, data: image.data } });
    } else addText(part.type === 'text' ? part.text : part.placeholder);
  }
  return blocks.filter((b) => b.type !== 'text' || b.text !== '');
}
