/** `agentwire call <tool> [key=value… | json | -]`: calls one tool of a server and prints its result. */
import type { Command } from 'commander';
import type { MCPTask } from '../../mcp/index.js';
import type { CommandContext } from '../context.js';
import { ExitCode } from '../io.js';
import { addServerOptions, type ServerOptionValues } from '../server-flags.js';
import { checkedArgs, parseToolArgs, readStdin, stdinArgs, typedArgs } from '../tool-args.js';
import { UsageError } from '../usage-error.js';

interface CallOptions extends ServerOptionValues {
  json?: boolean;
}

/**
 * Registers `call` on the program. The arguments: `key=value` words typed by the tool's input schema, one
 * JSON object, or `-` for a JSON object read from stdin (see tool-args.ts); a required argument left out is
 * refused (exit 2) unless its schema has a `default`, as a run refuses it (`missingRequired`). Prints the result rendered as a model sees it (`renderCallToolResult`;
 * an object result pretty-printed as JSON), or with `--json` the raw `CallToolResult`. A result with
 * `isError: true` exits 1, its text on stderr (and the raw result on stdout with `--json`). A `--config`
 * server's tools left out by its entry's `allowTools` / `blockTools` cannot be called (exit 2). On a
 * terminal, a tool's progress reports are drawn as a bar on stderr (call-progress.ts); piped, nothing is.
 */
export function registerCallCommand(program: Command, context: CommandContext): void {
  const command = program
    .command('call')
    .description('call one tool and print its result')
    .argument('<tool>', "the tool's name on the server")
    .argument(
      '[arguments...]',
      "key=value words typed by the tool's schema (message=hi count=3), a JSON object, or - for JSON on stdin",
    )
    .option('--json', 'print the raw CallToolResult as JSON');
  addServerOptions(command).action(async (tool: string, words: string[], options: CallOptions) => {
    // Checked before anything is started, so a typo costs no server start.
    const args = parseToolArgs(words);
    // Loaded when the command runs, not when it is registered: `--help` needs none of it.
    const { commandTarget } = await import('../config-targets.js');
    const { withServer } = await import('../with-servers.js');
    const { renderCallToolResultText } = await import('../../mcp/index.js');
    const { renderForTerminal, requireTool } = await import('../call-result.js');
    const { callProgress } = await import('../call-progress.js');
    const { missingRequired } = await import('../../agent/arguments.js');
    const target = await commandTarget(options);
    const given = args.kind === 'stdin' ? stdinArgs(await readStdin(context.io)) : undefined;
    const timeout = target.timeout === undefined ? {} : { timeoutMs: target.timeout };
    const result = await withServer(target, context.io, async (client) => {
      const definition = requireTool(client, target, tool);
      const input =
        args.kind === 'pairs'
          ? typedArgs(args.pairs, definition.inputSchema, tool)
          : checkedArgs(given ?? (args.kind === 'object' ? args.value : {}), definition.inputSchema, tool);
      const missing = missingRequired(input, definition.inputSchema);
      if (missing.length > 0) {
        throw new UsageError(`tool "${tool}" needs the argument(s) ${missing.join(', ')}`);
      }
      // A bar on a terminal for a tool that reports progress; ended before the result or error is printed.
      // Without one, a task-backed call (MCP tasks) reports each status the server gives on its own line.
      const progress = callProgress(context.io);
      // A task's status reaches `onTaskStatus`, then `onprogress` as `task <status>…` with no task id: on
      // the bar, that report shows the status line with the id instead.
      let taskLine: string | undefined;
      try {
        return await client.callTool(tool, input, {
          ...timeout,
          ...(context.io.signal && { signal: context.io.signal }),
          ...(progress
            ? {
                onTaskStatus: (task) => {
                  taskLine = taskStatusLine(task);
                },
                onprogress: (report) => {
                  progress.onprogress(taskLine === undefined ? report : { ...report, message: taskLine });
                  taskLine = undefined;
                },
              }
            : { onTaskStatus: (task) => context.io.stderr(`${taskStatusLine(task)}\n`) }),
        });
      } finally {
        await progress?.stop();
      }
    });
    if (options.json) context.io.stdout(`${JSON.stringify(result, null, 2)}\n`);
    if (result.isError === true) {
      context.io.stderr(`error: tool "${tool}" reported an error: ${renderCallToolResultText(result)}\n`);
      context.exit(ExitCode.toolError);
      return;
    }
    if (!options.json) context.io.stdout(renderForTerminal(result));
  });
}

/** `task <id>: <status> (<statusMessage>)`, a task's status as `call` shows it. */
function taskStatusLine({ taskId, status, statusMessage }: MCPTask): string {
  return `task ${taskId}: ${status}${statusMessage ? ` (${statusMessage})` : ''}`;
}
