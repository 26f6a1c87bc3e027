/**
 * The API reference `npm run docs` generates (TypeDoc, with typedoc.config.mjs): built here in-process,
 * into a temporary folder, it converts and renders with no warning and no error, has one module per entry
 * point of package.json (`agentwire`, `agentwire/gateway`, and any added there), and documents every name
 * each entry point exports. The `@example` blocks it publishes are type-checked by blocks.test.ts.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import {
  Application,
  Logger,
  LogLevel,
  type ProjectReflection,
  ReflectionKind,
  type TypeDocOptions,
} from 'typedoc';
import ts from 'typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT, tempDir } from '../helpers.js';
import { entryPointSources } from './examples.js';

/** Records what TypeDoc logs, and prints nothing. */
class RecordingLogger extends Logger {
  readonly messages: string[] = [];

  override log(message: string, level: LogLevel): void {
    super.log(message, level);
    if (level >= LogLevel.Warn) this.messages.push(`${LogLevel[level]}: ${message}`);
  }
}

const out = tempDir('agentwire-api-docs-');
let project: ProjectReflection | undefined;
let logger: RecordingLogger;

beforeAll(async () => {
  const config = (await import(pathToFileURL(path.join(ROOT, 'typedoc.config.mjs')).href)) as {
    default: TypeDocOptions;
  };
  const previous = process.cwd();
  process.chdir(ROOT);
  try {
    const app = await Application.bootstrapWithPlugins({ ...config.default, out: out.dir });
    logger = new RecordingLogger();
    app.logger = logger;
    project = await app.convert();
    if (project) {
      app.validate(project);
      await app.generateOutputs(project);
    }
  } finally {
    process.chdir(previous);
  }
}, 300_000);

afterAll(() => {
  out.remove();
});

/** Every name each entry point's source exports, by the checker, by source. */
function exportsOf(sources: string[]): Map<string, string[]> {
  const program = ts.createProgram(sources, {
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    target: ts.ScriptTarget.ES2022,
    noEmit: true,
    skipLibCheck: true,
    types: ['node'],
  });
  const checker = program.getTypeChecker();
  const names = new Map<string, string[]>();
  for (const source of sources) {
    const file = program.getSourceFile(source);
    const module = file && checker.getSymbolAtLocation(file);
    names.set(source, module ? checker.getExportsOfModule(module).map((symbol) => symbol.name) : []);
  }
  return names;
}

describe('the API reference (npm run docs)', () => {
  it('is generated with no warning and no error', () => {
    expect(project).toBeDefined();
    expect(logger.messages).toEqual([]);
    expect(existsSync(path.join(out.dir, 'index.html'))).toBe(true);
  });

  it("documents every export of every entry point of package.json's exports", () => {
    const sources = entryPointSources();
    const modules = project?.getChildrenByKind(ReflectionKind.Module) ?? [];
    expect(modules.length).toBe(Object.keys(sources).length);
    const exported = exportsOf(Object.values(sources));
    const missing: string[] = [];
    for (const [specifier, source] of Object.entries(sources)) {
      // TypeDoc names a module after its path below the common folder: `index`, `gateway`, ….
      const module = modules.find((candidate) => {
        const file = candidate.sources?.[0]?.fullFileName;
        return file !== undefined && path.resolve(file) === source;
      });
      if (!module) {
        missing.push(`${specifier}: no module`);
        continue;
      }
      const documented = new Set((module.children ?? []).map((child) => child.name));
      const names = exported.get(source) ?? [];
      // The main entry point is the whole library, the gateway's many names; a framework adapter's, a few.
      const least = specifier === 'agentwire' ? 150 : specifier === 'agentwire/gateway' ? 10 : 0;
      expect(names.length).toBeGreaterThan(least);
      for (const name of names) if (!documented.has(name)) missing.push(`${specifier}: ${name}`);
    }
    expect(missing).toEqual([]);
  });
});
