/**
 * One model turn: stream the response, pass text on as it arrives, return the whole message.
 */
import { withSpan } from '../core/telemetry.js';
import { ModelError } from '../providers/errors.js';
import type { AssistantMessage, Model, ModelRequest, StopReason, Usage } from '../providers/model.js';
import type { AgentEvent } from './events.js';
import { type AgentTelemetryOptions, chatSpan, describeAgentFailure, finishReason } from './telemetry.js';

/** A finished model turn. */
export interface TurnResponse {
  message: AssistantMessage;
  stopReason: StopReason;
  usage?: Usage;
}

/**
 * Streams one response from `model`, emitting `text_delta` events, inside a `chat {model}` span.
 * @throws whatever the model's stream throws (a `ModelError`, or an abort error when the signal fired).
 */
export function streamTurn(
  model: Model,
  request: ModelRequest,
  turn: number,
  emit: (event: AgentEvent) => void,
  telemetry?: AgentTelemetryOptions,
): Promise<TurnResponse> {
  return withSpan(
    chatSpan(model, request.maxTokens, telemetry),
    async (span) => {
      const response = await readTurn(model, request, turn, emit);
      span.set('gen_ai.response.model', response.model);
      span.set('gen_ai.response.id', response.id);
      span.set('gen_ai.response.finish_reasons', [finishReason(response.stopReason)]);
      span.set('gen_ai.usage.input_tokens', response.usage?.inputTokens);
      span.set('gen_ai.usage.output_tokens', response.usage?.outputTokens);
      return response.turn;
    },
    describeAgentFailure,
  );
}

async function readTurn(
  model: Model,
  request: ModelRequest,
  turn: number,
  emit: (event: AgentEvent) => void,
): Promise<{ turn: TurnResponse; stopReason: StopReason; usage?: Usage; model?: string; id?: string }> {
  for await (const event of model.stream(request)) {
    if (event.type === 'text_delta') emit({ type: 'text_delta', turn, text: event.text });
    else {
      const { message, stopReason, usage } = event;
      const out: TurnResponse =
        usage === undefined ? { message, stopReason } : { message, stopReason, usage };
      return { turn: out, stopReason, ...(usage && { usage }), ...event.info };
    }
  }
  throw new ModelError('bad_response', `${model.provider} stream ended without a response`, {
    provider: model.provider,
  });
}
