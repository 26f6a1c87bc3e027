/**
 * The layering rule (STYLE.md): data flows one way, `core → mcp → agent → cli`, with `providers/` and
 * `tools/` beside `mcp/` as leaves over `core/`. A lower layer never imports a higher one, and there are no
 * import cycles. The import graph comes from madge, which reads the TypeScript sources as the compiler does.
 */
import path from 'node:path';
import madge from 'madge';
import { describe, expect, it } from 'vitest';
import { ROOT } from './helpers.js';

/** What each top-level folder of src/ may import (besides itself). */
const ALLOWED: Record<string, string[]> = {
  core: [],
  mcp: ['core'],
  providers: ['core'],
  tools: ['core'],
  agent: ['core', 'mcp', 'providers', 'tools'],
  cli: ['core', 'mcp', 'providers', 'tools', 'agent'],
  '.': ['core', 'mcp', 'providers', 'tools', 'agent'],
};

const layerOf = (file: string) => (file.includes('/') ? file.split('/')[0]! : '.');

describe('architecture', async () => {
  const graph = await madge(path.join(ROOT, 'src'), {
    fileExtensions: ['ts'],
    tsConfig: path.join(ROOT, 'tsconfig.json'),
  });

  it('has no import cycles', () => {
    expect(graph.circular()).toEqual([]);
  });

  it('never imports upward across layers', () => {
    const violations: string[] = [];
    for (const [file, imports] of Object.entries(graph.obj())) {
      const from = layerOf(file);
      for (const target of imports) {
        const to = layerOf(target);
        if (to !== from && !(ALLOWED[from] ?? []).includes(to)) violations.push(`${file} -> ${target}`);
      }
    }
    expect(violations).toEqual([]);
  });

  it('sees the whole source tree and resolves its .js-suffixed imports', () => {
    expect(Object.keys(graph.obj()).length).toBeGreaterThan(60);
    expect(graph.obj()['mcp/client.ts']).toContain('mcp/session.ts');
    expect(graph.warnings().skipped).toEqual([]);
  });
});
