import { describe, expect, it } from 'vitest';
import { parseModelSpec } from '../../src/providers/env.js';
import { ModelError, modelFromEnv } from '../../src/providers/index.js';

describe('modelFromEnv', () => {
  it('picks Anthropic when ANTHROPIC_API_KEY is set, with the default model', () => {
    const model = modelFromEnv({ ANTHROPIC_API_KEY: 'a', OPENAI_API_KEY: 'o' });
    expect([model.provider, model.id]).toEqual(['anthropic', 'claude-sonnet-5']);
  });

  it('picks OpenAI from OPENAI_BASE_URL alone (a local server) and AGENTWIRE_MODEL', () => {
    const model = modelFromEnv({ OPENAI_BASE_URL: 'http://127.0.0.1:11434/v1', AGENTWIRE_MODEL: 'llama3.1' });
    expect([model.provider, model.id]).toEqual(['openai', 'llama3.1']);
  });

  it('lets AGENTWIRE_MODEL name the provider', () => {
    const model = modelFromEnv({
      ANTHROPIC_API_KEY: 'a',
      OPENAI_API_KEY: 'o',
      AGENTWIRE_MODEL: 'openai:gpt-5',
    });
    expect([model.provider, model.id]).toEqual(['openai', 'gpt-5']);
  });

  it('says which variables to set when nothing is configured', () => {
    expect(() => modelFromEnv({})).toThrow(
      new ModelError(
        'not_configured',
        'no model provider configured: set ANTHROPIC_API_KEY, or OPENAI_API_KEY and/or OPENAI_BASE_URL ' +
          '(optionally AGENTWIRE_MODEL=anthropic:<model> or openai:<model>)',
      ),
    );
  });

  it('refuses a named provider without its key, and never shows key values', () => {
    let error: unknown;
    try {
      modelFromEnv({ OPENAI_API_KEY: 'sk-secret-value', AGENTWIRE_MODEL: 'anthropic:claude-x' });
    } catch (e) {
      error = e;
    }
    expect((error as ModelError).kind).toBe('not_configured');
    expect((error as ModelError).message).toMatch(/^no model provider configured for provider "anthropic"/);
    expect((error as ModelError).message).not.toContain('sk-secret-value');
  });

  it('refuses an AGENTWIRE_MODEL with blanks inside, stating the grammar', () => {
    expect(() => modelFromEnv({ OPENAI_API_KEY: 'o', AGENTWIRE_MODEL: 'gpt 4o' })).toThrow(
      new ModelError(
        'not_configured',
        'AGENTWIRE_MODEL expects anthropic:<model-id>, openai:<model-id> or a bare <model-id>, e.g. openai:gpt-4.1 or gpt-4.1',
      ),
    );
  });
});

describe('parseModelSpec: the one grammar of --model and AGENTWIRE_MODEL', () => {
  it.each([
    ['gpt-4o', { provider: undefined, id: 'gpt-4o' }],
    ['openai:gpt-4o', { provider: 'openai', id: 'gpt-4o' }],
    ['anthropic:claude-x', { provider: 'anthropic', id: 'claude-x' }],
    ['  llama3:8b ', { provider: undefined, id: 'llama3:8b' }],
    ['openai:', { provider: 'openai', id: undefined }],
    ['', { provider: undefined, id: undefined }],
    ['gpt 4o', undefined],
    ['openai:gpt 4o', undefined],
  ])('%j → %j', (text, expected) => {
    expect(parseModelSpec(text)).toEqual(expected);
  });
});
