/**
 * `agentwire call` on a task-backed tool (MCP spec 2025-11-25, "Basic > Utilities > Tasks"): server-everything's
 * `simulate-research-query` runs as a task; each status goes to stderr as a line, the result to stdout.
 */
import { describe, expect, it } from 'vitest';
import { cli, EVERYTHING } from './run-cli.js';

describe('agentwire call on a task-required tool', () => {
  it('prints each task status on stderr and the final result on stdout', async () => {
    const run = await cli(['call', '--stdio', EVERYTHING, 'simulate-research-query', '{"topic":"tides"}']);
    expect(run.code).toBe(0);
    expect(run.stdout.split('\n')[0]).toBe('# Research Report: tides');
    const lines = run.stderr.split('\n').filter(Boolean);
    const stages = ['Gathering sources', 'Analyzing content', 'Synthesizing findings', 'Generating report'];
    for (const line of lines) {
      expect(line).toMatch(
        new RegExp(`^task [0-9a-f]{32}: (working|completed) \\((${stages.join('|')})\\.\\.\\.\\)$`),
      );
    }
    expect(lines.at(-1)).toMatch(/: completed \(Generating report\.\.\.\)$/);
    expect(new Set(lines.map((line) => line.split(':')[0])).size).toBe(1);
  }, 30_000);
});
