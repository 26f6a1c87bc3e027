/**
 * OAuth logins kept in one JSON file that only its owner can read (mode 0600, in a directory of mode 0700),
 * for {@link StoredOAuthClientProvider} (stored-oauth-provider.ts).
 *
 * Tokens are keyed by authorization server `issuer` and protected `resource` (MCP spec 2026-07-28,
 * "Authorization > Token Handling": a token is bound to the resource it was issued for, and credentials to
 * the authorization server that issued them); client registrations by `issuer` alone, so one registration
 * serves every resource of that authorization server. The file is rewritten whole through a temporary file
 * and a rename, so a crash never leaves half a file. Reads and writes are synchronous: the file is small and
 * read once per request at most.
 */
import { chmodSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { StoredOAuthClientInformation, StoredOAuthTokens } from '@modelcontextprotocol/client';

/** One login: the tokens an authorization server issued for one resource. */
export interface OAuthStoredLogin {
  /** The authorization server's `issuer` (RFC 8414). */
  issuer: string;
  /** The protected resource (the MCP server's canonical URL, RFC 8707 / RFC 9728). */
  resource: string;
  /** The token response, as the SDK saved it. */
  tokens: StoredOAuthTokens;
  /** When the access token expires, in ms since the epoch; absent when the server gave no `expires_in`. */
  expiresAtMs?: number;
  /** When the tokens were saved, in ms since the epoch. */
  savedAtMs: number;
}

/** One client registration with an authorization server (dynamic registration or a metadata document URL). */
export interface OAuthStoredClient {
  /** The authorization server's `issuer`. */
  issuer: string;
  /** The client information (`client_id`, and `client_secret` for a confidential registration). */
  client: StoredOAuthClientInformation;
}

/** The file's contents. */
interface StoreFile {
  version: 1;
  logins: OAuthStoredLogin[];
  clients: OAuthStoredClient[];
}

/** Why an {@link OAuthStoreError} was thrown. */
export type OAuthStoreProblem = 'unreadable' | 'malformed' | 'unwritable';

/** The token file could not be read, parsed or written. The message names the file, never its contents. */
export class OAuthStoreError extends Error {
  override readonly name = 'OAuthStoreError';
  /** The token file. */
  readonly file: string;
  readonly problem: OAuthStoreProblem;

  constructor(file: string, problem: OAuthStoreProblem, options: { cause?: unknown } = {}) {
    super(`OAuth token file ${file}: ${PROBLEM_TEXT[problem]}`, options);
    this.file = file;
    this.problem = problem;
  }
}

const PROBLEM_TEXT: Record<OAuthStoreProblem, string> = {
  unreadable: 'cannot be read',
  malformed:
    'is not a token file written by agentwire (not JSON, or not version 1); move it away to start over',
  unwritable: 'cannot be written',
};

/** Mode of the token file: read and write for its owner only. */
const FILE_MODE = 0o600;
/** Mode of the directory created for it. */
const DIR_MODE = 0o700;

/** The logins and client registrations of one user, in one file. */
export class OAuthFileStore {
  /** The token file's absolute path. */
  readonly file: string;

  /** @param file the token file; created (with its directory) on the first save. */
  constructor(file: string) {
    this.file = path.resolve(file);
  }

  /** Every login, oldest saved first. @throws OAuthStoreError when the file cannot be read or parsed. */
  logins(): OAuthStoredLogin[] {
    return this.#read().logins;
  }

  /**
   * The login for `resource`: from `issuer` when given, else the one saved last.
   * @throws OAuthStoreError as {@link OAuthFileStore.logins} does.
   */
  login(resource: string, issuer?: string): OAuthStoredLogin | undefined {
    const matching = this.#read().logins.filter(
      (login) => login.resource === resource && (issuer === undefined || login.issuer === issuer),
    );
    return matching.at(-1);
  }

  /** Saves (replaces) the login for its issuer and resource. @throws OAuthStoreError */
  saveLogin(login: OAuthStoredLogin): void {
    this.#update((data) => {
      data.logins = data.logins.filter((l) => !(l.issuer === login.issuer && l.resource === login.resource));
      data.logins.push(login);
    });
  }

  /**
   * Deletes the logins for `resource` (only `issuer`'s when given).
   * @returns how many were deleted. @throws OAuthStoreError
   */
  deleteLogins(resource: string, issuer?: string): number {
    let deleted = 0;
    this.#update((data) => {
      const kept = data.logins.filter(
        (l) => !(l.resource === resource && (issuer === undefined || l.issuer === issuer)),
      );
      deleted = data.logins.length - kept.length;
      data.logins = kept;
      return deleted > 0;
    });
    return deleted;
  }

  /** The client registered with `issuer`. @throws OAuthStoreError */
  client(issuer: string): OAuthStoredClient | undefined {
    return this.#read().clients.find((c) => c.issuer === issuer);
  }

  /** Saves (replaces) the registration with its issuer. @throws OAuthStoreError */
  saveClient(client: OAuthStoredClient): void {
    this.#update((data) => {
      data.clients = data.clients.filter((c) => c.issuer !== client.issuer);
      data.clients.push(client);
    });
  }

  /** Deletes the registration with `issuer`. @throws OAuthStoreError */
  deleteClient(issuer: string): void {
    this.#update((data) => {
      const kept = data.clients.filter((c) => c.issuer !== issuer);
      const changed = kept.length !== data.clients.length;
      data.clients = kept;
      return changed;
    });
  }

  #read(): StoreFile {
    let text: string;
    try {
      text = readFileSync(this.file, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { version: 1, logins: [], clients: [] };
      throw new OAuthStoreError(this.file, 'unreadable', { cause: error });
    }
    let data: unknown;
    try {
      data = JSON.parse(text);
    } catch {
      // The parser's message may quote the file's text: tokens. Not kept as the cause.
      throw new OAuthStoreError(this.file, 'malformed');
    }
    if (!isStoreFile(data)) throw new OAuthStoreError(this.file, 'malformed');
    return data;
  }

  /** Applies `change` and writes the file, unless `change` returns false (nothing changed). */
  #update(change: (data: StoreFile) => unknown): void {
    const data = this.#read();
    if (change(data) === false) return;
    const dir = path.dirname(this.file);
    const temp = `${this.file}.${process.pid}.tmp`;
    try {
      // Applies to the directories created only: an existing directory (a home, say) keeps its mode.
      mkdirSync(dir, { recursive: true, mode: DIR_MODE });
      writeFileSync(temp, `${JSON.stringify(data, null, 2)}\n`, { mode: FILE_MODE });
      chmodSync(temp, FILE_MODE);
      renameSync(temp, this.file);
    } catch (error) {
      rmSync(temp, { force: true });
      throw new OAuthStoreError(this.file, 'unwritable', { cause: error });
    }
  }
}

function isStoreFile(data: unknown): data is StoreFile {
  if (typeof data !== 'object' || data === null) return false;
  const file = data as Partial<StoreFile>;
  return file.version === 1 && Array.isArray(file.logins) && Array.isArray(file.clients);
}
