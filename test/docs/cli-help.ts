/**
 * The CLI's commands and flags as the program itself tells them: `agentwire --help`, then `--help` of each
 * command and subcommand, run in-process (`runCli`), parsed. What docs/cli.md and every command line in the
 * docs are checked against.
 */
import { runCli } from '../../src/cli/program.js';

/** One command of the program: `''` for the program itself, `tools`, `resources list`, …. */
export interface CliCommand {
  path: string;
  /** Every flag, long and short (`--json`, `-v`, `--verbose`), help and version included. */
  flags: Set<string>;
  /** The flags that take a value (`--stdio <command-line>`). */
  takesValue: Set<string>;
  /** The paths of its subcommands. */
  subcommands: string[];
}

async function helpOf(path: string): Promise<string> {
  let out = '';
  const io = {
    stdout: (text: string) => {
      out += text;
    },
    stderr: (text: string) => {
      out += text;
    },
  };
  const code = await runCli([...(path === '' ? [] : path.split(' ')), '--help'], io);
  if (code !== 0) throw new Error(`agentwire ${path} --help exited ${code}:\n${out}`);
  return out;
}

/** The lines of the help's `<title>:` section, up to the next blank line. */
function section(help: string, title: string): string[] {
  const lines = help.split('\n');
  const start = lines.indexOf(`${title}:`);
  if (start < 0) return [];
  const end = lines.findIndex((line, index) => index > start && line.trim() === '');
  return lines.slice(start + 1, end < 0 ? undefined : end);
}

/** Every command of the program, the program itself first, by path. */
export async function cliCommands(): Promise<Map<string, CliCommand>> {
  const commands = new Map<string, CliCommand>();
  const visit = async (path: string): Promise<void> => {
    const help = await helpOf(path);
    const command: CliCommand = { path, flags: new Set(), takesValue: new Set(), subcommands: [] };
    for (const line of section(help, 'Options')) {
      const match = /^ {2}(?:(-[A-Za-z]), )?(--[\w-]+)( [<[])?/.exec(line);
      if (!match) continue;
      const [, short, long = '', value] = match;
      for (const flag of [short, long]) {
        if (flag === undefined) continue;
        command.flags.add(flag);
        if (value !== undefined) command.takesValue.add(flag);
      }
    }
    for (const line of section(help, 'Commands')) {
      const name = /^ {2}([a-z][\w-]*)/.exec(line)?.[1];
      if (name !== undefined && name !== 'help')
        command.subcommands.push(path === '' ? name : `${path} ${name}`);
    }
    commands.set(path, command);
    for (const sub of command.subcommands) await visit(sub);
  };
  await visit('');
  return commands;
}
