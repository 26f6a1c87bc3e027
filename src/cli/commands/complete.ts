/**
 * `agentwire complete (--prompt <name> | --resource <uri-template>) <argument> [value]`: the values a
 * server suggests for a prompt's argument or a resource template's variable (MCP spec 2025-11-25,
 * "Server Features > Utilities > Completion").
 */
import type { Command } from 'commander';
import type { MCPCompleteParams } from '../../mcp/index.js';
import type { CommandContext } from '../context.js';
import { toJson } from '../io.js';
import { addServerOptions, type ServerOptionValues } from '../server-flags.js';
import { parsePairs } from '../tool-args.js';
import { UsageError } from '../usage-error.js';

interface CompleteOptions extends ServerOptionValues {
  prompt?: string;
  resource?: string;
  context: string[];
  json?: boolean;
}

/**
 * Registers `complete` on the program. Prints the suggested values one per line (`(no suggestions)` for
 * none), and when the server has more than it sent, `(<n> of <total>)` or `(more available)` on stderr;
 * `--json`: the `completion` object (`values`, `total`, `hasMore`). Of a server that does not declare
 * `completions`, nothing is asked: it says `server "<name>" offers no completions` (exit 0; with `--json`, on
 * stderr, and `{"values":[]}` on stdout).
 */
export function registerCompleteCommand(program: Command, context: CommandContext): void {
  const command = program
    .command('complete')
    .description("suggest values for a prompt's argument or a resource template's variable")
    .argument('<argument>', 'the argument (or template variable) to complete')
    .argument('[value]', 'what is typed so far', '')
    .option('--prompt <name>', 'complete an argument of this prompt')
    .option('--resource <uri-template>', 'complete a variable of this resource template')
    .option(
      '--context <key=value>',
      'an argument already chosen (repeatable)',
      (value: string, previous: string[]) => [...previous, value],
      [],
    )
    .option('--json', 'print the completion (values, total, hasMore) as JSON');
  addServerOptions(command).action(async (argument: string, value: string, options: CompleteOptions) => {
    const params = completeParams(argument, value, options);
    const { requestOffered, sayOffersNone } = await import('../offered.js');
    const offered = await requestOffered(options, context.io, 'completions', (client, request) =>
      client.complete(params, request),
    );
    if ('server' in offered)
      return sayOffersNone(context.io, offered.server, 'completions', { ...options, empty: { values: [] } });
    const completion = offered.value;
    if (options.json) {
      context.io.stdout(toJson(completion));
      return;
    }
    const { values } = completion;
    context.io.stdout(values.length === 0 ? '(no suggestions)\n' : values.map((v) => `${v}\n`).join(''));
    if (completion.total !== undefined && completion.total > values.length) {
      context.io.stderr(`(${values.length} of ${completion.total})\n`);
    } else if (completion.hasMore === true) {
      context.io.stderr('(more available)\n');
    }
  });
}

function completeParams(argument: string, value: string, options: CompleteOptions): MCPCompleteParams {
  if ((options.prompt === undefined) === (options.resource === undefined)) {
    throw new UsageError('give either --prompt <name> or --resource <uri-template>');
  }
  const ref: MCPCompleteParams['ref'] =
    options.prompt !== undefined
      ? { type: 'ref/prompt', name: options.prompt }
      : { type: 'ref/resource', uri: options.resource! };
  const chosen = Object.fromEntries(parsePairs(options.context, '--context'));
  return {
    ref,
    argument: { name: argument, value },
    ...(options.context.length > 0 && { context: { arguments: chosen } }),
  };
}
