/**
 * What the docs example tests share: an example file and its text, a type-check of code against the
 * sources, and what an example prints when it runs.
 *
 * The rule these helpers keep: an example is imported by a computed path and never named in a type.
 * `npm test` runs tsc before the build, and an `import('../examples/x.js')` or `typeof import(...)` would make
 * tsc follow the example's `import 'agentwire'`, which resolves (to dist/) only after a build: a clean clone
 * failed typecheck on exactly that. The test files mock `agentwire` with the sources (`vi.mock` stays in each
 * test file, where Vitest hoists it), and {@link typeProblems} maps it to src/index.ts for the type-check.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { format } from 'node:util';
import ts from 'typescript';
import { vi } from 'vitest';
import { ROOT } from '../helpers.js';

/** The absolute path of `relative` below examples/ (e.g. `'quickstart.ts'`, `'auth/enterprise.ts'`). */
export function examplePath(relative: string): string {
  return path.join(ROOT, 'examples', relative);
}

/** The text of an example file. */
export function exampleText(file: string): string {
  return readFileSync(file, 'utf8');
}

/** The package's entry points as the sources that implement them: `agentwire` → src/index.ts, … */
export function entryPointSources(): Record<string, string> {
  const pkg = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as {
    name: string;
    exports: Record<string, string | { types?: string }>;
  };
  const sources: Record<string, string> = {};
  for (const [subpath, target] of Object.entries(pkg.exports)) {
    const types = typeof target === 'object' ? target.types : undefined;
    if (types === undefined) continue;
    const specifier = subpath === '.' ? pkg.name : `${pkg.name}/${subpath.replace(/^\.\//, '')}`;
    sources[specifier] = path.join(ROOT, types.replace(/^\.\/dist\//, 'src/').replace(/\.d\.ts$/, '.ts'));
  }
  return sources;
}

/**
 * The type errors of `files` under the project's tsconfig.json, with the package's entry points resolved to
 * the sources (`agentwire` to src/index.ts, `agentwire/gateway` to src/gateway/index.ts, …), each as
 * `file: message`. `virtual` holds files that exist only in memory (code blocks of the docs), by absolute
 * path below the repository. Only these files' own diagnostics: the sources are checked by `npm run
 * typecheck`.
 */
export function typeProblems(
  files: readonly string[],
  virtual: ReadonlyMap<string, string> = new Map(),
): string[] {
  const config = ts.getParsedCommandLineOfConfigFile(
    path.join(ROOT, 'tsconfig.json'),
    {},
    {
      ...ts.sys,
      onUnRecoverableConfigFileDiagnostic: (diagnostic) => {
        throw new Error(ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n'));
      },
    },
  );
  if (!config) throw new Error('tsconfig.json could not be read');
  const paths = Object.fromEntries(
    Object.entries(entryPointSources()).map(([specifier, source]) => [specifier, [source]]),
  );
  const options = { ...config.options, noEmit: true, paths };
  const host = ts.createCompilerHost(options);
  const { fileExists, readFile, getSourceFile } = host;
  host.fileExists = (file) => virtual.has(file) || fileExists.call(host, file);
  host.readFile = (file) => virtual.get(file) ?? readFile.call(host, file);
  host.getSourceFile = (file, language, ...rest) => {
    const text = virtual.get(file);
    return text === undefined
      ? getSourceFile.call(host, file, language, ...rest)
      : ts.createSourceFile(file, text, language, true);
  };
  const program = ts.createProgram([...files], options, host);
  return files.flatMap((file) =>
    ts
      .getPreEmitDiagnostics(program, program.getSourceFile(file))
      .map(
        (diagnostic) =>
          `${path.relative(ROOT, diagnostic.file?.fileName ?? file)}: ${ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n')}`,
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
