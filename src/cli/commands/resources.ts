/**
 * `agentwire resources list|templates|read <uri>`: a server's resources (MCP spec 2025-11-25, "Server
 * Features > Resources"), for people (default) or scripts (`--json`: the server's own objects).
 */
import type { Command } from 'commander';
import type { CommandContext } from '../context.js';
import { toJson } from '../io.js';
import { addServerOptions, type ServerOptionValues } from '../server-flags.js';

interface ResourcesOptions extends ServerOptionValues {
  json?: boolean;
}

/**
 * Registers `resources` and its subcommands on the program. `list` and `templates` read every page;
 * `read` prints each text content as it is and each blob as a placeholder with its size (`--json`: the
 * `resources/read` result, blobs base64 as sent). Of a server that does not declare `resources`, nothing is
 * asked: each says `server "<name>" offers no resources` (exit 0; with `--json` on stderr, and `[]` on stdout
 * for the lists).
 */
export function registerResourcesCommand(program: Command, context: CommandContext): void {
  const resources = program.command('resources').description("list and read a server's resources");
  const json = (command: Command, what: string) => command.option('--json', `print ${what} as JSON`);

  const list = json(resources.command('list').description('list the resources (resources/list)'), 'them');
  addServerOptions(list).action(async (options: ResourcesOptions) => {
    const { formatResources } = await import('../resource-output.js');
    const { requestOffered, sayOffersNone } = await import('../offered.js');
    const items = await requestOffered(options, context.io, 'resources', (client, request) =>
      client.listResources(request),
    );
    if ('server' in items)
      return sayOffersNone(context.io, items.server, 'resources', { ...options, empty: [] });
    context.io.stdout(options.json ? toJson(items.value) : formatResources(items.value));
  });

  const templates = json(
    resources.command('templates').description('list the resource templates (resources/templates/list)'),
    'them',
  );
  addServerOptions(templates).action(async (options: ResourcesOptions) => {
    const { formatTemplates } = await import('../resource-output.js');
    const { requestOffered, sayOffersNone } = await import('../offered.js');
    const items = await requestOffered(options, context.io, 'resources', (client, request) =>
      client.listResourceTemplates(request),
    );
    if ('server' in items)
      return sayOffersNone(context.io, items.server, 'resources', { ...options, empty: [] });
    context.io.stdout(options.json ? toJson(items.value) : formatTemplates(items.value));
  });

  const read = json(
    resources
      .command('read')
      .description("print a resource's contents (resources/read)")
      .argument('<uri>', "the resource's URI, e.g. file:///etc/hosts"),
    'the resources/read result',
  );
  addServerOptions(read).action(async (uri: string, options: ResourcesOptions) => {
    const { formatContents } = await import('../resource-output.js');
    const { requestOffered, sayOffersNone } = await import('../offered.js');
    const result = await requestOffered(options, context.io, 'resources', (client, request) =>
      client.readResource(uri, request),
    );
    if ('server' in result) return sayOffersNone(context.io, result.server, 'resources', options);
    context.io.stdout(options.json ? toJson(result.value) : formatContents(result.value));
  });
}
