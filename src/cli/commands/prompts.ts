/**
 * `agentwire prompts list|get <name> [key=value…]`: a server's prompts (MCP spec 2025-11-25, "Server
 * Features > Prompts"), for people (default) or scripts (`--json`: the server's own objects).
 */
import type { Command } from 'commander';
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
 * `arguments`) and prints each message as `<role>: <content>`. Of a server that does not declare `prompts`,
 * nothing is asked: each says `server "<name>" offers no prompts` (exit 0; with `--json` on stderr, and `[]`
 * on stdout for the list).
 */
export function registerPromptsCommand(program: Command, context: CommandContext): void {
  const prompts = program.command('prompts').description("list and fill a server's prompts");

  const list = prompts
    .command('list')
    .description('list the prompts and their arguments (prompts/list)')
    .option('--json', 'print them as JSON');
  addServerOptions(list).action(async (options: PromptsOptions) => {
    const { formatPrompts } = await import('../resource-output.js');
    const { requestOffered, sayOffersNone } = await import('../offered.js');
    const items = await requestOffered(options, context.io, 'prompts', (client, request) =>
      client.listPrompts(request),
    );
    if ('server' in items)
      return sayOffersNone(context.io, items.server, 'prompts', { ...options, empty: [] });
    context.io.stdout(options.json ? toJson(items.value) : formatPrompts(items.value));
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
    const { requestOffered, sayOffersNone } = await import('../offered.js');
    const { UsageError } = await import('../usage-error.js');
    const result = await requestOffered(options, context.io, 'prompts', async (client, request) => {
      // Checked against prompts/list before prompts/get, as `call` checks a tool and its arguments.
      const listed = await client.listPrompts(request);
      const prompt = listed.find((one) => one.name === name);
      if (prompt === undefined) {
        const available =
          listed.length === 0 ? 'it has no prompts' : `available: ${listed.map((p) => p.name).join(', ')}`;
        throw new UsageError(`server "${client.name}" has no prompt "${name}" (${available})`);
      }
      const missing = (prompt.arguments ?? [])
        .filter((argument) => argument.required === true && !Object.hasOwn(args, argument.name))
        .map((argument) => argument.name);
      if (missing.length > 0)
        throw new UsageError(`prompt "${name}" needs the argument(s) ${missing.join(', ')}`);
      return client.getPrompt(name, args, request);
    });
    if ('server' in result) return sayOffersNone(context.io, result.server, 'prompts', options);
    context.io.stdout(options.json ? toJson(result.value) : formatPromptMessages(result.value));
  });
}
