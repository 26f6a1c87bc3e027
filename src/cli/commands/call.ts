/** `agentwire call <server> <tool> [json-args]`: calls one tool and prints its result. */
import type { Command } from 'commander';
import {
  type CallToolResult,
  type MCPClient,
  renderCallToolResult,
  renderCallToolResultText,
} from '../../mcp/index.js';
import type { CommandContext } from '../context.js';
import { ExitCode } from '../io.js';
import { parseJsonArgs } from '../json-args.js';
import { addServerOptions, type ServerOptionValues, serverTarget } from '../server-options.js';
import { UsageError } from '../usage-error.js';
import { withClient } from '../with-client.js';

interface CallOptions extends ServerOptionValues {
  json?: boolean;
}

/**
 * Registers `call` on the program. Prints the result rendered as a model sees it (`renderCallToolResult`;
 * an object result pretty-printed as JSON), or with `--json` the raw `CallToolResult`. A result with
 * `isError: true` exits 1, its text on stderr (and the raw result on stdout with `--json`).
 */
export function registerCallCommand(program: Command, context: CommandContext): void {
  const command = program
    .command('call')
    .description('call one tool and print its result')
    .argument('<tool>', "the tool's name on the server")
    .argument('[json-args]', 'the tool input as a JSON object, e.g. \'{"message":"hi"}\'')
    .option('--json', 'print the raw CallToolResult as JSON');
  addServerOptions(command).action(
    async (tool: string, jsonArgs: string | undefined, options: CallOptions) => {
      // Checked before anything is started, so a typo costs no server start.
      const input = parseJsonArgs(jsonArgs);
      const target = serverTarget(options);
      const timeout = target.timeout === undefined ? {} : { timeout: target.timeout };
      const result = await withClient(target, context.io, async (client) => {
        requireTool(client, tool);
        return client.callTool(tool, input, {
          ...timeout,
          ...(context.io.signal && { signal: context.io.signal }),
        });
      });
      if (options.json) context.io.stdout(`${JSON.stringify(result, null, 2)}\n`);
      if (result.isError === true) {
        context.io.stderr(`error: tool "${tool}" reported an error: ${renderCallToolResultText(result)}\n`);
        context.exit(ExitCode.toolError);
        return;
      }
      if (!options.json) context.io.stdout(renderForTerminal(result));
    },
  );
}

function requireTool(client: MCPClient, name: string): void {
  const tools = client.getTools();
  if (tools.some((tool) => tool.name === name)) return;
  const available =
    tools.length === 0 ? 'it has no tools' : `available: ${tools.map((t) => t.name).join(', ')}`;
  throw new UsageError(`server "${client.name}" has no tool "${name}" (${available})`);
}

/** The rendered result, newline-terminated; an object (structured content) as indented JSON. */
export function renderForTerminal(result: CallToolResult): string {
  const value = renderCallToolResult(result);
  const text = typeof value === 'string' ? value : JSON.stringify(value, null, 2);
  return text.endsWith('\n') ? text : `${text}\n`;
}
