/**
 * Picking a model from environment variables, for the CLI and quick scripts.
 */
import { anthropic } from './anthropic.js';
import { ModelError } from './errors.js';
import type { ImageOptions } from './media.js';
import type { Model } from './model.js';
import { openai } from './openai.js';

/** Model used with `ANTHROPIC_API_KEY` when `AGENTWIRE_MODEL` does not name one. */
export const DEFAULT_ANTHROPIC_MODEL = 'claude-sonnet-5';
/** Model used with `OPENAI_API_KEY` / `OPENAI_BASE_URL` when `AGENTWIRE_MODEL` does not name one. */
export const DEFAULT_OPENAI_MODEL = 'gpt-4.1';

/**
 * Builds a model from the environment:
 * - `AGENTWIRE_MODEL`: `anthropic:<id>`, `openai:<id>`, or a bare `<id>` for whichever provider is configured;
 * - `ANTHROPIC_API_KEY` (and optionally `ANTHROPIC_BASE_URL`) selects Anthropic;
 * - otherwise `OPENAI_API_KEY` and/or `OPENAI_BASE_URL` select OpenAI (a base URL alone is enough for a
 *   local OpenAI-compatible server).
 * Anthropic wins when both keys are set, unless `AGENTWIRE_MODEL` names the provider.
 *
 * @param env defaults to `process.env`.
 * @param images how images of tool results are sent (see `ImageOptions`); default the provider's limits.
 * @throws {ModelError} kind `not_configured` when no provider is configured, or `AGENTWIRE_MODEL` names a
 *   provider whose key is missing. The message names the variables to set, never their values.
 */
export function modelFromEnv(env: NodeJS.ProcessEnv = process.env, images: ImageOptions = {}): Model {
  const spec = env.AGENTWIRE_MODEL?.trim() ?? '';
  const [prefix, rest] = splitProvider(spec);
  const hasAnthropic = Boolean(env.ANTHROPIC_API_KEY);
  const hasOpenAI = Boolean(env.OPENAI_API_KEY) || Boolean(env.OPENAI_BASE_URL);
  const provider = prefix ?? (hasAnthropic ? 'anthropic' : hasOpenAI ? 'openai' : undefined);
  if (provider === 'anthropic' && hasAnthropic) {
    return anthropic({
      ...images,
      model: rest || DEFAULT_ANTHROPIC_MODEL,
      ...(env.ANTHROPIC_API_KEY ? { apiKey: env.ANTHROPIC_API_KEY } : {}),
      ...(env.ANTHROPIC_BASE_URL ? { baseURL: env.ANTHROPIC_BASE_URL } : {}),
    });
  }
  if (provider === 'openai' && hasOpenAI) {
    return openai({
      ...images,
      model: rest || DEFAULT_OPENAI_MODEL,
      ...(env.OPENAI_API_KEY ? { apiKey: env.OPENAI_API_KEY } : {}),
      ...(env.OPENAI_BASE_URL ? { baseURL: env.OPENAI_BASE_URL } : {}),
    });
  }
  const wanted = provider === undefined ? '' : ` for provider "${provider}"`;
  throw new ModelError(
    'not_configured',
    `no model provider configured${wanted}: set ANTHROPIC_API_KEY, or OPENAI_API_KEY and/or OPENAI_BASE_URL ` +
      '(optionally AGENTWIRE_MODEL=anthropic:<model> or openai:<model>)',
  );
}

function splitProvider(spec: string): [('anthropic' | 'openai') | undefined, string] {
  const match = /^(anthropic|openai):(.*)$/.exec(spec);
  if (!match) return [undefined, spec];
  return [match[1] as 'anthropic' | 'openai', match[2] ?? ''];
}
