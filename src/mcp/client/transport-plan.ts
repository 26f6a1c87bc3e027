/**
 * How a client reaches its server: which transports to try, in order, and when to fall back to the next.
 * Streamable HTTP first, then the 2024-11-05 HTTP+SSE transport when the server answers `initialize` the
 * way old servers do (MCP spec 2025-11-25, "Transports > Backwards Compatibility").
 */
import path from 'node:path';
import type { OAuthClientProvider } from '@modelcontextprotocol/client';
import type { MCPTokenSupplier } from '../config/request-context.js';
import {
  checkHeaders,
  type MCPHttpServer,
  type MCPStdioServer,
  parseServerUrl,
} from '../config/server-spec.js';
import { MCPConfigError } from '../protocol/errors.js';
import { envSecrets, httpSecrets, type Redactor } from '../protocol/redact.js';
import type { PeerAddress } from '../session/mcp-span.js';
import type { EraProbe } from '../session/negotiation/negotiate.js';
import type { TransportFactory } from '../session/session.js';
import { HttpAuth } from '../transports/http/auth.js';
import { GrantProvider } from '../transports/http/grant-provider.js';
import { isLegacyFallbackError, LegacySSETransport } from '../transports/http/legacy-sse.js';
import { StreamableHTTPTransport } from '../transports/http/streamable-http.js';
import { StdioTransport } from '../transports/stdio/stdio-transport.js';
import { askedHeaders } from './hooks/asked-headers.js';
import { DEFAULT_CONNECT_TIMEOUT_MS } from './options.js';

/** One way to reach the server. */
export interface TransportCandidate {
  create: TransportFactory;
  /** When this candidate's `initialize` fails with such an error, the next candidate is tried. */
  fallBackOn?: (error: unknown) => boolean;
  /** Logged when falling back. */
  fallbackNote?: string;
  /**
   * How this transport is probed for the 2026-07-28 era (session/negotiate.ts); absent: it speaks the
   * legacy era only and connects with `initialize` at once.
   */
  probe?: EraProbe;
  /**
   * The key of the era verdict this candidate keeps between connects (session/era-verdict.ts): an HTTP
   * server's origin, a stdio server's command line; absent: none.
   */
  verdictOrigin?: string;
}

