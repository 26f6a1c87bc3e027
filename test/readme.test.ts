/**
 * The README's library quick start is examples/quickstart.ts, verbatim; this test type-checks that file
 * against the sources, runs it against a real server, and compares what it prints with the output the
 * README shows. A README example cannot rot without failing the suite.
 */
import { describe, expect, it, vi } from 'vitest';
import { examplePath, exampleText, printedBy, readmeBlock, typeProblems } from './readme-examples.js';

// `agentwire` is the package itself; in the tests it is the sources, so no build is needed.
vi.mock('agentwire', () => import('../src/index.js'));

const quickstartPath = examplePath('quickstart.ts');

describe('README quick start', () => {
  it('shows examples/quickstart.ts verbatim', () => {
    expect(readmeBlock('## Library quick start', 'ts')).toBe(exampleText(quickstartPath));
  });

  it('type-checks under the project settings', () => {
    expect(typeProblems([quickstartPath])).toEqual([]);
  });

  it('prints what the README says it prints, against server-everything', async () => {
    const printed = await printedBy(quickstartPath);
    expect(`${printed.join('\n')}\n`).toBe(readmeBlock('## Library quick start', 'text'));
  });
});
