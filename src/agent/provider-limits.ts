/**
 * Hard limits of model vendors on one request's tools, known by provider name, so that the agent leaves
 * out (with a warning) what a vendor would refuse with a 400. Names are already held to what every
 * provider accepts (`tool-names.ts`) and schemas to what each takes (`Model.normalizeToolSchema`); this is
 * the count.
 */
import type { Model } from '../providers/model.js';

/**
 * Most tools per request, by `Model.provider`: OpenAI Chat Completions takes at most 128 `tools` (also
 * applied to OpenAI-compatible servers, which share the adapter). Anthropic documents no such bound.
 */
export const PROVIDER_MAX_TOOLS: Readonly<Record<string, number>> = { openai: 128 };

/** The bound for `model`: the agent's option when set, else the provider's known one, else none. */
export function maxToolsFor(model: Model, option: number | undefined): number | undefined {
  if (option !== undefined) return option;
  return Object.hasOwn(PROVIDER_MAX_TOOLS, model.provider) ? PROVIDER_MAX_TOOLS[model.provider] : undefined;
}
