/**
 * What the README example tests share: a README block, the example file it must equal, a type-check of the
 * examples against the sources, and what an example prints when it runs.
 *
 * The rule these helpers keep: an example is imported by a computed path and never named in a type.
 * `npm test` runs tsc before the build, and an `import('../examples/x.js')` or `typeof import(...)` would make
 * tsc follow the example's `import 'agentwire'`, which resolves (to dist/) only after a build: a clean clone
 * failed typecheck on exactly that. The test files mock `agentwire` with the sources (`vi.mock` stays in each test
 * file, where Vitest hoists it), and {@link typeProblems} maps it to src/index.ts for the type-check.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { format } from 'node:util';
import ts from 'typescript';
import { vi } from 'vitest';

/** The absolute path of `relative` below examples/ (e.g. `'quickstart.ts'`, `'auth/enterprise.ts'`). */
export function examplePath(relative: string): string {
  return path.resolve('examples', relative);
}

/** The text of an example file. */
export function exampleText(file: string): string {
  return readFileSync(file, 'utf8');
}

/** The body of the first fenced block of `language` after the README heading `heading` (a whole line). */
export function readmeBlock(heading: string, language: string): string {
  const readme = readFileSync('README.md', 'utf8');
  const start = readme.indexOf(`\n${heading}\n`);
  if (start < 0) throw new Error(`README has no heading "${heading}"`);
  const open = readme.indexOf(`\n\`\`\`${language}\n`, start);
  const close = readme.indexOf('\n```\n', open + 1);
  if (open < 0 || close < 0) throw new Error(`README has no \`\`\`${language} block under "${heading}"`);
  return readme.slice(open + language.length + 5, close + 1);
}

/**
 * The type errors of `files` under the project's tsconfig.json, with `agentwire` resolved to the sources
 * (src/index.ts) and each of `subpaths` (`{ 'agentwire/ai-sdk': 'src/adapters/ai-sdk.ts' }`) to its source, each
 * as `file: message`. Only the examples' own diagnostics: the sources are checked by
 * `npm run typecheck`.
 */
export function typeProblems(files: readonly string[], subpaths: Record<string, string> = {}): string[] {
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
  const mapped = Object.fromEntries(
    Object.entries(subpaths).map(([name, file]) => [name, [path.resolve(file)]]),
  );
  const options = {
    ...config.options,
    noEmit: true,
    paths: { agentwire: [path.resolve('src/index.ts')], ...mapped },
  };
  const program = ts.createProgram([...files], options);
  return files.flatMap((file) =>
    ts
      .getPreEmitDiagnostics(program, program.getSourceFile(file))
      .map(
        (diagnostic) =>
          `${path.relative('.', diagnostic.file?.fileName ?? file)}: ${ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n')}`,
      ),
  );
}

/**
 * Imports the example at `file` (an absolute path, computed, so tsc does not follow it) and returns what it
 * printed with console.log meanwhile, a string a call. The console is restored when the import settles.
 */
export async function printedBy(file: string): Promise<string[]> {
  const printed: string[] = [];
  const log = vi.spyOn(console, 'log').mockImplementation((...args: unknown[]) => {
    printed.push(format(...args));
  });
  try {
    await import(file);
  } finally {
    log.mockRestore();
  }
  return printed;
}
