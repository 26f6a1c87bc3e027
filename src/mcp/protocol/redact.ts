/**
 * Keeps credentials out of what agentwire reports. A server may echo a request header back in an error page
 * ("invalid token: Bearer …"), a stdio server may print its environment in a crash dump, and runtime errors
 * quote URLs whole (query tokens included), so every error (message, body, `data`, stderr tail, the whole
 * `cause` chain: redact-error.ts), event and stderr line built for a server passes through a redactor made
 * from what is secret for it: header values, the URL's query values and password, the OAuth tokens and
 * client secret as they become known, the stdio server's `env` values.
 */

/** Replaces known secret strings in a text with `[redacted]`. */
export type Redactor = (text: string) => string;

/** A redactor that changes nothing. */
export const noRedaction: Redactor = (text) => text;

/**
 * Shortest header, query or OAuth value redacted, in characters: shorter strings are too likely to occur by
 * chance (`"1"`, `"on"`) to be worth redacting.
 */
export const MIN_SECRET_LENGTH = 4;

/**
 * Shortest stdio `env` value redacted, in characters. Environment variables also carry plain settings
 * (`NODE_ENV=test`, `DEBUG=1`, `PORT=3000`) whose values are common words of any stderr line.
 */
export const MIN_ENV_SECRET_LENGTH = 8;

/** The text that replaces a secret. */
const REDACTED = '[redacted]';

/**
 * A growing set of secret strings and the {@link Redactor} over them. Secrets may be added at any time (an
 * OAuth token obtained mid-session); `redact` always uses the current set, longest first, and also replaces
 * each secret's percent-encoded form (a value echoed from a query string).
 */
export class SecretSet {
  readonly #secrets = new Set<string>();
  /** Exact texts replaced by others before any secret: the full URL by its origin and path. */
  readonly #replacements: [from: string, to: string][] = [];
  #ordered: string[] = [];

  /** Adds `value` (when at least `minLength` characters) and its percent-encoded form. */
  add(value: string | undefined, minLength = MIN_SECRET_LENGTH): void {
    if (value === undefined || value.length < minLength || this.#secrets.has(value)) return;
    this.#secrets.add(value);
    const encoded = encodeURIComponent(value);
    if (encoded !== value) this.#secrets.add(encoded);
    this.#ordered = [...this.#secrets].sort((a, b) => b.length - a.length);
  }

  /** Adds a credential header's value, and its last word alone ("Bearer abc…": the token may be echoed bare). */
  addCredential(value: string): void {
    this.add(value);
    const token = value.split(/\s+/).at(-1);
    if (token !== undefined && token !== value) this.add(token);
  }

  /** Replaces the exact text `from` with `to` before secrets are redacted (the full URL by a safe form). */
  replace(from: string, to: string): void {
    this.#replacements.push([from, to]);
  }

  /** Whether nothing is ever redacted. */
  get empty(): boolean {
    return this.#secrets.size === 0 && this.#replacements.length === 0;
  }

  /** `text` with every known secret replaced by `[redacted]`. */
  readonly redact: Redactor = (text) => {
    let out = text;
    for (const [from, to] of this.#replacements) out = out.split(from).join(to);
    for (const secret of this.#ordered) out = out.split(secret).join(REDACTED);
    return out;
  };
}

/**
 * The secrets of one HTTP server: every header value, every query parameter value, the URL's password,
 * and the URL itself (printed as origin and path only). OAuth tokens are added as they are obtained.
 */
export function httpSecrets(url: URL, headers: Record<string, string> = {}): SecretSet {
  const secrets = new SecretSet();
  secrets.replace(url.href, `${url.origin}${url.pathname}`);
  for (const value of Object.values(headers)) secrets.addCredential(value);
  for (const value of url.searchParams.values()) secrets.add(value);
  if (url.password) secrets.add(decodeURIComponent(url.password));
  return secrets;
}

/** {@link httpSecrets}' redactor. */
export function httpRedactor(url: URL, headers: Record<string, string> = {}): Redactor {
  return httpSecrets(url, headers).redact;
}

/**
 * The secrets of one stdio server: the values of the `env` it was given, those of at least
 * {@link MIN_ENV_SECRET_LENGTH} characters (the inherited or default environment is not the caller's secret).
 */
export function envSecrets(env: Readonly<Record<string, string>> | undefined): SecretSet {
  const secrets = new SecretSet();
  for (const value of Object.values(env ?? {})) secrets.add(value, MIN_ENV_SECRET_LENGTH);
  return secrets;
}

/**
 * A JWT, or the start of one, in text a server wrote: base64url of a JSON object (`eyJ`…), then optionally
 * more dot-separated base64url parts (RFC 7519 §3). A server that echoes a client assertion may cut or alter
 * it, so the known assertion alone would not match what it wrote.
 */
const JWT_LIKE = /eyJ[A-Za-z0-9_-]{2,}(?:\.[A-Za-z0-9_-]*){0,4}/g;

/** `text` with everything that looks like a JWT (see {@link JWT_LIKE}) replaced by `[redacted]`. */
export function redactJwtLike(text: string): string {
  return text.replace(JWT_LIKE, REDACTED);
}
