/**
 * `agentwire run "<prompt>"`: an agent with the given MCP servers and, optionally, the built-in tools,
 * streaming what it does to the terminal.
 */
import { type Command, Option } from 'commander';
import { DEFAULT_MAX_TURNS, DEFAULT_TOOL_SEARCH_THRESHOLD } from '../../agent/defaults.js';
import { DEFAULT_MAX_TOOL_RESULT_BYTES } from '../../agent/result-budget.js';
import {
  DEFAULT_MODEL_IDLE_TIMEOUT_MS,
  DEFAULT_MODEL_REQUEST_TIMEOUT_MS,
} from '../../providers/guarded-stream.js';
import type { CommandContext } from '../context.js';
import type { RunCommandOptions } from '../run-command.js';
import {
  byteCount,
  callCount,
  collectPattern,
  imageCount,
  pixelCount,
  resultBytes,
  timeoutMs,
  toolCount,
  toolThreshold,
  turnCount,
} from '../run-flags.js';
import { addServerOptions } from '../server-flags.js';

/**
 * Registers `run` on the program. Every `--stdio` / `--url` server, and the `--config` file's servers
 * (those named by `--server`, else every enabled one), is connected (in parallel; any failure ends the run
 * before the model is asked, and every server that failed is reported, one line each; so is every invalid
 * entry of the file that the run would use) and its tools offered to the model — a configured server's through its
 * `allowTools` / `blockTools` — named as the server names them; a name two sources share gets its server's
 * name as a prefix (`server-everything__echo`), and `--prefix` prefixes every MCP tool. Output, as it
 * happens: model text on stdout delta by delta, one line per tool call with its arguments, per progress
 * report, and per result (`✓`) or error (`✗`, the message the model is given); warnings (a tool skipped) on
 * stderr. Each tool result the model is given fits `--max-result-bytes`; each model request is bounded by
 * `--model-idle-timeout` and `--model-timeout`; a call of a tool that may write or execute (the built-in
 * `bash`, `write_file`, `edit_file`, and MCP tools not annotated read-only) needs permission: `--yes`,
 * `--allow-tool`, or an answer on the terminal, and without a terminal it is denied (tool-permission.ts); a server's `sampling/createMessage` is answered with the
 * run's model, and its `instructions` go into the system prompt.
 *
 * Exit codes: 0 the run completed (even if some tool calls failed: the model saw those errors), 2 usage or no
 * model provider configured, 3 a server or the model API could not be reached, 1 `--max-turns` exceeded,
 * 130 interrupted (`io.signal`, Ctrl-C): the model stream and every MCP call in flight are cancelled
 * (`notifications/cancelled`) and every server is disconnected before the command returns.
 */
export function registerRunCommand(program: Command, context: CommandContext): void {
  const command = program
    .command('run')
    .description('run an agent on a prompt with MCP servers and built-in tools, streaming what it does')
    .argument('<prompt>', 'what to ask the model')
    .addOption(
      new Option('--tools <set>', 'add the built-in tools (bash, read_file, …), confined to --root').choices([
        'default',
      ]),
    )
    .option('--root <dir>', 'workspace the built-in tools are confined to (default: the current directory)')
    .option(
      '--model <[provider:]id>',
      'anthropic:<model-id>, openai:<model-id>, or a bare <model-id> for the provider the environment configures (default: AGENTWIRE_MODEL, then the environment)',
    )
    .option('--max-turns <n>', `model turns before giving up (default ${DEFAULT_MAX_TURNS})`, turnCount)
    .option('--prefix', "prefix every MCP tool's name with its server's name (server__tool)")
    .option(
      '--max-result-bytes <n>',
      `budget of each tool result the model is given, in bytes (default ${DEFAULT_MAX_TOOL_RESULT_BYTES})`,
      resultBytes,
    )
    .option(
      '--model-idle-timeout <ms>',
      `give up on a model stream silent this long, 0 for never (default ${DEFAULT_MODEL_IDLE_TIMEOUT_MS})`,
      timeoutMs,
    )
    .option(
      '--model-timeout <ms>',
      `give up on a model request taking longer, 0 for never (default ${DEFAULT_MODEL_REQUEST_TIMEOUT_MS})`,
      timeoutMs,
    )
    .option('--json', "print the agent's events as JSON lines on stdout (one object per line)")
    .option('-y, --yes', 'run every tool call without asking for permission')
    .option(
      '--allow-tool <pattern>',
      'run calls of the tools matching this name (* and ? wildcards) without asking; repeatable',
      collectPattern,
    )
    .option(
      '--max-concurrent-calls <calls>',
      "most tool calls in flight to each server (a --config entry's maxConcurrentCalls wins; default no bound)",
      callCount,
    )
    .option(
      '--tool-search-threshold <tools>',
      `above this many tools the model finds them with search_tools; 0 always (default ${DEFAULT_TOOL_SEARCH_THRESHOLD})`,
      toolThreshold,
    )
    .option(
      '--max-tools-per-request <tools>',
      "most tools one model request carries (default: the provider's bound, 128 for openai)",
      toolCount,
    )
    .option('--no-images', 'send the images of tool results as their placeholder text only')
    .option(
      '--max-image-bytes <bytes>',
      "largest image sent, decoded; larger ones are scaled down (default: the provider's limit)",
      byteCount,
    )
    .option(
      '--max-image-dimension-px <px>',
      "longest edge of an image sent; larger ones are scaled down (default: the provider's limit)",
      pixelCount,
    )
    .option(
      '--max-images-per-request <images>',
      "most images in one model request, newest first (default: the provider's limit)",
      imageCount,
    )
    .option(
      '--max-image-bytes-per-request <bytes>',
      "most image bytes in one model request, newest first (default: the provider's limit)",
      byteCount,
    );
  addServerOptions(command, { repeatable: true }).action(
    async (prompt: string, options: RunCommandOptions) => {
      // Loaded when the command runs, not when it is registered: `--help` needs none of it.
      const { runAgentCommand } = await import('../run-command.js');
      await runAgentCommand(prompt, options, context);
    },
  );
}
