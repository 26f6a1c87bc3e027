/**
 * Answers an MCP server's `sampling/createMessage` with the agent's own model (MCP spec 2025-11-25,
 * "Client Features > Sampling"). The server's
 * messages become a provider-neutral conversation, the model is asked without tools, and its text is the
 * result. Non-text blocks in the request reach the model as the same placeholders tool results use.
 */
import {
  type ContentBlock,
  type CreateMessageParams,
  type CreateMessageResult,
  renderContentBlock,
  type ServerRequestContext,
} from '../mcp/index.js';
import type { AssistantMessage, Message, Model, StopReason } from '../providers/model.js';

/** A handler for `MCPClientOptions.onSampling`. */
export type SamplingHandler = (
  params: CreateMessageParams,
  context: ServerRequestContext,
) => Promise<CreateMessageResult>;

const STOP_REASONS: Record<StopReason, string> = {
  end_turn: 'endTurn',
  max_tokens: 'maxTokens',
  tool_use: 'toolUse',
  other: 'other',
};

function textOf(content: ContentBlock | ContentBlock[]): string {
  return (Array.isArray(content) ? content : [content]).map(renderContentBlock).join('\n');
}

/** The server's messages as a conversation; consecutive messages of one role are joined (vendors require turns to alternate). */
export function samplingConversation(params: CreateMessageParams): Message[] {
  const messages: Message[] = [];
  for (const message of params.messages) {
    const text = textOf(message.content);
    const last = messages.at(-1);
    if (message.role === 'user') {
      if (last?.role === 'user') last.content = `${last.content}\n\n${text}`;
      else messages.push({ role: 'user', content: text });
    } else if (last?.role === 'assistant') {
      last.content.push({ type: 'text', text });
    } else {
      messages.push({ role: 'assistant', content: [{ type: 'text', text }] });
    }
  }
  return messages;
}

/**
 * A sampling handler backed by `model`: `MCPClient.fromStdio(server, { onSampling: samplingHandler(model) })`.
 * `maxTokens` and `systemPrompt` come from the server's request; the server's cancellation aborts the model
 * stream. Agents attach it to the servers they start themselves (`withMcpServerStdio` / `withMcpServerHttp`).
 * @throws whatever the model throws (the server then receives a JSON-RPC error).
 */
export function samplingHandler(model: Model): SamplingHandler {
  return async (params, context) => {
    let response: AssistantMessage | undefined;
    let stopReason: StopReason = 'other';
    const request = {
      messages: samplingConversation(params),
      tools: [],
      maxTokens: params.maxTokens,
      signal: context.signal,
      ...(params.systemPrompt ? { system: params.systemPrompt } : {}),
    };
    for await (const event of model.stream(request)) {
      if (event.type === 'response') {
        response = event.message;
        stopReason = event.stopReason;
      }
    }
    const text = (response?.content ?? [])
      .filter((part) => part.type === 'text')
      .map((part) => part.text)
      .join('');
    return {
      role: 'assistant',
      content: { type: 'text', text },
      model: model.id,
      stopReason: STOP_REASONS[stopReason],
    };
  };
}
