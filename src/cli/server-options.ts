/**
 * How a command names its server: `--stdio "<command line>"` (with `--env K=V`, `--cwd DIR`),
 * `--url <url>` (with `--header "K: V"`, `--transport`), or `--config <file>` with `--server <name>`, plus
 * `--connect-timeout <ms>` and `--timeout <ms>`. Every command that talks to servers adds these options; {@link serverTarget} and
 * {@link serverTargets} check the `--stdio` / `--url` ones, and `config-targets.ts` adds the `--config`
 * branch (which reads a file, hence async). `agentwire run` takes several servers at once:
 * `addServerOptions(command, { repeatable: true })`.
 */
import { statSync } from 'node:fs';
import { parse as parseShell } from 'shell-quote';
import { nameFromUrl } from '../mcp/client/transport-plan.js';
import { parseServerUrl } from '../mcp/config/server-spec.js';
import {
  createClient as createConfigClient,
  MCPClient,
  type MCPClientOptions,
  type MCPConfigWarning,
  type MCPHttpServer,
  type MCPServerEntry,
  MCPServerUrlError,
  type MCPStdioServer,
} from '../mcp/index.js';
import { storedLogin } from './auth/stored-login.js';
import type { ServerListOptionValues, ServerOptionValues } from './server-flags.js';
import { UsageError } from './usage-error.js';

export {
  addServerOptions,
  positiveInteger,
  type ServerListOptionValues,
  type ServerOptionValues,
} from './server-flags.js';

/** The time bounds given on the command line, in ms; absent means the client's defaults. */
export interface TargetTimeouts {
  /** Each request: a tool call, a resource read, a prompt, a completion (`--timeout`). */
  timeout?: number;
  /** Connecting: the handshake and the tool list (`--connect-timeout`). */
  connectTimeout?: number;
  /** `--verbose`: the server's wire and stderr lines traced on stderr (wire-trace.ts). */
  verbose?: boolean;
}

/** A server to connect to, checked and ready for `MCPClient`. */
export type ServerTarget = TargetTimeouts &
  (
    | { kind: 'stdio'; server: MCPStdioServer }
    | {
        kind: 'url';
        url: URL;
        headers: Record<string, string>;
        transport: NonNullable<MCPHttpServer['transport']>;
      }
    | {
        kind: 'config';
        /** The entry, interpolated, with its `allowTools` / `blockTools`; its name names the client. */
        entry: MCPServerEntry;
        /** The file's warnings about this entry (keys agentwire does not read), printed when it is used. */
        warnings?: readonly MCPConfigWarning[];
      }
  );

/** The `--timeout` / `--connect-timeout` values given, and `--verbose`, for a target. */
export function targetTimeouts(values: TargetTimeouts): TargetTimeouts {
  return {
    ...(values.timeout === undefined ? {} : { timeout: values.timeout }),
    ...(values.connectTimeout === undefined ? {} : { connectTimeout: values.connectTimeout }),
    ...(values.verbose === true && { verbose: true }),
  };
}

/**
 * Checks the option values and says which server they name.
 * @throws UsageError when no server or two servers are named, or an option does not fit the server kind.
 *   Messages name the option, never an `--env` or `--header` value.
 */
export function serverTarget(values: ServerOptionValues): ServerTarget {
  if (values.stdio !== undefined && values.url !== undefined) {
    throw new UsageError('give either --stdio or --url, not both');
  }
  const timeout = targetTimeouts(values);
  if (values.stdio !== undefined) {
    if (values.header.length > 0) throw new UsageError('--header applies to --url servers only');
    return { kind: 'stdio', server: stdioServer(values.stdio, values.env, values.cwd), ...timeout };
  }
  if (values.url !== undefined) {
    if (values.env.length > 0) throw new UsageError('--env applies to --stdio servers only');
    if (values.cwd !== undefined) throw new UsageError('--cwd applies to --stdio servers only');
    const url = parseUrl(values.url);
    return {
      kind: 'url',
      url,
      headers: parseHeaders(values.header),
      transport: values.transport ?? 'auto',
      ...timeout,
    };
  }
  throw new UsageError('name a server with --stdio "<command line>", --url <url> or --config <file>');
}

