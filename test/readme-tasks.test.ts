/**
 * The README's tasks example is examples/tasks.ts, verbatim; this test runs it against the real
 * server-everything (its task tool) and compares what it prints with the output the README shows.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { format } from 'node:util';
import ts from 'typescript';
import { afterEach, describe, expect, it, vi } from 'vitest';

// `agentwire` is the package itself; in the tests it is the sources, so no build is needed.
vi.mock('agentwire', () => import('../src/index.js'));

const readme = readFileSync('README.md', 'utf8');
const examplePath = path.resolve('examples/tasks.ts');

/** The body of the first fenced block of `language` after the heading `heading`. */
function fencedBlock(heading: string, language: string): string {
  const start = readme.indexOf(`\n${heading}\n`);
  if (start < 0) throw new Error(`README has no heading "${heading}"`);
  const open = readme.indexOf(`\n\`\`\`${language}\n`, start);
  const close = readme.indexOf('\n```\n', open + 1);
  if (open < 0 || close < 0) throw new Error(`README has no \`\`\`${language} block under "${heading}"`);
  return readme.slice(open + language.length + 5, close + 1);
}

const HEADING = '## Tasks (long-running tools)';

describe('README tasks example', () => {
  afterEach(() => vi.restoreAllMocks());

  it('shows examples/tasks.ts verbatim', () => {
    expect(fencedBlock(HEADING, 'ts')).toBe(readFileSync(examplePath, 'utf8'));
  });

  it('type-checks under the project settings', () => {
    const config = ts.getParsedCommandLineOfConfigFile(
      'tsconfig.json',
      {},
      {
        ...ts.sys,
        onUnRecoverableConfigFileDiagnostic: (diagnostic) => {
          throw new Error(ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n'));
        },
      },
    );
    if (!config) throw new Error('tsconfig.json could not be read');
    const options = { ...config.options, noEmit: true, paths: { agentwire: [path.resolve('src/index.ts')] } };
    const program = ts.createProgram([examplePath], options);
    const problems = ts
      .getPreEmitDiagnostics(program, program.getSourceFile(examplePath))
      .map((diagnostic) => ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n'));
    expect(problems).toEqual([]);
  }, 60_000);

  it('prints what the README says it prints, against server-everything', async () => {
    const printed: string[] = [];
    vi.spyOn(console, 'log').mockImplementation((...args: unknown[]) => {
      printed.push(format(...args));
    });
    // A computed specifier: tsc must not follow it (its `agentwire` import resolves to dist/ only after a build).
    await import(examplePath);
    expect(`${printed.join('\n')}\n`).toBe(fencedBlock(HEADING, 'text'));
  }, 30_000);
});
