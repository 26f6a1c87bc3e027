/**
 * The model's failures in the words of the command line: a timeout names the `run` flag that bounds it
 * (`--model-idle-timeout`, `--model-timeout`), a server that never answered is named by its URL, and
 * `--max-turns` is the flag, not the library option. The model's base URL is checked before anything
 * starts.
 */
import { AgentError } from '../agent/index.js';
import { ModelError } from '../providers/index.js';
import { UsageError } from './usage-error.js';

/** Where each provider is reached without a base URL in the environment. */
const DEFAULT_BASE_URL = {
  anthropic: 'https://api.anthropic.com',
  openai: 'https://api.openai.com/v1',
} as const;
const BASE_URL_VARIABLE = { anthropic: 'ANTHROPIC_BASE_URL', openai: 'OPENAI_BASE_URL' } as const;

type Provider = keyof typeof DEFAULT_BASE_URL;

/**
 * The provider's base URL: the environment's when set, else the vendor's.
 * @throws UsageError when the variable is set to something that is not an absolute http(s) URL (the value
 *   is not repeated: it may hold a credential).
 */
export function modelBaseUrl(provider: string, env: NodeJS.ProcessEnv = process.env): string | undefined {
  if (!(provider in DEFAULT_BASE_URL)) return undefined;
  const variable = BASE_URL_VARIABLE[provider as Provider];
  const text = env[variable];
  if (text === undefined || text === '') return DEFAULT_BASE_URL[provider as Provider];
  let url: URL | undefined;
  try {
    url = new URL(text);
  } catch {
    url = undefined;
  }
  if (url === undefined || (url.protocol !== 'http:' && url.protocol !== 'https:')) {
    throw new UsageError(`${variable} is not an absolute http(s) URL (e.g. http://localhost:11434/v1)`);
  }
  // Shown in errors: without a user, password or query, which may hold a key.
  return `${url.origin}${url.pathname}`;
}

/** What the `run` command was given, for the messages. */
export interface RunBounds {
  maxTurns: number;
  baseUrl: string | undefined;
}

/** `error` reworded for the command line when it is one of the model's failures above; else `error`. */
export function cliModelError(error: unknown, bounds: RunBounds): unknown {
  if (error instanceof AgentError && error.kind === 'max_turns') {
    const turns = bounds.maxTurns === 1 ? '1 turn' : `${bounds.maxTurns} turns`;
    return new AgentError('max_turns', `the model was still calling tools after ${turns} (--max-turns)`, {
      cause: error,
    });
  }
  if (!(error instanceof ModelError)) return error;
  const provider = error.provider ?? 'model';
  if (error.kind === 'timeout' && error.timeoutMs !== undefined) {
    const what =
      error.timeout === 'idle'
        ? `the stream sent nothing for ${error.timeoutMs} ms (--model-idle-timeout)`
        : `the request took longer than ${error.timeoutMs} ms (--model-timeout)`;
    return new ModelError('timeout', `${provider} request timed out: ${what}`, fields(error));
  }
  // No HTTP status: the request never got an answer (refused, unknown host, TLS): say where it went.
  if (error.kind === 'request_failed' && error.status === undefined && bounds.baseUrl !== undefined) {
    return new ModelError('request_failed', `${error.message} (model URL ${bounds.baseUrl})`, fields(error));
  }
  return error;
}

function fields(error: ModelError): ConstructorParameters<typeof ModelError>[2] {
  return {
    ...(error.provider !== undefined && { provider: error.provider }),
    ...(error.timeout !== undefined && { timeout: error.timeout }),
    ...(error.timeoutMs !== undefined && { timeoutMs: error.timeoutMs }),
    cause: error,
  };
}
