/**
 * An `auth` option (or a configuration entry's `"auth"` field, auth-grant.ts) that cannot work as written,
 * refused before any token is requested: a secret the chosen method never sends, a field the grant does not
 * know, a key or assertion file that cannot be read, a JWS algorithm that does not fit the private key.
 * Thrown by configuration loading (then naming the file) and by `MCPClient.fromUrl` (then naming the server
 * only); a file read again before each token request (`assertionFile`, `idTokenFile`) is also refused this
 * way when a later read fails. The message never holds a value of a field, only names.
 */
import { MCPConfigError } from '../protocol/errors.js';

/**
 * What is wrong:
 * - `secret_not_sent`: `clientSecret` with `tokenEndpointAuthMethod: "none"`, which sends no secret;
 * - `unknown_field`: a key `auth` (or `auth.idp`) does not have (`suggestion`: the nearest one that exists);
 * - `unreadable_file`: `privateKeyFile`, `assertionFile` or `idTokenFile` cannot be read (`path`, `code`);
 * - `algorithm_mismatch`: `algorithm` cannot sign with the private key (`keyType`, `algorithms` that can).
 */
export type MCPAuthConfigProblem =
  | 'secret_not_sent'
  | 'unknown_field'
  | 'unreadable_file'
  | 'algorithm_mismatch';

/** Fields of {@link MCPAuthConfigError}. */
export interface MCPAuthConfigErrorDetails {
  problem: MCPAuthConfigProblem;
  /** The configuration file, when the `auth` came from one. */
  file?: string | undefined;
  /** The server: the entry's name, or `MCPClient.fromUrl`'s `name`. */
  entry?: string | undefined;
  /**
   * The fields concerned, as dotted paths from the entry (`auth.clientSecret`); the first is the error's
   * `field`. Two for `secret_not_sent` (`auth.clientSecret`, `auth.tokenEndpointAuthMethod`).
   */
  fields: readonly string[];
  /** `unknown_field`: the known key nearest to the one given (an edit distance of at most 2), if any. */
  suggestion?: string | undefined;
  /** `unreadable_file`: the file's absolute path. */
  path?: string | undefined;
  /** `unreadable_file`: the Node error code (`ENOENT`, `EACCES`, `EISDIR`…). */
  code?: string | undefined;
  /** `algorithm_mismatch`: the algorithm given. */
  algorithm?: string | undefined;
  /** `algorithm_mismatch`: the private key's type (`RSA`, `EC P-256`, `Ed25519`…). */
  keyType?: string | undefined;
  /** `algorithm_mismatch`: the JWS algorithms that fit the key. */
  algorithms?: readonly string[] | undefined;
  cause?: unknown;
}

/**
 * An `auth` that cannot work as written (see {@link MCPAuthConfigProblem}). The message reads `config
 * <file>: server "<entry>": "<field>" <problem>` (without the file for `MCPClient.fromUrl`); a config error,
 * so the CLI exits 2.
 */
export class MCPAuthConfigError extends MCPConfigError {
  override name = 'MCPAuthConfigError';
  readonly problem: MCPAuthConfigProblem;
  readonly fields: readonly string[];
  readonly suggestion: string | undefined;
  readonly path: string | undefined;
  readonly code: string | undefined;
  readonly algorithm: string | undefined;
  readonly keyType: string | undefined;
  readonly algorithms: readonly string[] | undefined;
  /** The message without the file and the server, for errors that name them themselves. */
  readonly reason: string;

  constructor(details: MCPAuthConfigErrorDetails) {
    const reason = authConfigReason(details);
    const where =
      (details.file === undefined ? '' : `config ${details.file}: `) +
      (details.entry === undefined ? '' : `server "${details.entry}": `);
    super(`${where}${reason}`, {
      file: details.file,
      entry: details.entry,
      field: details.fields[0],
      cause: details.cause,
    });
    this.problem = details.problem;
    this.fields = details.fields;
    this.suggestion = details.suggestion;
    this.path = details.path;
    this.code = details.code;
    this.algorithm = details.algorithm;
    this.keyType = details.keyType;
    this.algorithms = details.algorithms;
    this.reason = reason;
  }
}

function authConfigReason(details: MCPAuthConfigErrorDetails): string {
  const [first, second] = details.fields.map((field) => `"${field}"`);
  switch (details.problem) {
    case 'secret_not_sent':
      return `${first} is set but ${second} is "none", which sends no client secret: remove one of them`;
    case 'unknown_field': {
      const parent = (details.fields[0] ?? 'auth').split('.').slice(0, -1).join('.');
      const hint = details.suggestion === undefined ? '' : ` (did you mean "${details.suggestion}"?)`;
      return `${first} is not a field of "${parent}"${hint}`;
    }
    case 'unreadable_file':
      return `${first} cannot be read: ${details.path} (${details.code ?? 'unknown error'})`;
    case 'algorithm_mismatch': {
      const fit = details.algorithms ?? [];
      const use = fit.length === 0 ? 'no JWS algorithm signs with it' : `use ${fit.join(' or ')}`;
      return `${first} is "${details.algorithm}", which does not fit the private key (${details.keyType}): ${use}`;
    }
  }
}
