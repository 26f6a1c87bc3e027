/**
 * The vendor SDKs, imported when a model first needs one rather than when agentwire is imported: loading
 * `@anthropic-ai/sdk` and `openai` takes a few hundred milliseconds that a host using only the MCP client,
 * or `agentwire tools` / `call`, should not pay. They are optional peer dependencies, so a missing one is a
 * configuration problem of that provider alone.
 */
import type Anthropic from '@anthropic-ai/sdk';
import type OpenAI from 'openai';
import { ModelError } from './errors.js';

/** The npm package each provider's SDK comes from. */
const SDK_PACKAGES = { anthropic: '@anthropic-ai/sdk', openai: 'openai' } as const;

type Provider = keyof typeof SDK_PACKAGES;

/** What each provider's SDK module gives: its client class. */
interface SdkClasses {
  anthropic: typeof Anthropic;
  openai: typeof OpenAI;
}

// Literal specifiers, so that bundlers and the type checker see each import.
const importers: { [P in Provider]: () => Promise<SdkClasses[P]> } = {
  anthropic: async () => (await import('@anthropic-ai/sdk')).default,
  openai: async () => (await import('openai')).default,
};

const loaded = new Map<Provider, Promise<unknown>>();

/**
 * The client class of `provider`'s SDK, imported once; a failed import is tried again on the next call.
 * @throws {ModelError} kind `not_configured` when the SDK package is not installed (the error says which
 *   package to install); other import failures as they are.
 */
export function loadSdk<P extends Provider>(provider: P): Promise<SdkClasses[P]> {
  let sdk = loaded.get(provider) as Promise<SdkClasses[P]> | undefined;
  if (sdk === undefined) {
    sdk = importers[provider]().catch((error: unknown) => {
      loaded.delete(provider);
      throw isModuleNotFound(error) ? notInstalled(provider, error) : error;
    });
    loaded.set(provider, sdk);
  }
  return sdk;
}

function isModuleNotFound(error: unknown): boolean {
  return (
    typeof error === 'object' && error !== null && 'code' in error && error.code === 'ERR_MODULE_NOT_FOUND'
  );
}

function notInstalled(provider: Provider, cause: unknown): ModelError {
  const name = SDK_PACKAGES[provider];
  return new ModelError(
    'not_configured',
    `the ${provider} provider needs the package ${name}, which is not installed: npm install ${name}`,
    { provider, cause },
  );
}

/**
 * Loads the SDK a model of `provider` needs (nothing for a provider agentwire has no adapter for), so that
 * a missing SDK is reported before anything else starts.
 * @throws {ModelError} kind `not_configured` when that SDK is not installed.
 */
export async function preloadSdk(provider: string): Promise<void> {
  if (provider === 'anthropic' || provider === 'openai') await loadSdk(provider);
}

/**
 * A client made on first use and kept: `create` runs at the first call; after a failure (the SDK not
 * installed, say) the next call runs it again.
 */
export function lazyClient<T>(create: () => Promise<T>): () => Promise<T> {
  let client: Promise<T> | undefined;
  return () => {
    if (client === undefined) {
      const made = create();
      made.catch(() => {
        if (client === made) client = undefined;
      });
      client = made;
    }
    return client;
  };
}
