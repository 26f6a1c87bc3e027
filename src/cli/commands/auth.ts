/**
 * `agentwire auth login|status|logout <server>`: OAuth logins to HTTP servers, kept per user in the token
 * file (auth/store-path.ts), which every other command then uses (auth/stored-login.ts). `<server>` is a
 * URL or the name of an entry with a `url` in `--config <file>` or in a host's configuration
 * (host-configs/).
 */
import { type Command, Option } from 'commander';
import {
  OAuthFileStore,
  type OAuthStoredLogin,
  OAuthStoreError,
  StoredOAuthClientProvider,
} from '../../mcp/index.js';
import { AuthLoginError } from '../auth/errors.js';
import { DEFAULT_LOGIN_TIMEOUT_MS, login } from '../auth/login.js';
import { authStoreFile } from '../auth/store-path.js';
import { type AuthTarget, authTarget } from '../auth/target.js';
import type { CommandContext } from '../context.js';
import { ExitCode, singleLine } from '../io.js';
import { positiveInteger } from '../server-options.js';
import { UsageError } from '../usage-error.js';

interface TargetOptions {
  url?: string;
  config?: string;
  input?: string[];
}

interface LoginOptions extends TargetOptions {
  browser: boolean;
  callbackPort?: number;
  clientMetadataUrl?: string;
  scope?: string;
  timeout?: number;
}

interface StatusOptions extends TargetOptions {
  json?: boolean;
}

/** `--config` and `--input`, for a `<server>` that names a config entry. */
function addTargetOptions(command: Command): Command {
  return command
    .option('--url <url>', 'the server URL, in place of <server>')
    .option('--config <file>', "the config file whose entry <server> names (default: the hosts' configs)")
    .option(
      '--input <ID=value>',
      // biome-ignore lint/suspicious/noTemplateCurlyInString: the config's reference syntax, not a JS placeholder.
      'value of a ${input:ID} in the config (repeatable; asked for on a terminal)',
      (value: string, previous: string[] | undefined) => [...(previous ?? []), value],
    );
}

/**
 * The `<server>` argument, or `--url` in its place (as the other commands name a URL).
 * @throws UsageError when neither or both are given.
 */
function serverOf(server: string | undefined, options: TargetOptions): string {
  if (server !== undefined && options.url !== undefined)
    throw new UsageError('give <server> or --url, not both');
  const named = server ?? options.url;
  if (named === undefined) throw new UsageError('name the server: a URL (or --url <url>), or a config entry');
  return named;
}

/** Commander parser for `--callback-port`: 0 (any free port) to 65535. */
function port(value: string): number {
  const parsed = Number(value);
  if (!/^\d+$/.test(value) || parsed > 65535) throw new Error('Expected a port number (0-65535).');
  return parsed;
}

