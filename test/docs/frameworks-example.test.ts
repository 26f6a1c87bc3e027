/**
 * docs/frameworks.md: each of its TypeScript examples is a file of examples/frameworks/, shown whole and in
 * order (blocks.test.ts type-checks the page's blocks against the sources, the adapter subpaths included).
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { examplePath, exampleText } from './examples.js';

const EXAMPLES = ['ai-sdk', 'openai-agents', 'langchain'];

/** The ```ts blocks of the page, in order. */
function tsBlocks(): string[] {
  const text = readFileSync('docs/frameworks.md', 'utf8');
  return [...text.matchAll(/\n```ts\n([\s\S]*?)```\n/g)].map((match) => match[1] ?? '');
}

describe('docs/frameworks.md', () => {
  it('shows each example file whole, in order', () => {
    expect(tsBlocks()).toEqual(EXAMPLES.map((name) => exampleText(examplePath(`frameworks/${name}.ts`))));
  });
});
