/**
 * The server options every command that talks to servers adds (`--stdio`, `--url`, `--config`, the
 * timeouts, …), and their raw values. Kept apart from server-options.ts, which checks them and creates
 * clients, so that registering the commands loads no MCP code: `agentwire --help` starts fast.
 */
import { type Command, InvalidArgumentError, Option } from 'commander';
import { DEFAULT_CONNECT_TIMEOUT_MS } from '../mcp/client/options.js';
import type { MCPHttpServer } from '../mcp/config/server-spec.js';
import { DEFAULT_CALL_TIMEOUT_MS } from '../mcp/session/call-options.js';

/** The raw option values as commander collects them. */
export interface ServerOptionValues {
  stdio?: string;
  env: string[];
  cwd?: string;
  url?: string;
  header: string[];
  transport?: NonNullable<MCPHttpServer['transport']>;
  /** `--timeout <ms>`: bound on each request (a tool call, a resource read, …). */
  timeout?: number;
  /** `--connect-timeout <ms>`: bound on connecting (the handshake and the tool list). */
  connectTimeout?: number;
  /** `--config <file>`: a Claude Desktop / Cursor / VS Code server configuration file. */
  config?: string;
  /** `--server <name>` (repeatable): entries of the `--config` file, or of the hosts' configs without it. */
  server?: string[];
  /** `--input ID=value` (repeatable): values of the config's `${input:ID}` references. */
  input?: string[];
  /** `-v, --verbose`: the wire (methods, ids, timing) and the servers' stderr lines on stderr. */
  verbose?: boolean;
}

/** The option values of a command that takes several servers (`--stdio` and `--url` repeatable). */
export interface ServerListOptionValues extends Omit<ServerOptionValues, 'stdio' | 'url'> {
  stdio: string[];
  url: string[];
}

/** `--verbose`'s help line (every command that talks to servers has the flag). */
export const VERBOSE_HELP = 'show the wire on stderr: methods, ids, timing';

function collect(value: string, previous: string[]): string[] {
  return [...previous, value];
}

/** Commander parser for `--timeout`: a positive whole number of milliseconds. */
export function positiveInteger(value: string): number {
  const parsed = Number(value);
  if (!/^\d+$/.test(value) || !Number.isSafeInteger(parsed) || parsed <= 0) {
    throw new InvalidArgumentError('Expected a positive whole number of milliseconds.');
  }
  return parsed;
}

/**
 * Adds the server options to `command` (call before `.action`). With `repeatable`, `--stdio` and `--url`
 * may be given several times and collect into arrays ({@link ServerListOptionValues}); `--env` and `--cwd`
 * then apply to every `--stdio` server. `--server` always collects into an array (absent when not given): a
 * single-server command refuses more than one, with a message rather than silently keeping the last.
 */
export function addServerOptions(command: Command, options: { repeatable?: boolean } = {}): Command {
  const many = options.repeatable === true;
  const serverOption = (flags: string, description: string) =>
    many
      ? new Option(flags, `${description} (repeatable)`).argParser(collect).default([])
      : new Option(flags, description);
  return command
    .addOption(
      serverOption(
        '--stdio <command-line>',
        'start a local server: its command line, split like a shell (no expansion)',
      ),
    )
    .option('--env <KEY=VALUE>', 'environment variable for the --stdio server (repeatable)', collect, [])
    .option('--cwd <dir>', 'working directory of the --stdio server')
    .addOption(
      serverOption(
        '--url <url>',
        'connect to a remote server over Streamable HTTP, or the legacy HTTP+SSE transport',
      ),
    )
    .option('--header <"Name: value">', 'HTTP header for the --url server (repeatable)', collect, [])
    .addOption(
      new Option('--transport <mode>', 'HTTP transport for --url')
        .choices(['auto', 'streamable-http', 'sse'])
        .default('auto'),
    )
    .option('--config <file>', 'server configuration file (mcpServers / VS Code servers JSON)')
    .option(
      '--input <ID=value>',
      // biome-ignore lint/suspicious/noTemplateCurlyInString: the config's reference syntax, not a JS placeholder.
      'value of a ${input:ID} in the config (repeatable; asked for on a terminal)',
      (value: string, previous: string[] | undefined) => [...(previous ?? []), value],
    )
    .option(
      '--server <name>',
      many
        ? 'an entry of the --config file (repeatable; default: every enabled one)'
        : 'the entry of the --config file (default: its only enabled one)',
      // No default array: commander would print "(default: [])" after the real default above.
      (value: string, previous: string[] | undefined) => [...(previous ?? []), value],
    )
    .option(
      '--connect-timeout <ms>',
      `bound on connecting (handshake and tool list), in ms (default ${DEFAULT_CONNECT_TIMEOUT_MS})`,
      positiveInteger,
    )
    .option(
      '--timeout <ms>',
      `bound on each request (tool call, read, …), in ms (default ${DEFAULT_CALL_TIMEOUT_MS})`,
      positiveInteger,
    )
    .option('-v, --verbose', VERBOSE_HELP);
}
