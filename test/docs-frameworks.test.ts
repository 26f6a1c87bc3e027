/**
 * docs/frameworks.md: each of its TypeScript examples is a file of examples/frameworks/, and every one of them
 * type-checks against the sources (`agentwire` and its adapter subpaths mapped to src/).
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { examplePath, exampleText, typeProblems } from './readme-examples.js';

const EXAMPLES = ['ai-sdk', 'openai-agents', 'langchain', 'lazy-servers'];

/** The ```ts blocks of the page, in order. */
function tsBlocks(): string[] {
  const text = readFileSync('docs/frameworks.md', 'utf8');
  return [...text.matchAll(/\n```ts\n([\s\S]*?)```\n/g)].map((match) => match[1]!);
}

describe('docs/frameworks.md', () => {
  it('shows each example file whole, in order', () => {
    expect(tsBlocks()).toEqual(EXAMPLES.map((name) => exampleText(examplePath(`frameworks/${name}.ts`))));
  });

  // The frameworks' types are large: a type-check of the four takes a minute on a loaded 2-core machine.
  it('has examples that type-check against the sources', { timeout: 240_000 }, () => {
    const files = EXAMPLES.map((name) => examplePath(`frameworks/${name}.ts`));
    expect(
      typeProblems(files, {
        'agentwire/ai-sdk': 'src/adapters/ai-sdk.ts',
        'agentwire/openai-agents': 'src/adapters/openai-agents.ts',
        'agentwire/langchain': 'src/adapters/langchain.ts',
      }),
    ).toEqual([]);
  });
});
