/**
 * The command lines of the README and docs/ that need nothing but a local server from node_modules (the
 * `--stdio "node node_modules/…"` lines of `tools`, `call`, `resources` and `prompts`), run as written
 * (in-process, from the repository's root, shell variables of the block expanded): each exits 0 and prints
 * something. The others (a model, a login, a remote server, a gateway) are parsed against the program by
 * blocks.test.ts; the gateway's quick start is run by readme-gateway.test.ts.
 */
import { parse as parseShell } from 'shell-quote';
import { describe, expect, it } from 'vitest';
import { cli } from '../cli/run-cli.js';
import { allBlocks } from './markdown.js';

const LOCAL = /^node node_modules\/@modelcontextprotocol\/server-[a-z]+\/dist\/index\.js( \S+)?$/;
const RUNNABLE = new Set(['tools', 'call', 'resources', 'prompts']);

/** Every such command line: where it is, and the words after `agentwire`. */
function localCommandLines(): { where: string; argv: string[] }[] {
  const found: { where: string; argv: string[] }[] = [];
  for (const block of allBlocks().filter((candidate) => candidate.lang === 'sh')) {
    const env: Record<string, string> = {};
    for (const line of block.text.replace(/\\\n\s*/g, ' ').split('\n')) {
      const assignment = /^([A-Z_]+)="([^"]*)"$/.exec(line.trim());
      if (assignment) env[assignment[1] ?? ''] = assignment[2] ?? '';
      const words = parseShell(line, (name) => env[name] ?? '').filter((word) => typeof word === 'string');
      const start = words[0] === 'npx' ? 2 : 1;
      if (words[start - 1] !== 'agentwire' || !RUNNABLE.has(words[start] ?? '')) continue;
      const stdio = words.indexOf('--stdio');
      if (stdio < 0 || !LOCAL.test(words[stdio + 1] ?? '')) continue;
      found.push({ where: `${block.page}:${block.line}: ${line.trim()}`, argv: words.slice(start) });
    }
  }
  return found;
}

describe('command lines of the docs that need only a local server', () => {
  const lines = localCommandLines();

  it('are there to run', () => {
    expect(lines.length).toBeGreaterThanOrEqual(6);
  });

  it.each(lines.map((line) => [line.where, line.argv] as const))('%s exits 0', async (_where, argv) => {
    const run = await cli([...argv]);
    expect({ code: run.code, stderr: run.stderr }).toEqual({ code: 0, stderr: '' });
    expect(run.stdout).not.toBe('');
  });
});
