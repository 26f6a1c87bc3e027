/**
 * How every command uses what `agentwire auth login` stored: an HTTP server with a stored login gets a
 * {@link StoredOAuthClientProvider} over the token file, which sends the access token, refreshes it silently
 * when the server answers 401, and never starts a new authorization (that is the login command's job). A
 * server without a stored login gets nothing, so a 401 stays a plain error, and {@link loginHint} names the
 * command that fixes it.
 */
import {
  MCPCallError,
  MCPOAuthGrantError,
  OAuthFileStore,
  StoredOAuthClientProvider,
} from '../../mcp/index.js';
import { authStoreFile } from './store-path.js';

/** The login command for each client name seen in this process (the URL the hint names). */
const LOGIN_URLS = new Map<string, string>();
/** Each HTTP client's URL, for {@link checkOAuthOffers}. */
const SERVER_URLS = new Map<string, URL>();
/** The clients sent with an `Authorization` header of the user's own (`--header`, a config's `headers`). */
const OWN_AUTHORIZATION = new Set<string>();
/** For each client whose 401 was checked ({@link checkOAuthOffers}): whether the server offers OAuth. */
const OAUTH_OFFERED = new Map<string, boolean>();

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
  SERVER_URLS.set(clientName, url);
  if (Object.keys(headers).some((name) => name.toLowerCase() === 'authorization')) {
    OWN_AUTHORIZATION.add(clientName);
    return {};
  }
  const store = new OAuthFileStore(authStoreFile());
  const provider = new StoredOAuthClientProvider({ store, serverUrl: url });
  try {
    return store.login(provider.resource) === undefined ? {} : { authProvider: provider };
  } catch {
    return {};
  }
}

/**
 * `hint: …` lines for an HTTP 401 from a server: for a refused `auth` grant (`MCPOAuthGrantError` as the
 * cause), the grant and the OAuth error; for a refused `Authorization` header of the user's own, to check
 * it; for a server that offers no OAuth ({@link checkOAuthOffers}), how to give a static token; else the
 * `agentwire auth login` command that logs in to it. Empty for anything else.
 */
export function loginHint(error: unknown): string[] {
  if (!(error instanceof MCPCallError) || error.status !== 401) return [];
  if (error.cause instanceof MCPOAuthGrantError) {
    const { grant, oauthError } = error.cause;
    const why = oauthError === undefined ? '' : ` (${oauthError})`;
    return [
      `hint: the ${grant} grant of the entry's "auth" was refused${why}: check its client id and credentials`,
    ];
  }
  const server = error.server ?? '';
  if (OWN_AUTHORIZATION.has(server))
    return [
      'hint: the server refused the Authorization header given: check the token (--header, or the config\'s "headers")',
    ];
  if (OAUTH_OFFERED.get(server) === false) {
    return [
      'hint: the server offers no OAuth login (no resource metadata): give its token with ' +
        '--header "Authorization: Bearer <token>", or in the config entry\'s "headers"',
    ];
  }
  const url = LOGIN_URLS.get(server);
  return [`hint: the server needs a login: agentwire auth login ${url ?? '<server URL>'}`];
}

/**
 * Checks, for each 401 in `errors` that neither a grant nor the user's own header explains, whether its
 * server offers OAuth (oauth-offer.ts), so that {@link loginHint} says what applies. Never throws.
 */
export async function checkOAuthOffers(errors: readonly unknown[]): Promise<void> {
  const { offersOAuth } = await import('./oauth-offer.js');
  await Promise.all(
    errors.map(async (error) => {
      if (
        !(error instanceof MCPCallError) ||
        error.status !== 401 ||
        error.cause instanceof MCPOAuthGrantError
      )
        return;
      const server = error.server ?? '';
      const url = SERVER_URLS.get(server);
      if (url === undefined || OWN_AUTHORIZATION.has(server) || OAUTH_OFFERED.has(server)) return;
      const offered = await offersOAuth(url);
      if (offered !== undefined) OAUTH_OFFERED.set(server, offered);
    }),
  );
}

/** The URL as the login command takes it; a query (which may carry a key) is shown as `?…`. */
function loginArgument(url: URL): string {
  return url.search === '' ? url.href : `${url.origin}${url.pathname}?…`;
}
