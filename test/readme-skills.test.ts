/**
 * The README's Skills example is examples/skills.ts, verbatim; this test runs it against the skills fixture
 * server (test/fixtures/skills-server.mjs) and compares what it prints with the output the README shows.
 */
import { describe, expect, it, vi } from 'vitest';
import { examplePath, exampleText, printedBy, readmeBlock } from './readme-examples.js';

vi.mock('agentwire', () => import('../src/index.js'));

const skillsPath = examplePath('skills.ts');

describe('README skills', () => {
  it('shows examples/skills.ts verbatim', () => {
    expect(readmeBlock('## Skills', 'ts')).toBe(exampleText(skillsPath));
  });

  it('prints what the README says it prints', async () => {
    const printed = await printedBy(skillsPath);
    expect(`${printed.join('\n')}\n`).toBe(readmeBlock('## Skills', 'text'));
  });
});
