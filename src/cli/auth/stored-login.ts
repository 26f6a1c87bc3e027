/**
 * How every command uses what `agentwire auth login` stored: an HTTP server with a stored login gets a
 * {@link StoredOAuthClientProvider} over the token file, which sends the access token, refreshes it silently
 * when the server answers 401, and never starts a new authorization (that is the login command's job). A
 * server without a stored login gets nothing, so a 401 stays a plain error, and {@link loginHint} names the
 * command that fixes it.
 */
import { MCPCallError, OAuthFileStore, StoredOAuthClientProvider } from '../../mcp/index.js';
import { authStoreFile } from './store-path.js';

/** The login command for each client name seen in this process (the URL the hint names). */
const LOGIN_URLS = new Map<string, string>();

/**
 * `{ authProvider }` for the server at `url` when a login is stored for it and the user sets no
 * `Authorization` header of their own; else `{}`. Also remembers `clientName`'s URL for {@link loginHint}.
 * An unreadable token file counts as no login: the server's 401, if any, says what to do.
 */
export function storedLogin(
  url: URL,
  clientName: string,
  headers: Readonly<Record<string, string>> = {},
): { authProvider?: StoredOAuthClientProvider } {
  LOGIN_URLS.set(clientName, loginArgument(url));
  if (Object.keys(headers).some((name) => name.toLowerCase() === 'authorization')) return {};
  const store = new OAuthFileStore(authStoreFile());
  const provider = new StoredOAuthClientProvider({ store, serverUrl: url });
  try {
    return store.login(provider.resource) === undefined ? {} : { authProvider: provider };
  } catch {
    return {};
  }
}

/**
 * `hint: …` lines for a failure: for an HTTP 401 from a server, the `agentwire auth login` command that
 * logs in to it. Empty for anything else.
 */
export function loginHint(error: unknown): string[] {
  if (!(error instanceof MCPCallError) || error.status !== 401) return [];
  const url = error.server === undefined ? undefined : LOGIN_URLS.get(error.server);
  return [`hint: the server needs a login: agentwire auth login ${url ?? '<server URL>'}`];
}

/** The URL as the login command takes it; a query (which may carry a key) is shown as `?…`. */
function loginArgument(url: URL): string {
  return url.search === '' ? url.href : `${url.origin}${url.pathname}?…`;
}
