/**
 * `agentwire call` on a task-backed tool (MCP spec 2025-11-25, "Basic > Utilities > Tasks"): server-everything's
 * `simulate-research-query` runs as a task; each status goes to stderr as a line, the result to stdout.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { needsProgram } from '../fixtures/system-programs.js';
import { ensureBuilt } from './built-cli.js';
import { cli, EVERYTHING } from './run-cli.js';
import { runInTerminal } from './terminal.js';

beforeAll(() => {
  ensureBuilt();
}, 120_000);

const hasTmux = needsProgram('tmux', import.meta.url);
const STAGES = ['Gathering sources', 'Analyzing content', 'Synthesizing findings', 'Generating report'];

describe('agentwire call on a task-required tool', () => {
  it('prints each task status on stderr and the final result on stdout', async () => {
    const run = await cli(['call', '--stdio', EVERYTHING, 'simulate-research-query', '{"topic":"tides"}']);
    expect(run.code).toBe(0);
    expect(run.stdout.split('\n')[0]).toBe('# Research Report: tides');
    const lines = run.stderr.split('\n').filter(Boolean);
    for (const line of lines) {
      expect(line).toMatch(
        new RegExp(`^task [0-9a-f]{32}: (working|completed) \\((${STAGES.join('|')})\\.\\.\\.\\)$`),
      );
    }
    expect(lines.at(-1)).toMatch(/: completed \(Generating report\.\.\.\)$/);
    expect(new Set(lines.map((line) => line.split(':')[0])).size).toBe(1);
  }, 30_000);

  it.skipIf(!hasTmux)(
    'on a terminal, draws each status on the progress line with the task id',
    async () => {
      const run = await runInTerminal(
        ['call', '--stdio', EVERYTHING, 'simulate-research-query', '{"topic":"tides"}'],
        { NO_COLOR: '1' },
        30_000,
        true,
      );
      const esc = String.fromCharCode(27);
      const drawn = [...run.output.matchAll(new RegExp(`${esc}\\[1G(.*?)${esc}\\[0K`, 'g'))].map(
        (m) => m[1] ?? '',
      );
      const status = `task [0-9a-f]{32}: (working|completed) \\((${STAGES.join('|')})\\.\\.\\.\\)`;
      expect(drawn.length).toBeGreaterThan(0);
      for (const line of drawn) expect(line).toMatch(new RegExp(`^progress \\d+ ${status}$`));
      expect(new Set(drawn.map((line) => line.split(':')[0]?.split(' ').at(-1))).size).toBe(1);
      const screen = run.screen?.split('\n') ?? [];
      expect({ code: run.code, first: screen[0], second: screen[1] }).toEqual({
        code: 0,
        first: drawn.at(-1),
        second: '# Research Report: tides',
      });
      expect(drawn.at(-1)).toMatch(/: completed \(Generating report\.\.\.\)$/);
    },
    60_000,
  );
});
