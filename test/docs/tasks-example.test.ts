/**
 * The tasks example of docs/tasks-and-skills.md is examples/tasks.ts, verbatim; this test runs it against
 * the real server-everything (its task tool) and compares what it prints with the output the page shows.
 */
import { describe, expect, it, vi } from 'vitest';
import { examplePath, exampleText, printedBy } from './examples.js';
import { docBlock } from './markdown.js';

// `agentwire` is the package itself; in the tests it is the sources, so no build is needed.
vi.mock('agentwire', () => import('../../src/index.js'));

const tasksPath = examplePath('tasks.ts');
const PAGE = 'docs/tasks-and-skills.md';
const HEADING = '## Tasks';

describe('the tasks example (docs/tasks-and-skills.md)', () => {
  it('shows examples/tasks.ts verbatim', () => {
    expect(docBlock(PAGE, HEADING, 'ts')).toBe(exampleText(tasksPath));
  });

  it('prints what the page says it prints, against server-everything', async () => {
    const printed = await printedBy(tasksPath);
    expect(`${printed.join('\n')}\n`).toBe(docBlock(PAGE, HEADING, 'text'));
  }, 30_000);
});
