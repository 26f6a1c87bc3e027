/**
 * One model turn: stream the response, pass text on as it arrives, return the whole message.
 */
import { ModelError } from '../providers/errors.js';
import type { AssistantMessage, Model, ModelRequest, StopReason, Usage } from '../providers/model.js';
import type { AgentEvent } from './events.js';

/** A finished model turn. */
export interface TurnResponse {
  message: AssistantMessage;
  stopReason: StopReason;
  usage?: Usage;
}

/**
 * Streams one response from `model`, emitting `text_delta` events.
 * @throws whatever the model's stream throws (a `ModelError`, or an abort error when the signal fired).
 */
export async function streamTurn(
  model: Model,
  request: ModelRequest,
  turn: number,
  emit: (event: AgentEvent) => void,
): Promise<TurnResponse> {
  for await (const event of model.stream(request)) {
    if (event.type === 'text_delta') emit({ type: 'text_delta', turn, text: event.text });
    else {
      const { message, stopReason, usage } = event;
      return usage === undefined ? { message, stopReason } : { message, stopReason, usage };
    }
  }
  throw new ModelError('bad_response', `${model.provider} stream ended without a response`, {
    provider: model.provider,
  });
}
