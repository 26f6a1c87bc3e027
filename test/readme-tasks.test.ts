/**
 * The README's tasks example is examples/tasks.ts, verbatim; this test runs it against the real
 * server-everything (its task tool) and compares what it prints with the output the README shows.
 */
import { describe, expect, it, vi } from 'vitest';
import { examplePath, exampleText, printedBy, readmeBlock, typeProblems } from './readme-examples.js';

// `agentwire` is the package itself; in the tests it is the sources, so no build is needed.
vi.mock('agentwire', () => import('../src/index.js'));

const tasksPath = examplePath('tasks.ts');
const HEADING = '## Tasks (long-running tools)';

describe('README tasks example', () => {
  it('shows examples/tasks.ts verbatim', () => {
    expect(readmeBlock(HEADING, 'ts')).toBe(exampleText(tasksPath));
  });

  it('type-checks under the project settings', () => {
    expect(typeProblems([tasksPath])).toEqual([]);
  }, 60_000);

  it('prints what the README says it prints, against server-everything', async () => {
    const printed = await printedBy(tasksPath);
    expect(`${printed.join('\n')}\n`).toBe(readmeBlock(HEADING, 'text'));
  }, 30_000);
});
