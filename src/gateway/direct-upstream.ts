/**
 * The gateway's direct path to a plain HTTP upstream for a plain `tools/call` (MCP spec 2026-07-28 and
 * 2025-11-25, "Transports > Streamable HTTP"; "Server > Tools > Calling Tools"): one undici request with the
 * renamed call, its JSON answer mapped back, without the upstream client's layers (hooks, call defaults and
 * limiter, session, wire, transport). The client stays the upstream's owner: it connects, lists tools, holds
 * the 2025 session (its `sessionId` is sent here) and renews it; this path only borrows its connection.
 *
 * An upstream is eligible when its configuration entry is nothing but a URL (no headers, no auth, no query,
 * no tool options, no call limit) and the clients' options ask for nothing the client layers do per call
 * (no hooks, wire listener, cache, custom fetch). What the client sends is learnt, not rebuilt: the upstream
 * client's wire (`onWireMessage`) shows the `tools/call` it sent, and its `_meta` (the 2026-07-28 envelope:
 * version, client info, declared capabilities; nothing in 2025) is sent as learnt for as long as the
 * client's protocol version is the one it was learnt with. Until then every call takes the ordinary path.
 *
 * An upstream that asks (a 2025 server request, a 2026-07-28 `input_required` result seen on its wire)
 * never takes this path again; its questions need the relay (relay.ts). When the direct request itself gets
 * `input_required` (nothing ran: MCP spec 2026-07-28, "Basic > Patterns > Multi Round-Trip Requests"), the
 * call is handed to the ordinary path, which sends it again and relays the question; so is a call whose
 * connection was refused (nothing was sent), for the client to notice its upstream down. An upstream that
 * answers a direct request with an event stream is read through for its response and then left to the
 * ordinary path too.
 *
 * Failures are the ones the client layer gives, field for field where the gateway's answer reads them:
 * a JSON-RPC error is kind `jsonrpc` (`code`, `data`, the server's message); a 404 to a 2025 session is
 * `session_expired` (upstream-call.ts renews the session); another error status is `http`; no answer within
 * the call timeout is `timeout`; a request that failed on the socket is `transport`.
 */
import { request } from 'undici';
import {
  MCPCallError,
  type MCPClient,
  type MCPCreateClientOptions,
  type MCPServerConfig,
} from '../mcp/for-gateway.js';

type Params = Record<string, unknown>;
type WireListener = NonNullable<MCPCreateClientOptions['onWireMessage']>;

/**
 * The upstream's answer to a direct call: its result, or `ordinary` (nothing ran: the ordinary path sends
 * the call, for an upstream that asks, or one that refused the connection, which its client must notice).
 */
export type DirectAnswer = { kind: 'result'; value: Params } | { kind: 'ordinary' };

/** A direct call ready to send; resolves with the answer. @throws MCPCallError (see the file header). */
export type DirectCall = (signal: AbortSignal) => Promise<DirectAnswer>;

/** Entry keys a plain HTTP upstream may have: none changes a call's request. */
const PLAIN_ENTRY_KEYS = new Set(['name', 'kind', 'url', 'options', 'allowTools', 'blockTools']);
/** Client option keys that change nothing per call (the call timeout is read here). */
const PLAIN_CLIENT_KEYS = new Set(['connectTimeoutMs', 'callOptions', 'stderr', 'name', 'version']);
const PLAIN_CALL_KEYS = new Set(['timeoutMs', 'resetTimeoutOnProgress']);
/** `_meta` keys the client's own `tools/call` may carry to be learnt: the 2026-07-28 envelope. */
const ENVELOPE_KEYS = new Set([
  'io.modelcontextprotocol/protocolVersion',
  'io.modelcontextprotocol/clientInfo',
  'io.modelcontextprotocol/clientCapabilities',
  'io.modelcontextprotocol/logLevel',
]);
const VERSION_KEY = 'io.modelcontextprotocol/protocolVersion';
/** The call timeout when the clients' options name none (the client layer's default), in ms. */
const DEFAULT_CALL_TIMEOUT_MS = 60_000;
/** Longest error body kept on an `http` error, in characters (as the client's transport). */
const BODY_EXCERPT_CHARS = 2_000;

interface Learnt {
  /** The client's protocol version when learnt. */
  version: string;
  /** The `_meta` of its `tools/call` as JSON ('' without). */
  meta: string;
  /** 2026-07-28 (the envelope names the version) or 2025 (a session). */
  modern: boolean;
}

/** The direct path of one gateway; see the file header. */
export class DirectUpstreams {
  readonly #urls = new Map<string, string>();
  readonly #timeoutMs: number;
  readonly #learnt = new Map<string, Learnt>();
  /** Upstreams seen asking, or answering with a stream: the ordinary path from then on. */
  readonly #off = new Set<string>();
  /** The upstream clients by name, once the gateway has them. */
  #clients: { get(name: string): MCPClient | undefined } | undefined;
  #id = 0;

