/** Why `agentwire auth login` could not finish, as an error with fields (never the tokens it handled). */
import { singleLine } from '../io.js';

/** What went wrong: see {@link AuthLoginError}. */
export type AuthLoginProblem = 'listen' | 'timeout' | 'interrupted' | 'refused' | 'token_request';

const TEXT: Record<AuthLoginProblem, (error: AuthLoginError) => string> = {
  listen: (e) => `cannot listen for the browser's redirect on 127.0.0.1:${e.port ?? 0}`,
  timeout: (e) => `no authorization arrived from the browser within ${e.timeoutMs ?? 0} ms`,
  interrupted: () => 'interrupted while waiting for the browser',
  refused: (e) => `the authorization server refused it (${e.oauthError ?? 'no reason given'})`,
  token_request: (e) =>
    `the token request failed: ${e.cause instanceof Error ? singleLine(e.cause.message) : 'unknown error'}`,
};

/** A login that did not complete. */
export class AuthLoginError extends Error {
  override readonly name = 'AuthLoginError';
  readonly problem: AuthLoginProblem;
  /** The callback port asked for (`listen`). */
  readonly port: number | undefined;
  /** How long the login waited for the browser, in ms (`timeout`). */
  readonly timeoutMs: number | undefined;
  /** The redirect's OAuth `error` code (`refused`; RFC 6749 §4.1.2.1), when it is one of the vocabulary's. */
  readonly oauthError: string | undefined;

  constructor(
    problem: AuthLoginProblem,
    details: { port?: number; timeoutMs?: number; oauthError?: string; cause?: unknown } = {},
  ) {
    super('', { cause: details.cause });
    this.problem = problem;
    this.port = details.port;
    this.timeoutMs = details.timeoutMs;
    this.oauthError = details.oauthError;
    this.message = `login failed: ${TEXT[problem](this)}`;
  }
}
