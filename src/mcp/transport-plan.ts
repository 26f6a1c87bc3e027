/**
 * How a client reaches its server: which transports to try, in order, and when to fall back to the next.
 * Streamable HTTP first, then the 2024-11-05 HTTP+SSE transport when the server answers `initialize` the
 * way old servers do (MCP spec 2025-11-25, "Transports > Backwards Compatibility").
 */
import path from 'node:path';
import type { OAuthClientProvider } from '@modelcontextprotocol/client';
import { HttpAuth } from './auth.js';
import { MCPConfigError } from './errors.js';
import { httpRedactor, noRedaction, type Redactor } from './redact.js';
import type { TransportFactory } from './session.js';
import { isLegacyFallbackError, LegacySSETransport } from './transports/legacy-sse.js';
import { StdioTransport } from './transports/stdio.js';
import { StreamableHTTPTransport } from './transports/streamable-http.js';

/** A local server started as a child process (TypeScript seed, `MCPClient.fromStdio(config)`). */
export interface MCPStdioServer {
  /** Command to run (`node`, `npx`, `python`, an absolute path…), looked up on PATH. */
  command: string;
  /** Arguments passed to the command. */
  args?: string[];
  /**
   * Environment variables for the process, merged over a safe default environment (PATH, HOME, USER,
   * SHELL, TERM, LOGNAME — the SDK's list); these win. Values never appear in errors or logs.
   */
  env?: Record<string, string>;
  /** Pass the whole parent environment (then `env` on top). Default false. */
  inheritEnv?: boolean;
  /** Working directory. Default: the host's. */
  cwd?: string;
  /**
   * What to do with the server's stderr besides keeping its last lines for errors: `'capture'` (default,
   * keep only), `'inherit'` (also copy to the host's stderr), or a function receiving each line.
   */
  stderr?: 'capture' | 'inherit' | ((line: string) => void);
}

/** HTTP-specific options of `MCPClient.fromUrl` (TypeScript seed, "Authentication"; Rust seed, "HTTP"). */
export interface MCPHttpServer {
  /** Static headers on every request (e.g. `Authorization: Bearer …`). Values never appear in errors. */
  headers?: Record<string, string>;
  /**
   * OAuth provider (the MCP SDK's `OAuthClientProvider` interface) for servers that require OAuth. When the
   * user must authorize, `connect()` fails with an `MCPCallError` (kind `http`, status 401, `cause` the SDK's
   * `UnauthorizedError`) after the provider's `redirectToAuthorization(url)`; call `client.finishAuth(code)`
   * and `connect()` again (see auth.ts).
   */
  authProvider?: OAuthClientProvider;
  /**
   * Accept authorization server metadata whose `issuer` differs from the URL it was fetched for (RFC 8414
   * §3.3), for servers whose metadata predates that check. Security-weakening. Default false.
   */
  skipIssuerMetadataValidation?: boolean;
  /** `'streamable-http'`, `'sse'` (2024-11-05 HTTP+SSE), or `'auto'`: Streamable HTTP, else SSE. Default auto. */
  transport?: 'auto' | 'streamable-http' | 'sse';
  /** Bound in ms on silence from a server while a response is awaited; resets on every byte. Default 120 000. */
  idleTimeout?: number;
  /**
   * A `fetch` for every request (proxies, custom TLS, tests). Default: undici's `request()` on the global
   * dispatcher, the one the global `fetch` uses (so `setGlobalDispatcher` applies); the global `fetch`
   * itself when it is not Node's own (a stub, MSW), for ports `fetch` refuses, and after a redirect (see
   * transports/http-undici.ts).
   */
  fetch?: typeof fetch;
}

/** One way to reach the server. */
export interface TransportCandidate {
  create: TransportFactory;
  /** When this candidate's `initialize` fails with such an error, the next candidate is tried. */
  fallBackOn?: (error: unknown) => boolean;
  /** Logged when falling back. */
  fallbackNote?: string;
}

/** The ordered ways to reach one server, and its default name. */
export interface TransportPlan {
  defaultName: string;
  candidates: TransportCandidate[];
  /** The OAuth state shared by every transport of the client, when it has an `authProvider`. */
  auth?: HttpAuth;
  /** Removes this server's credentials from error text (see redact.ts). */
  redact: Redactor;
}

const RUNNERS = new Set([
  'node',
  'npx',
  'bun',
  'bunx',
  'deno',
  'python',
  'python3',
  'uv',
  'uvx',
  'pnpm',
  'yarn',
  'sh',
  'bash',
]);