/** Registers `auth` and its subcommands on the program. */
export function registerAuthCommand(program: Command, context: CommandContext): void {
  const { io } = context;
  const auth = program
    .command('auth')
    .description('log in to OAuth-protected HTTP servers; other commands use the stored login');

  const loginCommand = auth
    .command('login')
    .description('log in to a server in the browser (OAuth 2.1 with PKCE) and store the tokens')
    .argument('[server]', 'the server URL, or the name of a config entry with a "url"')
    .addOption(new Option('--no-browser', 'print the authorization URL only; do not open a browser'))
    .addOption(
      new Option(
        '--callback-port <port>',
        'port of the 127.0.0.1 redirect listener (default: any free port)',
      ).argParser(port),
    )
    .option('--client-metadata-url <url>', 'https URL of a Client ID Metadata Document to use as client_id')
    .option('--scope <scopes>', 'scopes to ask for when the server names none (space-separated)')
    .option(
      '--timeout <ms>',
      `bound on the browser step, in ms (default ${DEFAULT_LOGIN_TIMEOUT_MS})`,
      positiveInteger,
    );
  addTargetOptions(loginCommand).action(
    handled(context, async (server: string, options: LoginOptions) => {
      const target = await authTarget(serverOf(server, options), options, io);
      const file = authStoreFile();
      // Only a person at a terminal has a browser to open: elsewhere the printed URL is the way.
      const browser = options.browser && process.stdout.isTTY === true && process.stdin.isTTY === true;
      const result = await login(
        {
          ...target,
          file,
          browser,
          timeoutMs: options.timeout ?? DEFAULT_LOGIN_TIMEOUT_MS,
          ...(options.callbackPort !== undefined && { callbackPort: options.callbackPort }),
          ...(options.clientMetadataUrl !== undefined && { clientMetadataUrl: options.clientMetadataUrl }),
          ...(options.scope !== undefined && { scope: options.scope }),
        },
        io,
      );
      io.stdout(
        result.issuer === undefined
          ? `${result.resource} accepted the connection without a login; nothing stored\n`
          : `logged in to ${result.resource} (issuer ${result.issuer}); tokens stored in ${file}\n`,
      );
    }),
  );

  const statusCommand = auth
    .command('status')
    .description('list the stored logins (of one server when given): issuer, scope, expiry')
    .argument('[server]', 'the server URL, or the name of a config entry with a "url"')
    .option('--json', 'print the logins as JSON (without the tokens)');
  addTargetOptions(statusCommand).action(
    handled(context, async (server: string | undefined, options: StatusOptions) => {
      const store = new OAuthFileStore(authStoreFile());
      const named = server ?? options.url;
      const resource = named === undefined ? undefined : resourceOf(await authTarget(named, options, io));
      const logins = store.logins().filter((l) => resource === undefined || l.resource === resource);
      const rows = logins.map(describeLogin);
      if (options.json)
        return void io.stdout(`${JSON.stringify({ file: store.file, logins: rows }, null, 2)}\n`);
      if (rows.length === 0) {
        io.stdout(resource === undefined ? 'no stored logins\n' : `not logged in to ${resource}\n`);
        return;
      }
      io.stdout(rows.map(formatLogin).join(''));
    }),
  );

  const logoutCommand = auth
    .command('logout')
    .description("forget a server's stored tokens")
    .argument('[server]', 'the server URL, or the name of a config entry with a "url"');
  addTargetOptions(logoutCommand).action(
    handled(context, async (server: string, options: TargetOptions) => {
      const resource = resourceOf(await authTarget(serverOf(server, options), options, io));
      const deleted = new OAuthFileStore(authStoreFile()).deleteLogins(resource);
      io.stdout(deleted === 0 ? `not logged in to ${resource}\n` : `logged out of ${resource}\n`);
    }),
  );
}

/**
 * `action` with the login's own failures reported here (exit 3: the login did not happen; the token file
 * cannot be used); every other failure goes to the program's handler.
 */
function handled<A extends unknown[]>(
  context: CommandContext,
  action: (...args: A) => Promise<void>,
): (...args: A) => Promise<void> {
  return async (...args) => {
    try {
      await action(...args);
    } catch (error) {
      if (!(error instanceof AuthLoginError) && !(error instanceof OAuthStoreError)) throw error;
      context.io.stderr(`error: ${singleLine(error.message)}\n`);
      context.exit(ExitCode.connection);
    }
  };
}

/** The resource a target's tokens are stored under. */
function resourceOf(target: AuthTarget): string {
  // The provider computes the canonical form; it reads nothing until asked for tokens.
  return new StoredOAuthClientProvider({ store: new OAuthFileStore(authStoreFile()), serverUrl: target.url })
    .resource;
}

/** A login as `status` shows it: no token, only what the user needs to know. */
interface LoginRow {
  resource: string;
  issuer: string;
  scope: string | undefined;
  /** ISO 8601; `undefined` when the server gave no lifetime. */
  expiresAt: string | undefined;
  expired: boolean;
  refreshable: boolean;
}

function describeLogin(login: OAuthStoredLogin): LoginRow {
  return {
    resource: login.resource,
    issuer: login.issuer,
    scope: login.tokens.scope,
    expiresAt: login.expiresAtMs === undefined ? undefined : new Date(login.expiresAtMs).toISOString(),
    expired: login.expiresAtMs !== undefined && login.expiresAtMs <= Date.now(),
    refreshable: login.tokens.refresh_token !== undefined,
  };
}

function formatLogin(row: LoginRow): string {
  const expiry =
    row.expiresAt === undefined
      ? 'no expiry given'
      : `${row.expired ? 'expired' : 'expires'} ${row.expiresAt}`;
  return [
    `${row.resource}\n`,
    `  issuer:  ${row.issuer}\n`,
    `  scope:   ${row.scope ?? '(none)'}\n`,
    `  access:  ${expiry}${row.refreshable ? ', refreshed with the stored refresh token' : ''}\n`,
  ].join('');
}