/**
 * Checks the values of a command that takes several servers and says which servers they name, `--stdio`
 * ones first, each in the order given. None at all is allowed (the caller decides whether that is enough).
 * `--env` and `--cwd` apply to every `--stdio` server; `--header` needs exactly one `--url` server, so that a
 * credential meant for one host is never sent to another.
 * @throws UsageError as {@link serverTarget} does, and when an option names no server it could apply to.
 */
export function serverTargets(values: ServerListOptionValues): ServerTarget[] {
  const { stdio, url, ...shared } = values;
  if (stdio.length === 0 && shared.env.length > 0)
    throw new UsageError('--env applies to --stdio servers only');
  if (stdio.length === 0 && shared.cwd !== undefined)
    throw new UsageError('--cwd applies to --stdio servers only');
  if (url.length === 0 && shared.header.length > 0)
    throw new UsageError('--header applies to --url servers only');
  if (url.length > 1 && shared.header.length > 0)
    throw new UsageError('--header needs a single --url server (it would be sent to every one)');
  return [
    ...stdio.map((commandLine) => serverTarget({ ...shared, header: [], stdio: commandLine })),
    ...url.map((address) => {
      const { cwd: _cwd, ...forUrl } = shared;
      return serverTarget({ ...forUrl, env: [], url: address });
    }),
  ];
}

/**
 * Client options a command adds to every server it starts (`run`: answering sampling with its model and
 * `--max-concurrent-calls`; on a terminal: the URL-elicitation consent and the forms), and `stderr`, which receives each line a stdio server writes to
 * its stderr (HTTP servers have none).
 */
export type ClientExtras = Pick<
  MCPClientOptions,
  | 'onSampling'
  | 'onElicitation'
  | 'onUrlElicitation'
  | 'urlElicitationEras'
  | 'maxConcurrentCalls'
  | 'onWireMessage'
> & {
  stderr?: (line: string) => void;
};

/**
 * An `MCPClient` for the target; nothing is started until `connect()`. A `config` target's client is
 * named after its entry and does not filter its tools itself (see `exposedTools`).
 * @param name the server's name in errors, events and tool prefixes; default derived from the command or
 *   host. Ignored for a `config` target.
 * @param handlers answers to server requests: sampling with the run's model, the URL-elicitation consent
 *   (url-consent.ts).
 */
export function createClient(target: ServerTarget, name?: string, extra: ClientExtras = {}): MCPClient {
  const { stderr, ...handlers } = extra;
  const connect = target.connectTimeout;
  const timeout = connect === undefined ? {} : { connectTimeoutMs: connect };
  // A configured server is always named after its entry: that is the name the user wrote and sees.
  if (target.kind === 'config') {
    const { entry } = target;
    // An HTTP server logged in to with `agentwire auth login` uses the stored tokens.
    const auth =
      entry.kind === 'http' ? storedLogin(new URL(entry.url), entry.name, entry.options.headers) : {};
    return createConfigClient(entry, { ...handlers, ...timeout, ...auth, ...(stderr && { stderr }) });
  }
  const options = { ...handlers, ...timeout, ...(name === undefined ? {} : { name }) };
  if (target.kind === 'stdio') {
    return MCPClient.fromStdio(stderr ? { ...target.server, stderr } : target.server, options);
  }
  // The stored login is keyed by the name the client will have: the one given, else the URL's host.
  const auth = storedLogin(target.url, name ?? nameFromUrl(target.url), target.headers);
  return MCPClient.fromUrl(target.url, {
    ...options,
    headers: target.headers,
    transport: target.transport,
    ...auth,
  });
}

