/** `agentwire tools <server>`: the server's tools, for people (default) or scripts (`--json`). */
import type { Command } from 'commander';
import type { CommandContext } from '../context.js';
import { addServerOptions, type ServerOptionValues, serverTarget } from '../server-options.js';
import { formatToolList } from '../tool-list.js';
import { withClient } from '../with-client.js';

interface ToolsOptions extends ServerOptionValues {
  json?: boolean;
}

/** Registers `tools` on the program. Output: the tool list, or with `--json` the raw `tools/list` entries. */
export function registerToolsCommand(program: Command, context: CommandContext): void {
  const command = program
    .command('tools')
    .description("list a server's tools: name, one-line description, parameters")
    .option('--json', 'print the full tool definitions (tools/list entries) as JSON');
  addServerOptions(command).action(async (options: ToolsOptions) => {
    const target = serverTarget(options);
    const definitions = await withClient(target, context.io, async (client) =>
      client.getTools().map((tool) => tool.definition),
    );
    context.io.stdout(
      options.json ? `${JSON.stringify(definitions, null, 2)}\n` : formatToolList(definitions),
    );
  });
}
