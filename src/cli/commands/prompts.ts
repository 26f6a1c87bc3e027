/**
 * `agentwire prompts list|get <name> [key=value…]`: a server's prompts (MCP spec 2025-11-25, "Server
 * Features > Prompts"), for people (default) or scripts (`--json`: the server's own objects).
 */
import type { Command } from 'commander';
import { requestServer } from '../command-runtime.js';
import type { CommandContext } from '../context.js';
import { toJson } from '../io.js';
import { addServerOptions, type ServerOptionValues } from '../server-flags.js';
import { parsePairs } from '../tool-args.js';

interface PromptsOptions extends ServerOptionValues {
  json?: boolean;
}

/**
 * Registers `prompts` and its subcommands on the program. `list` reads every page; `get` fills the prompt
 * with `key=value` arguments (prompt arguments are strings: MCP spec 2025-11-25, "Prompts",
 * `arguments`) and prints each message as `<role>: <content>`. A server without prompts fails with its
 * JSON-RPC error (exit 3).
 */
export function registerPromptsCommand(program: Command, context: CommandContext): void {
  const prompts = program.command('prompts').description("list and fill a server's prompts");

  const list = prompts
    .command('list')
    .description('list the prompts and their arguments (prompts/list)')
    .option('--json', 'print them as JSON');
  addServerOptions(list).action(async (options: PromptsOptions) => {
    const { formatPrompts } = await import('../resource-output.js');
    const items = await requestServer(options, context.io, (client, request) => client.listPrompts(request));
    context.io.stdout(options.json ? toJson(items) : formatPrompts(items));
  });

  const get = prompts
    .command('get')
    .description("print a prompt's messages, filled with the arguments given (prompts/get)")
    .argument('<name>', "the prompt's name")
    .argument('[arguments...]', 'key=value words, e.g. city=Paris')
    .option('--json', 'print the prompts/get result as JSON');
  addServerOptions(get).action(async (name: string, words: string[], options: PromptsOptions) => {
    const args = Object.fromEntries(parsePairs(words, 'the prompt arguments'));
    const { formatPromptMessages } = await import('../resource-output.js');
    const result = await requestServer(options, context.io, (client, request) =>
      client.getPrompt(name, args, request),
    );
    context.io.stdout(options.json ? toJson(result) : formatPromptMessages(result));
  });
}
