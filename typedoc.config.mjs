/**
 * TypeDoc settings for `npm run docs`: the API reference of every entry point package.json exports
 * (`.`, `./gateway`, and any subpath added there), generated from the TSDoc into api-docs/ (git-ignored).
 * A warning fails the run (`treatWarningsAsErrors`), and so does a public name the reference leaves out.
 */
import { readFileSync } from 'node:fs';

const pkg = JSON.parse(readFileSync(new URL('./package.json', import.meta.url), 'utf8'));

/** `./dist/gateway/index.d.ts` → `./src/gateway/index.ts`, for each export that has types. */
const entryPoints = Object.values(pkg.exports)
  .map((target) => (typeof target === 'object' && target !== null ? target.types : undefined))
  .filter((types) => typeof types === 'string')
  .map((types) => types.replace(/^\.\/dist\//, './src/').replace(/\.d\.ts$/, '.ts'));

/** @type {Partial<import('typedoc').TypeDocOptions>} */
const config = {
  entryPoints,
  tsconfig: './tsconfig.build.json',
  out: './api-docs',
  name: 'agentwire',
  readme: 'none',
  excludePrivate: true,
  excludeInternal: true,
  treatWarningsAsErrors: true,
  validation: { notExported: true, invalidLink: true, notDocumented: false },
  // Internal types that public signatures mention but the package does not export: shown by name, unlinked.
  // A new one fails `npm run docs` until it is exported or listed here.
  intentionallyNotExported: [
    'InputRelay',
    'LEGACY_PROTOCOL_VERSIONS',
    'LegacyTaskCapabilities',
    'Listener',
    'MCPLazyToolHost',
    'MCPToolHost',
    'MODERN_PROTOCOL_VERSIONS',
    'RequestCache',
    'RequestOptions',
    'ToolCallStep',
    'ToolInput',
    'DirectUpstreams',
    // The frameworks' own types, as the adapters' declarations of them (src/adapters/peers/) name them: the
    // framework documents them; the built .d.ts files import them from the framework itself.
    'src/adapters/peers/ai.d.ts:ToolSet',
    'src/adapters/peers/mastra-agent.d.ts:ToolsInput',
    'src/adapters/peers/openai-agents-core.d.ts:MCPServer',
    'src/adapters/peers/openai-agents-core.d.ts:MCPToolErrorFunction',
  ],
};

export default config;