function stdioServer(commandLine: string, env: string[], cwd: string | undefined): MCPStdioServer {
  const words = splitCommandLine(commandLine);
  const [command, ...args] = words;
  if (command === undefined)
    throw new UsageError('--stdio needs a command line, e.g. --stdio "node server.js"');
  const server: MCPStdioServer = { command, args };
  if (env.length > 0) server.env = parseEnv(env);
  if (cwd !== undefined) {
    // Refused here, as a usage error, rather than as the server failing to start.
    if (!isDirectory(cwd)) throw new UsageError(`--cwd: "${cwd}" is not a directory`);
    server.cwd = cwd;
  }
  return server;
}

/**
 * Splits like a POSIX shell (quotes, backslashes) but runs no shell: `$VAR` stays literal, and operators
 * or globs are refused rather than silently passed on as words the user did not mean.
 */
function splitCommandLine(commandLine: string): string[] {
  // shell-quote drops an unmatched quote silently, running a command the user did not type.
  const open = unterminatedQuote(commandLine);
  if (open !== undefined) {
    throw new UsageError(`--stdio: the command line has an unterminated ${open} quote`);
  }
  const entries = parseShell(commandLine, (name) => `$${name}`);
  return entries.map((entry) => {
    if (typeof entry === 'string') return entry;
    if ('comment' in entry) throw new UsageError('--stdio: "#" comments are not supported; quote the "#"');
    if (entry.op === 'glob')
      throw new UsageError(`--stdio: glob "${entry.pattern}" is not expanded; quote it`);
    throw new UsageError(
      `--stdio: shell operator "${entry.op}" is not supported; the command runs without a shell`,
    );
  });
}

/** The quote character left open at the end of `line`, read as a POSIX shell does; none when all close. */
export function unterminatedQuote(line: string): "'" | '"' | undefined {
  let open: "'" | '"' | undefined;
  for (let i = 0; i < line.length; i += 1) {
    const char = line[i];
    if (open === "'") {
      if (char === "'") open = undefined;
    } else if (char === '\\') {
      i += 1; // escapes the next character, outside quotes and inside double quotes alike
    } else if (open === '"') {
      if (char === '"') open = undefined;
    } else if (char === "'" || char === '"') {
      open = char;
    }
  }
  return open;
}

function isDirectory(dir: string): boolean {
  try {
    return statSync(dir).isDirectory();
  } catch {
    return false;
  }
}

function parseEnv(pairs: string[]): Record<string, string> {
  const env: Record<string, string> = {};
  for (const pair of pairs) {
    const eq = pair.indexOf('=');
    // The value may be a secret: the message names the problem, never the text.
    if (eq <= 0) throw new UsageError('--env expects KEY=VALUE with a non-empty KEY');
    env[pair.slice(0, eq)] = pair.slice(eq + 1);
  }
  return env;
}

function parseHeaders(lines: string[]): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const line of lines) {
    const colon = line.indexOf(':');
    const name = colon > 0 ? line.slice(0, colon).trim() : '';
    // A header value is often a credential: never echo it.
    if (!/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/.test(name)) throw new UsageError('--header expects "Name: value"');
    headers[name] = line.slice(colon + 1).trim();
  }
  return headers;
}

/**
 * `--url`, checked as every server URL is (`parseServerUrl`), worded for the command line. A URL may carry a
 * token in its query or userinfo: the messages name the problem, never the text.
 * @throws UsageError for a URL that does not parse or is not http(s); the `MCPServerUrlError` itself for
 *   one with credentials (its message is the client's own).
 */
function parseUrl(text: string): URL {
  if (!/^[a-z][a-z0-9+.-]*:\/\//i.test(text.trim())) {
    throw new UsageError('--url has no scheme: write http://… or https://… (e.g. http://localhost:3001/mcp)');
  }
  try {
    return parseServerUrl(text);
  } catch (error) {
    if (!(error instanceof MCPServerUrlError)) throw error;
    if (error.problem === 'invalid') {
      throw new UsageError('--url is not a valid absolute URL (e.g. http://localhost:3001/mcp)', {
        cause: error,
      });
    }
    if (error.problem === 'not_http') {
      throw new UsageError(`--url must be an http: or https: URL, got "${error.protocol}"`, { cause: error });
    }
    throw error;
  }
}
