/**
 * Every command's `--help` fits commander's help width (80 columns off a terminal): the commands are taken
 * from the program itself, so a command added later is checked too.
 */
import type { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import { createCliProgram } from '../../src/cli/program.js';
import { cli } from './run-cli.js';

/** The help width commander uses when stdout is not a terminal. */
const HELP_WIDTH = 80;

/** The paths of the program (`[]`) and of every command and subcommand below it. */
function commandPaths(command: Command, path: string[] = []): string[][] {
  return [path, ...command.commands.flatMap((sub) => commandPaths(sub, [...path, sub.name()]))];
}

const quiet = { io: { stdout: () => {}, stderr: () => {} }, exit: () => {} };
const paths = commandPaths(createCliProgram(quiet));

describe('--help', () => {
  it('is offered by the program and by more than a dozen commands', () => {
    // The walk found the tree (12 commands, their subcommands): not an empty loop below.
    expect(paths.filter((path) => path.length === 1).length).toBeGreaterThanOrEqual(12);
    expect(paths.some((path) => path.join(' ') === 'tasks list')).toBe(true);
  });

  it.each(paths.map((path) => [path.join(' ') || '(the program)', path] as const))(
    'of %s has no line over 80 columns',
    async (_name, path) => {
      const run = await cli([...path, '--help']);
      expect(run.code).toBe(0);
      expect(run.stdout).toContain(`Usage: agentwire ${[...path, ''].join(' ')}`);
      expect(run.stdout.split('\n').filter((line) => line.length > HELP_WIDTH)).toEqual([]);
    },
  );
});