  /**
   * The eligible upstreams of `config` (see the file header) under the clients' `options`; none when the
   * options ask for per-call work.
   */
  constructor(config: MCPServerConfig, options: MCPCreateClientOptions = {}) {
    const callOptions = (options.callOptions ?? {}) as Record<string, unknown>;
    const timeout = callOptions.timeoutMs;
    this.#timeoutMs = typeof timeout === 'number' && timeout >= 1 ? timeout : DEFAULT_CALL_TIMEOUT_MS;
    if (!onlyKeys(options, PLAIN_CLIENT_KEYS) || !onlyKeys(callOptions, PLAIN_CALL_KEYS)) return;
    for (const entry of config.servers) {
      const url = plainUrl(entry);
      if (url !== undefined) this.#urls.set(entry.name, url);
    }
  }

  /** Whether any upstream is eligible (else the wire listener is not installed). */
  get any(): boolean {
    return this.#urls.size > 0;
  }

  /** Tells the direct path the upstream clients (whose wire it learns from). */
  attach(clients: { get(name: string): MCPClient | undefined }): void {
    this.#clients = clients;
  }

  /** The upstream clients' wire listener: learns their `tools/call`, notices questions. */
  readonly listener: WireListener = ({ server, direction, message }) => {
    if (!this.#urls.has(server) || this.#off.has(server)) return;
    if (direction === 'receive') {
      const asked = 'method' in message && 'id' in message;
      const result = (message as { result?: { resultType?: unknown } }).result;
      if (asked || result?.resultType === 'input_required') this.#off.add(server);
      return;
    }
    if (direction !== 'send' || !('method' in message) || message.method !== 'tools/call') return;
    if (this.#learnt.has(server)) return;
    const sent = (message.params as Params | undefined)?._meta;
    // The client's own progress token (its timeout restarts on progress) is not learnt: a direct call is
    // answered by one JSON body, with no progress to wait through, and asks for none.
    const { progressToken: _token, ...rest } = isObject(sent) ? sent : {};
    const meta = sent === undefined || Object.keys(rest).length === 0 ? undefined : rest;
    if (sent !== undefined && !isObject(sent)) return;
    if (meta !== undefined && !envelopeOnly(meta)) return;
    const version = this.#clients?.get(server)?.getProtocolVersion();
    if (version === undefined) return;
    const modern = meta !== undefined && (meta as Params)[VERSION_KEY] === version;
    this.#learnt.set(server, { version, meta: meta === undefined ? '' : JSON.stringify(meta), modern });
  };

  /**
   * The direct call of tool `tool` with `input` on `client`, when it can take this path now; `mayHaveHeaders`
   * is whether the tool's definition declares `x-mcp-header` parameters (those the client must send).
   */
  call(client: MCPClient, tool: string, input: Params, mayHaveHeaders: boolean): DirectCall | undefined {
    const server = client.name;
    const url = this.#urls.get(server);
    if (url === undefined) return undefined;
    const learnt = this.#learnt.get(server);
    if (learnt === undefined || mayHaveHeaders || this.#off.has(server)) return undefined;
    if (!client.isConnected() || client.getProtocolVersion() !== learnt.version) return undefined;
    if (!learnt.modern && client.sessionId === undefined) return undefined;
    const id = ++this.#id;
    const meta = learnt.meta === '' ? '' : `,"_meta":${learnt.meta}`;
    const body = `{"jsonrpc":"2.0","id":${id},"method":"tools/call","params":{"name":${JSON.stringify(tool)},"arguments":${JSON.stringify(input)}${meta}}}`;
    const headers: Record<string, string> = {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': learnt.version,
    };
    if (learnt.modern) {
      headers['mcp-method'] = 'tools/call';
      headers['mcp-name'] = tool;
    }
    const context = { server, tool, id, modern: learnt.modern };
    return (signal) => {
      // Read at each send: a call sent again after a renewal goes on the new session (upstream-call.ts).
      const sessionId = client.sessionId;
      if (!learnt.modern && sessionId !== undefined) headers['mcp-session-id'] = sessionId;
      return this.#send(url, headers, body, signal, context);
    };
  }

  async #send(
    url: string,
    headers: Record<string, string>,
    body: string,
    signal: AbortSignal,
    context: { server: string; tool: string; id: number; modern: boolean },
  ): Promise<DirectAnswer> {
    const ms = this.#timeoutMs;
    const details = { server: context.server, method: 'tools/call', toolName: context.tool };
    let text: string;
    let status: number;
    let type: string;
    try {
      const response = await request(url, {
        method: 'POST',
        headers,
        body,
        signal,
        headersTimeout: ms,
        bodyTimeout: ms,
      });
      status = response.statusCode;
      const contentType = response.headers['content-type'];
      type = typeof contentType === 'string' ? contentType : '';
      text = await response.body.text();
    } catch (error) {
      // Refused before anything was sent: the client's own request finds the upstream down and says so
      // (its `disconnected` is what upstream-health.ts reconnects on).
      if ((error as { code?: unknown } | undefined)?.code === 'ECONNREFUSED' && !signal.aborted)
        return { kind: 'ordinary' };
      throw socketError(error, details, ms, signal);
    }
    if (status === 404 && !context.modern) {
      throw new MCPCallError(
        'session_expired',
        `the server no longer knows this session (HTTP ${status}); the session was cleared and needs a new initialize`,
        { ...details, status, body: text.slice(0, BODY_EXCERPT_CHARS) },
      );
    }
    let message: Params | undefined;
    if (type.startsWith('text/event-stream')) {
      // An upstream that streams may ask on its stream: the ordinary path serves it from now on.
      this.#off.add(context.server);
      message = streamedResponse(text, context.id);
    } else message = parseObject(text);
    if (status < 200 || status >= 300) {
      const error = context.modern && status < 500 ? jsonRpcError(message, context.id) : undefined;
      if (error) throw rpcError(error, details, { status, body: text.slice(0, BODY_EXCERPT_CHARS) });
      const oneLine = text.slice(0, BODY_EXCERPT_CHARS).replace(/\s+/g, ' ').trim();
      throw new MCPCallError(
        'http',
        `the server answered HTTP ${status}${oneLine === '' ? '' : `: ${oneLine}`}`,
        {
          ...details,
          status,
          body: text.slice(0, BODY_EXCERPT_CHARS),
        },
      );
    }
    const error = jsonRpcError(message, context.id);
    if (error) throw rpcError(error, details, {});
    const result = message?.result;
    if (message?.id !== context.id || !isObject(result)) {
      throw new MCPCallError('protocol', 'the server answered without a response to the request', details);
    }
    if (result.resultType === 'input_required') {
      this.#off.add(context.server);
      return { kind: 'ordinary' };
    }
    return { kind: 'result', value: result };
  }
}

/** The URL of a configuration entry that is a plain HTTP upstream, or undefined. */
function plainUrl(entry: MCPServerConfig['servers'][number]): string | undefined {
  if (entry.kind !== 'http' || !onlyKeys(entry, PLAIN_ENTRY_KEYS)) return undefined;
  const { transport, ...rest } = entry.options;
  if (Object.keys(rest).length > 0 || (transport !== 'auto' && transport !== 'streamable-http'))
    return undefined;
  let parsed: URL;
  try {
    parsed = new URL(entry.url);
  } catch {
    return undefined;
  }
  // A query may carry a credential the client redacts from its errors: its path, not this one.
  if (parsed.search !== '') return undefined;
  return parsed.href;
}

function onlyKeys(value: object, keys: ReadonlySet<string>): boolean {
  for (const key of Object.keys(value)) if (!keys.has(key)) return false;
  return true;
}

function envelopeOnly(meta: unknown): boolean {
  return isObject(meta) && onlyKeys(meta, ENVELOPE_KEYS);
}

function isObject(value: unknown): value is Params {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

function parseObject(text: string): Params | undefined {
  try {
    const value: unknown = JSON.parse(text);
    return isObject(value) ? value : undefined;
  } catch {
    return undefined;
  }
}

/** The JSON-RPC response to `id` among the `data:` events of an event stream's text. */
function streamedResponse(text: string, id: number): Params | undefined {
  for (const event of text.split(/\r?\n\r?\n/)) {
    const data = event
      .split(/\r?\n/)
      .filter((line) => line.startsWith('data:'))
      .map((line) => line.slice(line.startsWith('data: ') ? 6 : 5))
      .join('\n');
    const message = data === '' ? undefined : parseObject(data);
    if (message?.id === id && ('result' in message || 'error' in message)) return message;
  }
  return undefined;
}

/** The `error` of a JSON-RPC error response to `id` (or `null`), if `message` is one. */
function jsonRpcError(message: Params | undefined, id: number): Params | undefined {
  if (message === undefined || 'result' in message || (message.id !== id && message.id !== null))
    return undefined;
  const { error } = message;
  return isObject(error) && typeof error.code === 'number' ? error : undefined;
}

function rpcError(
  error: Params,
  details: { server: string; method: string; toolName: string },
  http: { status?: number; body?: string },
): MCPCallError {
  const text = typeof error.message === 'string' ? error.message : '';
  return new MCPCallError('jsonrpc', `server returned JSON-RPC error ${error.code}: ${text}`, {
    ...details,
    ...http,
    code: error.code as number,
    data: error.data,
    serverMessage: text,
  });
}

/** The error for a request that failed on the socket, timed out or was aborted. */
function socketError(
  error: unknown,
  details: { server: string; method: string; toolName: string },
  ms: number,
  signal: AbortSignal,
): MCPCallError {
  if (signal.aborted)
    return new MCPCallError('aborted', 'the call was aborted', { ...details, cause: error });
  const code = (error as { code?: unknown } | undefined)?.code;
  if (code === 'UND_ERR_HEADERS_TIMEOUT' || code === 'UND_ERR_BODY_TIMEOUT')
    return new MCPCallError('timeout', `no response within ${ms} ms`, {
      ...details,
      timeoutMs: ms,
      cause: error,
    });
  return new MCPCallError('transport', 'the request to the server failed', { ...details, cause: error });
}