/** `server-everything` for `node …/server-everything/dist/index.js`, `server-filesystem` for `npx -y @x/server-filesystem /tmp`. */
export function nameFromCommand(command: string, args: readonly string[] = []): string {
  const base = path.basename(command).replace(/\.(exe|cmd)$/i, '');
  if (!RUNNERS.has(base)) return base;
  // `node -e "<script>"`, `python -c …`: the script is no name.
  if (args.some((arg) => ['-e', '-c', '-p', '--eval', '--print'].includes(arg))) return base;
  const target = args.find((arg) => !arg.startsWith('-'));
  if (target === undefined) return base;
  const inModules = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(target);
  const named = inModules?.[1] ?? target;
  return path.basename(named.replace(/@[^/@]*$/, '')).replace(/\.(m?js|ts|py)$/, '');
}

/**
 * How to reach a stdio server: one candidate, our `StdioTransport` (MCP spec 2025-11-25, "Transports >
 * stdio"). `name` defaults to {@link nameFromCommand}. Nothing is spawned until the factory is called.
 */
export function stdioTransportPlan(server: MCPStdioServer, name: string | undefined): TransportPlan {
  const serverName = name ?? nameFromCommand(server.command, server.args);
  return {
    defaultName: serverName,
    candidates: [{ create: () => new StdioTransport({ ...server, serverName }) }],
    redact: noRedaction,
  };
}

/**
 * The server URL, checked. Credentials in the URL (`user:password@`) are refused: `fetch` cannot send them
 * and they would be printed wherever the URL is. Messages never quote the URL.
 * @throws MCPConfigError
 */
function parseServerUrl(url: string | URL): URL {
  let target: URL;
  try {
    target = new URL(url);
  } catch (error) {
    throw new MCPConfigError('the server URL is not a valid absolute URL', { cause: error });
  }
  if (target.protocol !== 'http:' && target.protocol !== 'https:') {
    throw new MCPConfigError(`the server URL must be http: or https:, not ${target.protocol}`);
  }
  if (target.username || target.password) {
    throw new MCPConfigError(
      'the server URL must not contain credentials (user:password@); send them in a header such as Authorization',
    );
  }
  return target;
}

/**
 * Refuses headers that `fetch` would reject at the first request, where its error would quote the value.
 * @throws MCPConfigError naming the header, never its value.
 */
function checkHeaders(headers: Record<string, string>): void {
  for (const [name, value] of Object.entries(headers)) {
    if (!/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/.test(name)) {
      throw new MCPConfigError(
        "a header name is not a valid HTTP header name (letters, digits and !#$%&'*+.^_`|~-)",
      );
    }
    if (typeof value !== 'string' || /[\r\n\0]/.test(value)) {
      throw new MCPConfigError(`header "${name}": the value must be a string without line breaks or NUL`);
    }
    try {
      new Headers([[name, value]]);
    } catch {
      throw new MCPConfigError(`header "${name}": the value is not a valid HTTP header value`);
    }
  }
}

/**
 * How to reach an HTTP server: Streamable HTTP, then (mode `auto`) the 2024-11-05 HTTP+SSE transport when
 * `initialize` is refused with 400/404/405 (MCP spec 2025-11-25, "Transports > Backwards Compatibility").
 * Builds the credential redactor and, with an `authProvider`, the OAuth state shared by both transports.
 * @throws MCPConfigError for a URL that is not http(s), carries credentials, or a header that fetch would reject.
 */
export function httpTransportPlan(
  url: string | URL,
  options: MCPHttpServer & { name?: string },
): TransportPlan {
  const target = parseServerUrl(url);
  checkHeaders(options.headers ?? {});
  const serverName = options.name ?? target.host;
  const auth =
    options.authProvider &&
    new HttpAuth({
      serverUrl: target,
      provider: options.authProvider,
      ...(options.fetch && { fetch: options.fetch }),
      ...(options.skipIssuerMetadataValidation === true && { skipIssuerMetadataValidation: true }),
    });
  const shared = {
    url: target,
    serverName,
    ...(options.headers && { headers: options.headers }),
    ...(auth && { auth }),
    ...(options.fetch && { fetch: options.fetch }),
  };
  const streamable: TransportCandidate = {
    create: () =>
      new StreamableHTTPTransport({
        ...shared,
        ...(options.idleTimeout !== undefined && { idleTimeoutMs: options.idleTimeout }),
      }),
  };
  const legacy: TransportCandidate = { create: () => new LegacySSETransport(shared) };
  const mode = options.transport ?? 'auto';
  const redact = httpRedactor(target, options.headers);
  const plan = (candidates: TransportCandidate[]): TransportPlan => ({
    defaultName: serverName,
    candidates,
    redact,
    ...(auth && { auth }),
  });
  if (mode === 'sse') return plan([legacy]);
  if (mode === 'streamable-http') return plan([streamable]);
  streamable.fallBackOn = isLegacyFallbackError;
  streamable.fallbackNote =
    'initialize over Streamable HTTP was refused; trying the 2024-11-05 HTTP+SSE transport';
  return plan([streamable, legacy]);
}