/** The ordered ways to reach one server, and its default name. */
export interface TransportPlan {
  defaultName: string;
  /** Whether the server is reached over HTTP (requests have headers) or stdio (they have none). */
  transport: 'http' | 'stdio';
  candidates: TransportCandidate[];
  /** The OAuth state shared by every transport of the client, when it has an `authProvider`. */
  auth?: HttpAuth;
  /** Removes this server's credentials from error text (see redact.ts). */
  redact: Redactor;
  /** Where the server is, for request spans (session/mcp-span.ts). */
  peer?: PeerAddress;
  /**
   * Whether each HTTP request asks for its headers (a `headers` function or a token supplier): then every
   * request carries its context (method, tool name, run) to them, a plain call included.
   */
  asksPerRequest?: boolean;
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

/** `localhost:3001` for `http://localhost:3001/mcp`: an HTTP server's default name is its URL's host (and port). */
export function nameFromUrl(url: URL): string {
  return url.host;
}

/**
 * How to reach a stdio server: one candidate, our `StdioTransport` (MCP spec 2025-11-25, "Transports >
 * stdio"). `name` defaults to {@link nameFromCommand}. Nothing is spawned until the factory is called.
 */
export function stdioTransportPlan(server: MCPStdioServer, name: string | undefined): TransportPlan {
  const serverName = name ?? nameFromCommand(server.command, server.args);
  return {
    defaultName: serverName,
    transport: 'stdio',
    candidates: [
      {
        create: () => new StdioTransport({ ...server, serverName }),
        probe: 'stdio',
        verdictOrigin: commandLine(server),
      },
    ],
    // The values of its `env`, should the server echo them in a JSON-RPC error (its stderr and stdout lines
    // are redacted by the transport).
    redact: envSecrets(server.env).redact,
    peer: { transport: 'pipe' },
  };
}

/**
 * The key of a stdio server's era verdict: what starts the same server again (MCP spec 2026-07-28, "Basic >
 * Versioning > Backward Compatibility": the verdict MAY persist "across restarts of the same server
 * configuration"). Kept in memory only, by the client.
 */
function commandLine(server: MCPStdioServer): string {
  const { command, args = [], cwd, env, inheritEnv } = server;
  return `stdio:${JSON.stringify([command, args, cwd ?? null, env ?? null, inheritEnv === true])}`;
}

/**
 * How to reach an HTTP server: Streamable HTTP, then (mode `auto`) the 2024-11-05 HTTP+SSE transport when
 * `initialize` is refused with 400/404/405 (MCP spec 2025-11-25, "Transports > Backwards Compatibility").
 * Builds the credential redactor (which learns the OAuth tokens as they are obtained) and, with an
 * `authProvider`, the OAuth state shared by both transports.
 * `connectTimeoutMs` (default {@link DEFAULT_CONNECT_TIMEOUT_MS}) bounds the HTTP+SSE transport's GET and
 * `endpoint` event, which come before `initialize`.
 * @throws MCPConfigError for a URL that is not http(s), carries credentials, or a header that fetch would reject;
 *   for an `auth` grant that lacks what it needs, or given with `authProvider`.
 */
export function httpTransportPlan(
  url: string | URL,
  options: MCPHttpServer & { name?: string; connectTimeoutMs?: number },
): TransportPlan {
  const target = parseServerUrl(url);
  const given = options.headers;
  const headers = typeof given === 'function' ? undefined : given;
  checkHeaders(headers ?? {});
  const serverName = options.name ?? nameFromUrl(target);
  const secrets = httpSecrets(target, headers);
  if (options.authProvider !== undefined && options.auth !== undefined)
    throw new MCPConfigError('set one of authProvider and auth, not both', { field: 'auth' });
  // A bare token supplier is asked per request (hooks/asked-headers.ts); an OAuth provider drives HttpAuth.
  const oauth = options.authProvider;
  const supplier = oauth !== undefined && !isOAuthProvider(oauth) ? oauth : undefined;
  const asksPerRequest = typeof given === 'function' || supplier !== undefined;
  const provider =
    options.auth === undefined
      ? supplier === undefined
        ? (oauth as OAuthClientProvider | undefined)
        : undefined
      : new GrantProvider(options.auth, { server: serverName, secrets });
  const auth =
    provider &&
    new HttpAuth({
      serverUrl: target,
      provider,
      secrets,
      ...(options.fetch && { fetch: options.fetch }),
      ...(options.skipIssuerMetadataValidation === true && { skipIssuerMetadataValidation: true }),
      ...(options.dpop !== undefined && { dpop: options.dpop }),
    });
  const shared = {
    url: target,
    serverName,
    ...(headers && { headers }),
    requestHeaders: askedHeaders({
      server: serverName,
      headers: typeof given === 'function' ? given : undefined,
      supplier,
      secrets,
    }),
    // A function or a supplier may answer a 401 with new credentials: they are asked again, once.
    ...(asksPerRequest && { reaskAfter401: true }),
    ...(auth && { auth }),
    ...(options.fetch && { fetch: options.fetch }),
    ...(options.maxMessageBytes !== undefined && { maxMessageBytes: options.maxMessageBytes }),
  };
  // MCP spec 2026-07-28, "Transports > Streamable HTTP > Backward Compatibility": probed with
  // `server/discover`; an old server's 4xx leads to `initialize`, and from there to the HTTP+SSE fallback.
  const streamable: TransportCandidate = {
    probe: 'http',
    verdictOrigin: target.origin,
    create: () =>
      new StreamableHTTPTransport({
        ...shared,
        ...(options.idleTimeoutMs !== undefined && { idleTimeoutMs: options.idleTimeoutMs }),
      }),
  };
  // The GET and its `endpoint` event come before `initialize`, so the connect timeout bounds them too.
  const endpointTimeoutMs = options.connectTimeoutMs ?? DEFAULT_CONNECT_TIMEOUT_MS;
  const legacy: TransportCandidate = {
    create: () => new LegacySSETransport({ ...shared, endpointTimeoutMs }),
  };
  const mode = options.transport ?? 'auto';
  const redact = secrets.redact;
  const plan = (candidates: TransportCandidate[]): TransportPlan => ({
    defaultName: serverName,
    transport: 'http',
    candidates,
    redact,
    ...(asksPerRequest && { asksPerRequest }),
    ...(auth && { auth }),
    peer: {
      transport: 'tcp',
      address: target.hostname.replace(/^\[(.*)\]$/, '$1'),
      port: Number(target.port) || (target.protocol === 'https:' ? 443 : 80),
    },
  });
  if (mode === 'sse') return plan([legacy]);
  if (mode === 'streamable-http') return plan([streamable]);
  streamable.fallBackOn = isLegacyFallbackError;
  streamable.fallbackNote =
    'initialize over Streamable HTTP was refused; trying the 2024-11-05 HTTP+SSE transport';
  return plan([streamable, legacy]);
}

/**
 * Whether `provider` runs the OAuth flow (the MCP SDK's `OAuthClientProvider`: it can send the user to
 * authorize), not a bare {@link MCPTokenSupplier} that only hands out tokens.
 */
function isOAuthProvider(provider: OAuthClientProvider | MCPTokenSupplier): provider is OAuthClientProvider {
  return typeof (provider as Partial<OAuthClientProvider>).redirectToAuthorization === 'function';
}
