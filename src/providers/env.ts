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
 * @throws {ModelError} kind `not_configured` when no provider is configured, `AGENTWIRE_MODEL` names a
 *   provider whose key is missing, or is not of its grammar (`anthropic:<id>`, `openai:<id>`, a bare `<id>`,
 *   or a provider's prefix alone). The message names the variables to set, never their values.
 */
export function modelFromEnv(env: NodeJS.ProcessEnv = process.env, images: ImageOptions = {}): Model {
  const parsed = parseModelSpec(env.AGENTWIRE_MODEL ?? '');
  if (parsed === undefined)
    throw new ModelError('not_configured', `AGENTWIRE_MODEL expects ${MODEL_SPEC_GRAMMAR}`);
  const { provider: prefix, id: rest = '' } = parsed;
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

/** A model as `--model` and `AGENTWIRE_MODEL` name it. */
export interface ModelSpec {
  /** The provider named by the prefix; undefined: whichever the environment configures. */
  provider: 'anthropic' | 'openai' | undefined;
  /** The model id; undefined: the provider's default model. */
  id: string | undefined;
}

/** The grammar {@link parseModelSpec} reads, as error messages state it. */
export const MODEL_SPEC_GRAMMAR =
  'anthropic:<model-id>, openai:<model-id> or a bare <model-id>, e.g. openai:gpt-4.1 or gpt-4.1';

/**
 * The one reading of a model name, for `--model` and `AGENTWIRE_MODEL` alike: `anthropic:<id>`,
 * `openai:<id>`, or a bare `<id>` for whichever provider the environment configures (a bare id may hold a
 * colon: a local OpenAI-compatible server's `llama3:8b`); a prefix alone (`openai:`) is that provider's
 * default model, and an empty text names nothing. Surrounding blanks are ignored.
 * @returns undefined when the text is not of that grammar (an id with blanks inside).
 */
export function parseModelSpec(text: string): ModelSpec | undefined {
  const spec = text.trim();
  if (/\s/.test(spec)) return undefined;
  const match = /^(anthropic|openai):(.*)$/.exec(spec);
  const provider = match ? (match[1] as 'anthropic' | 'openai') : undefined;
  const id = match ? (match[2] ?? '') : spec;
  return { provider, id: id === '' ? undefined : id };
}
