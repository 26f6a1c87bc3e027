/**
 * The skills example of docs/tasks-and-skills.md is examples/skills.ts, verbatim; this test runs it against
 * the skills fixture server (test/fixtures/skills-server.mjs) and compares what it prints with the output
 * the page shows.
 */
import { describe, expect, it, vi } from 'vitest';
import { examplePath, exampleText, printedBy } from './examples.js';
import { docBlock } from './markdown.js';

vi.mock('agentwire', () => import('../../src/index.js'));

const skillsPath = examplePath('skills.ts');
const PAGE = 'docs/tasks-and-skills.md';

describe('the skills example (docs/tasks-and-skills.md)', () => {
  it('shows examples/skills.ts verbatim', () => {
    expect(docBlock(PAGE, '## Skills', 'ts')).toBe(exampleText(skillsPath));
  });

  it('prints what the page says it prints', async () => {
    const printed = await printedBy(skillsPath);
    expect(`${printed.join('\n')}\n`).toBe(docBlock(PAGE, '## Skills', 'text'));
  });
});
