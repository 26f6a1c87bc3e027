/**
 * Keeps credentials out of what agentwire reports. A server may echo a request header back in an error page
 * ("invalid token: Bearer …"), and runtime errors quote URLs whole (query tokens included), so every error
 * message and body excerpt built for an HTTP server passes through a redactor made from what the caller
 * gave us as secret: header values, the URL's query values and its password.
 */
import { MCPCallError } from './errors.js';

/** Replaces known secret strings in a text with `[redacted]`. */
export type Redactor = (text: string) => string;

/** A redactor that changes nothing (stdio servers: their env values never reach a message). */
export const noRedaction: Redactor = (text) => text;

/** Shorter strings are too likely to occur by chance (`"1"`, `"on"`) to be worth redacting. */
const MIN_SECRET_LENGTH = 4;

/**
 * A redactor for one HTTP server: every header value, every query parameter value, the URL's password,
 * and the URL itself (printed as origin and path only) are replaced wherever they occur.
 */
export function httpRedactor(url: URL, headers: Record<string, string> = {}): Redactor {
  const secrets = new Set<string>();
  const add = (value: string) => {
    if (value.length >= MIN_SECRET_LENGTH) secrets.add(value);
  };
  for (const value of Object.values(headers)) {
    add(value);
    // "Bearer abc…": the token alone may be echoed without its scheme.
    const token = value.split(/\s+/).at(-1);
    if (token !== undefined && token !== value) add(token);
  }
  for (const value of url.searchParams.values()) add(value);
  if (url.password) add(decodeURIComponent(url.password));
  const safeUrl = `${url.origin}${url.pathname}`;
  const ordered = [...secrets].sort((a, b) => b.length - a.length);
  const fullUrl = url.href;
  return (text) => {
    let out = text.split(fullUrl).join(safeUrl);
    for (const secret of ordered) out = out.split(secret).join('[redacted]');
    return out;
  };
}

/**
 * `error` with its message redacted. When redaction changed anything, a new error is returned without the
 * original `cause` (which may quote the secret); otherwise `error` itself. An {@link MCPCallError} stays one,
 * its reason and body redacted and its message rebuilt from them; any other error becomes an `Error` of the
 * same name.
 */
export function redactError(error: Error, redact: Redactor | undefined): Error {
  if (redact === undefined) return error;
  if (error instanceof MCPCallError) {
    const reason = redact(error.reason);
    const body = error.body === undefined ? undefined : redact(error.body);
    if (reason === error.reason && body === error.body) return error;
    return error.with({ reason, body, cause: undefined });
  }
  const message = redact(error.message);
  if (message === error.message) return error;
  const copy = new Error(message);
  copy.name = error.name;
  return copy;
}
