/** `agentwire tools <server>`: the server's tools, for people (default) or scripts (`--json`). */
import type { Command } from 'commander';
import { paint } from '../colors.js';
import type { CommandContext } from '../context.js';
import { addServerOptions, type ServerOptionValues } from '../server-flags.js';

interface ToolsOptions extends ServerOptionValues {
  json?: boolean;
}

/**
 * Registers `tools` on the program. Output: the tool list, or with `--json` the raw `tools/list` entries;
 * for a `--config` server, only the tools its `allowTools` / `blockTools` let through. A server that does not
 * declare `tools` is asked nothing: `server "<name>" offers no tools` (exit 0; with `--json` on stderr, and
 * `[]` on stdout).
 */
export function registerToolsCommand(program: Command, context: CommandContext): void {
  const command = program
    .command('tools')
    .description("list a server's tools: name, one-line description, parameters")
    .option('--json', 'print the full tool definitions (tools/list entries) as JSON');
  addServerOptions(command).action(async (options: ToolsOptions) => {
    // Loaded when the command runs, not when it is registered: `--help` needs none of it.
    const { commandTarget, exposedTools } = await import('../config-targets.js');
    const { withServer } = await import('../with-servers.js');
    const { formatToolList } = await import('../tool-list.js');
    const { offers, sayOffersNone } = await import('../offered.js');
    const target = await commandTarget(options);
    const definitions = await withServer(target, context.io, async (client) =>
      offers(client, 'tools') ? exposedTools(client, target).map((tool) => tool.definition) : client.name,
    );
    if (typeof definitions === 'string')
      return sayOffersNone(context.io, definitions, 'tools', { ...options, empty: [] });
    context.io.stdout(
      options.json
        ? `${JSON.stringify(definitions, null, 2)}\n`
        : formatToolList(definitions, paint(context.io.colorStdout === true)),
    );
  });
}
