import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Plugin } from 'vite';
import { defineConfig } from 'vitest/config';

/**
 * The framework adapters' tests (`npm run test:frameworks`, on Node 22): run by the repository's own vitest
 * from its root, with the frameworks installed in this folder (package.json here). The adapters under test
 * (src/adapters/, dist/adapters/) import their framework as a user's code does, by its bare name, which
 * Node would look up in the repository's node_modules, where the frameworks are not: the plugin below
 * resolves those names from here, as they resolve beside agentwire in a user's project.
 */
const HERE = path.dirname(fileURLToPath(import.meta.url));
const ROOT = path.dirname(HERE);

const manifest = (file: string) =>
  JSON.parse(readFileSync(file, 'utf8')) as {
    dependencies?: Record<string, string>;
    devDependencies?: Record<string, string>;
  };
const root = manifest(path.join(ROOT, 'package.json'));
/** The packages installed here only: the frameworks (`ai`, `@mastra/core`, …). */
const FRAMEWORKS = Object.keys(manifest(path.join(HERE, 'package.json')).devDependencies ?? {}).filter(
  (name) => !(name in { ...root.dependencies, ...root.devDependencies }),
);

/** The package a bare specifier names (`@mastra/core/agent` → `@mastra/core`); undefined for a path. */
function packageOf(specifier: string): string | undefined {
  if (specifier.startsWith('.') || specifier.startsWith('/') || specifier.includes(':')) return undefined;
  const parts = specifier.split('/');
  return specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0];
}

const frameworksFromHere: Plugin = {
  name: 'agentwire-frameworks-from-here',
  enforce: 'pre',
  resolveId(source, importer, options) {
    const name = packageOf(source);
    if (importer === undefined || name === undefined || !FRAMEWORKS.includes(name)) return null;
    if (importer.startsWith(HERE + path.sep)) return null;
    return this.resolve(source, path.join(HERE, 'package.json'), { ...options, skipSelf: true });
  },
};

export default defineConfig({
  root: ROOT,
  plugins: [frameworksFromHere],
  test: {
    include: ['frameworks/test/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: 'forks',
    maxWorkers: 3,
    globalSetup: ['test/global-setup.ts'],
  },
});
