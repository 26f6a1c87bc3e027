/**
 * `runCli(argv, io)`: the whole CLI as a function, so tests run it in-process and the bin entry
 * (`main.ts`) only wires it to the process. Commands live one per file under `commands/`.
 */
import { Command, CommanderError } from 'commander';
import { VERSION } from '../core/version.js';
import { registerAuthCommand } from './commands/auth.js';
import { registerCallCommand } from './commands/call.js';
import { registerCompleteCommand } from './commands/complete.js';
import { registerConfigsCommand } from './commands/configs.js';
import { registerPromptsCommand } from './commands/prompts.js';
import { registerResourcesCommand } from './commands/resources.js';
import { registerRunCommand } from './commands/run.js';
import { registerServeCommand } from './commands/serve.js';
import { registerServersCommand } from './commands/servers.js';
import { registerSkillsCommand } from './commands/skills.js';
import { registerTasksCommand } from './commands/tasks.js';
import { registerToolsCommand } from './commands/tools.js';
import type { CommandContext } from './context.js';
import { configureHelp } from './help-text.js';
import { type CliIo, ExitCode, type ExitCodeValue } from './io.js';
import { ReportedFailure } from './reported-failure.js';
import { VERBOSE_HELP } from './server-flags.js';
import { UsageError } from './usage-error.js';

/**
 * Runs the CLI on `argv` (the arguments after the program name, e.g. `['tools', '--stdio', 'node s.js']`).
 * Never throws and never exits the process.
 * @returns the exit code: 0 ok, 1 tool error, 2 usage, 3 connection or call failure (see `ExitCode`), 130 an
 *   agent run interrupted through `io.signal` (`ExitCode.interrupted`, 130).
 */
export async function runCli(argv: readonly string[], io: CliIo): Promise<ExitCodeValue> {
  let exitCode: ExitCodeValue = ExitCode.ok;
  const context: CommandContext = {
    io,
    exit: (code) => {
      exitCode = code;
    },
  };
  const program = createCliProgram(context);
  try {
    await program.parseAsync([...argv], { from: 'user' });
    return exitCode;
  } catch (error) {
    // Commander has already printed its own message (or the help / version) through `io`.
    if (error instanceof CommanderError) return error.exitCode === 0 ? ExitCode.ok : ExitCode.usage;
    if (error instanceof ReportedFailure) return error.exitCode;
    const { describeRunFailure } = await import('./run-failure.js');
    const failure = describeRunFailure(error);
    io.stderr(failure.text);
    return failure.exitCode;
  }
}

/**
 * The whole command tree, every command registered, nothing parsed yet: what {@link runCli} parses, and
 * what a caller walks to see every command (`program.commands`, recursively).
 */
export function createCliProgram(context: CommandContext): Command {
  const program = createProgram(context.io);
  registerToolsCommand(program, context);
  registerCallCommand(program, context);
  registerRunCommand(program, context);
  registerServersCommand(program, context);
  registerAuthCommand(program, context);
  registerConfigsCommand(program, context);
  registerResourcesCommand(program, context);
  registerPromptsCommand(program, context);
  registerCompleteCommand(program, context);
  registerSkillsCommand(program, context);
  registerServeCommand(program, context);
  registerTasksCommand(program, context);
  return program;
}

function createProgram(io: CliIo): Command {
  // Set before the commands are added: subcommands copy these settings when they are created.
  const program = new Command('agentwire')
    .description('Call the tools of any MCP server from the command line, or give them to an agent.')
    .version(VERSION)
    .exitOverride()
    .configureOutput({ writeOut: (text) => io.stdout(text), writeErr: (text) => io.stderr(text) })
    .showHelpAfterError('(add --help for usage)')
    .option('-v, --verbose', VERBOSE_HELP);
  // `agentwire -v call …` as `agentwire call -v …`: the program's flag handed to the command that runs.
  program.hook('preAction', (_program, command) => {
    if (program.opts().verbose !== true) return;
    if (!command.options.some((option) => option.attributeName() === 'verbose'))
      throw new UsageError(`-v/--verbose does not apply to "${commandPath(command)}" (it has no wire trace)`);
    command.setOptionValue('verbose', true);
  });
  return configureHelp(program);
}

/** `tasks list` for the `list` subcommand of `tasks`: the words after the program name. */
function commandPath(command: Command): string {
  const words: string[] = [];
  for (let at: Command | null = command; at?.parent; at = at.parent) words.unshift(at.name());
  return words.join(' ');
}
