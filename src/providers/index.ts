/** Model providers' public face: one small interface, one adapter per vendor, and the environment's pick. */
export {
  ANTHROPIC_IMAGE_LIMITS,
  type AnthropicModelOptions,
  type AnthropicToolSearch,
  anthropic,
} from './anthropic.js';
export { DEFAULT_ANTHROPIC_MODEL, DEFAULT_OPENAI_MODEL, modelFromEnv } from './env.js';
export { ModelError, type ModelErrorKind } from './errors.js';
export { DEFAULT_MODEL_IDLE_TIMEOUT_MS, DEFAULT_MODEL_REQUEST_TIMEOUT_MS } from './guarded-stream.js';
export type { ImageLimits, ImageOptions } from './media.js';
export type {
  AssistantMessage,
  Message,
  Model,
  ModelEvent,
  ModelRequest,
  ModelToolSpec,
  ProviderContent,
  ResponseInfo,
  StopReason,
  TextPart,
  ToolCallPart,
  ToolResult,
  ToolResultsMessage,
  Usage,
  UserMessage,
} from './model.js';
export { OPENAI_IMAGE_LIMITS, type OpenAIModelOptions, openai } from './openai.js';
export { SchemaConversionError } from './schema.js';
