/**
 * The headers an HTTP server's transport asks for per request (transports/http/request-headers.ts), from the
 * `headers` option as a function, a bare token supplier (`authProvider` without an OAuth flow), and the
 * request's scope (its call's `headers`, as `beforeRequest` hooks left them; request-scope.ts). Every value
 * becomes a secret of the client before it is sent, so an error that quotes it is redacted (redact.ts).
 */

import type {
  MCPHeadersFunction,
  MCPRequestContext,
  MCPTokenSupplier,
} from '../../config/request-context.js';
import { checkHeaders } from '../../config/server-spec.js';
import type { SecretSet } from '../../protocol/redact.js';
import type { HttpRequestInfo } from '../../transports/http/request-headers.js';
import { currentScope } from './request-scope.js';

/** What the headers of a request come from. */
export interface AskedHeadersSources {
  server: string;
  headers: MCPHeadersFunction | undefined;
  supplier: MCPTokenSupplier | undefined;
  secrets: SecretSet;
}

/**
 * The per-request headers of an HTTP server's transport. Synchronous, without a scope's headers, when there
 * is neither a function nor a supplier (the transport awaits only a promise).
 */
export function askedHeaders(
  sources: AskedHeadersSources,
): (
  request: HttpRequestInfo,
) => Readonly<Record<string, string>> | undefined | Promise<Record<string, string>> {
  const { headers, supplier } = sources;
  if (headers === undefined && supplier === undefined) return () => scopeHeaders(sources.secrets);
  return async (request) => {
    const scope = currentScope();
    const context: MCPRequestContext = {
      server: sources.server,
      run: scope?.run,
      method: request.method,
      toolName: request.method === 'tools/call' ? scope?.toolName : undefined,
      attempt: request.attempt,
    };
    const out: Record<string, string> = { ...(await headers?.(context)), ...scope?.headers };
    const tokens = await supplier?.tokens(context);
    if (tokens !== undefined) out.authorization = `Bearer ${tokens.access_token}`;
    return secretsLearned(out, sources.secrets);
  };
}

/** The scope's headers, checked and learned as secrets; `undefined` outside a scope or without any. */
function scopeHeaders(secrets: SecretSet): Readonly<Record<string, string>> | undefined {
  const headers = currentScope()?.headers;
  return headers === undefined ? undefined : secretsLearned(headers, secrets);
}

/**
 * `headers` once checked as the static ones are (a name or value fetch would refuse fails the request with
 * `MCPConfigError`, naming the header only) and each value added to the client's secrets.
 */
function secretsLearned<T extends Readonly<Record<string, string>>>(headers: T, secrets: SecretSet): T {
  checkHeaders(headers);
  for (const value of Object.values(headers)) secrets.addCredential(value);
  return headers;
}
